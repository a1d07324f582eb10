// The sandbox's in-process door: its request handler called behind the same HTTP core (the embedded
// default), and the database facts and reset `crm sandbox init|status|reset` need. The other door
// is `crm sandbox serve` (HTTP); nothing else reaches into src/sandbox/ (test/unit/layers.test.ts).

import type { ResetOutcome } from '../sandbox/index.js';
import { pathAndQuery, type Transport } from './types.js';

interface EmbeddedSandbox {
  apiKey: string;
  transport: Transport;
  close(): void;
}

async function sandboxModule() {
  return import('../sandbox/index.js');
}

/** `readOnly`: a dry run's look-ups; the hourly agent does not catch up (it writes). */
export async function openEmbeddedSandbox(dbPath: string, readOnly = false): Promise<EmbeddedSandbox> {
  const { openSandbox } = await sandboxModule();
  const sandbox = await openSandbox({ dbPath, inProcess: true });
  // The hourly agent has no timer in a short-lived process: run what it missed, once.
  if (!readOnly) sandbox.catchUpScoringAgent();
  const transport: Transport = async (request) => {
    const lowerHeaders = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    return sandbox.handle({ method: request.method, url: pathAndQuery(request.url), headers: lowerHeaders, body: request.body ?? '' });
  };
  return { apiKey: sandbox.apiKey, transport, close: () => sandbox.close() };
}

/** The database's SQLite binding, key and record counts; opening it creates and seeds it unless `seed` is false. */
export async function describeSandbox(dbPath: string, seed: boolean): Promise<Record<string, unknown>> {
  const { openSandbox } = await sandboxModule();
  const sandbox = await openSandbox({ dbPath, seed });
  try {
    return { sqlite: sandbox.driver, api_key: sandbox.apiKey, ...sandbox.counts() };
  } finally {
    sandbox.close();
  }
}

/** Fresh demo data, the key kept (src/sandbox/index.ts resetSandbox). */
export async function resetSandbox(dbPath: string): Promise<ResetOutcome> {
  return (await sandboxModule()).resetSandbox(dbPath);
}
