// The embedded default: the sandbox's request handler called in-process, behind the same HTTP core.

import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Context } from '../cli/context.js';
import type { Transport } from './transport.js';

export interface EmbeddedSandbox {
  apiKey: string;
  transport: Transport;
  close(): void;
}

export async function openEmbeddedSandbox(ctx: Context): Promise<EmbeddedSandbox> {
  const { openSandbox, defaultSandboxPath } = await import('../sandbox/index.js');
  const dbPath = defaultSandboxPath(ctx.env);
  const sandbox = openSandbox({ dbPath });
  // The hourly agent has no timer in a short-lived process: run what it missed, once.
  sandbox.catchUpScoringAgent();
  noticeOnce(ctx, dbPath);
  const transport: Transport = async (request) => {
    const url = new URL(request.url);
    const lowerHeaders = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    // The path is taken as built (URL parsing would resolve dot segments).
    const pathAndQuery = request.url.slice(request.url.indexOf('/', url.protocol.length + 2));
    return sandbox.handle({ method: request.method, url: pathAndQuery, headers: lowerHeaders, body: request.body ?? '' });
  };
  return { apiKey: sandbox.apiKey, transport, close: () => sandbox.close() };
}

/** Beside the database: the notice was shown (`crm sandbox reset` removes it with the data). */
export function noticeMarker(dbPath: string): string {
  return join(dirname(dbPath), 'sandbox-notice-shown');
}

/** Tells a person once (per sandbox database) where their data lives and how to leave the sandbox. */
function noticeOnce(ctx: Context, dbPath: string): void {
  if (!ctx.io.stderrIsTTY) return;
  const marker = noticeMarker(dbPath);
  if (existsSync(marker)) return;
  ctx.info(
    `Using the local sandbox workspace (demo data in ${dbPath}).\n` +
      'Connect a real workspace with `crm auth login --base-url https://<host>`; see `crm sandbox --help`.',
  );
  try {
    writeFileSync(marker, '', { mode: 0o600 });
  } catch {
    // Not being able to remember is harmless: the notice shows again next time.
  }
}
