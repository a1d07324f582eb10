// The embedded default: the sandbox's request handler called in-process, behind the same HTTP core.

import type { Transport } from './types.js';

export interface EmbeddedSandbox {
  apiKey: string;
  transport: Transport;
  close(): void;
}

export async function openEmbeddedSandbox(dbPath: string): Promise<EmbeddedSandbox> {
  const { openSandbox } = await import('../sandbox/index.js');
  const sandbox = openSandbox({ dbPath });
  // The hourly agent has no timer in a short-lived process: run what it missed, once.
  sandbox.catchUpScoringAgent();
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    const lowerHeaders = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    // The path is taken as built (URL parsing would resolve dot segments).
    const pathAndQuery = request.url.slice(request.url.indexOf('/', url.protocol.length + 2));
    return sandbox.handle({ method: request.method, url: pathAndQuery, headers: lowerHeaders, body: request.body ?? '' });
  };
  return { apiKey: sandbox.apiKey, transport, close: () => sandbox.close() };
}
