// The embedded default: the sandbox's request handler called in-process, behind the same HTTP core.

import { pathAndQuery, type Transport } from './types.js';

export interface EmbeddedSandbox {
  apiKey: string;
  transport: Transport;
  close(): void;
}

/** `readOnly`: a dry run's look-ups; the hourly agent does not catch up (it writes). */
export async function openEmbeddedSandbox(dbPath: string, readOnly = false): Promise<EmbeddedSandbox> {
  const { openSandbox } = await import('../sandbox/index.js');
  const sandbox = openSandbox({ dbPath });
  // The hourly agent has no timer in a short-lived process: run what it missed, once.
  if (!readOnly) sandbox.catchUpScoringAgent();
  const transport: Transport = async (request) => {
    const lowerHeaders = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    return sandbox.handle({ method: request.method, url: pathAndQuery(request.url), headers: lowerHeaders, body: request.body ?? '' });
  };
  return { apiKey: sandbox.apiKey, transport, close: () => sandbox.close() };
}
