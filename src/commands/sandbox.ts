// crm sandbox init | serve | reset | status: the local workspace (SQLite in the user's data dir).

import { existsSync, rmSync } from 'node:fs';
import { interruptedError } from '../cli/errors.js';
import { parseInteger } from '../cli/input.js';
import { noticeMarker } from '../http/sandbox-transport.js';
import { confirmOrStop } from './run.js';
import type { LocalHandler } from './local.js';

export const DEFAULT_PORT = 4010;

async function sandboxModule() {
  return import('../sandbox/index.js');
}

/** Path, key and counts; opening creates and seeds the database unless `seed` is false. */
async function describe(dbPath: string, seed = false): Promise<Record<string, unknown>> {
  if (!seed && !existsSync(dbPath)) return { path: dbPath, exists: false };
  const { openSandbox } = await sandboxModule();
  const sandbox = openSandbox({ dbPath, seed });
  try {
    return { path: dbPath, exists: true, api_key: sandbox.apiKey, ...sandbox.counts() };
  } finally {
    sandbox.close();
  }
}

export const init: LocalHandler = async (ctx, { options }) => {
  const { defaultSandboxPath, resetSandbox } = await sandboxModule();
  const dbPath = defaultSandboxPath(ctx.env);
  if (existsSync(dbPath)) {
    if (!options.force) {
      ctx.info(`The sandbox already exists at ${dbPath} (pass --force to start again from fresh demo data).`);
      await ctx.printer.record(await describe(dbPath));
      return;
    }
    resetSandbox(dbPath);
  }
  const created = await describe(dbPath, true);
  ctx.info(`✓ Created the sandbox with demo data at ${dbPath}`);
  await ctx.printer.record(created);
};

export const status: LocalHandler = async (ctx) => {
  const { defaultSandboxPath } = await sandboxModule();
  await ctx.printer.record(await describe(defaultSandboxPath(ctx.env)));
};

export const reset: LocalHandler = async (ctx, { options }) => {
  const { defaultSandboxPath, resetSandbox } = await sandboxModule();
  const dbPath = defaultSandboxPath(ctx.env);
  await confirmOrStop(ctx, `Delete the sandbox database at ${dbPath}?`, Boolean(options.yes));
  resetSandbox(dbPath);
  rmSync(noticeMarker(dbPath), { force: true });
  ctx.info(`✓ Deleted ${dbPath}; fresh demo data is seeded on next use.`);
};

export const serve: LocalHandler = async (ctx, { options }) => {
  const port = options.port === undefined ? DEFAULT_PORT : parseInteger(String(options.port), '--port', 0, 65535);
  const { defaultSandboxPath, openSandbox } = await sandboxModule();
  const { serveSandbox } = await import('../sandbox/server.js');
  const sandbox = openSandbox({ dbPath: defaultSandboxPath(ctx.env) });
  const served = await serveSandbox({
    sandbox,
    port,
    onRequest: ctx.debug ? (entry) => ctx.info(`${entry.status} ${entry.method} ${entry.url}`) : undefined,
  });
  const info = { url: served.url, api_key: sandbox.apiKey, port: served.port, path: sandbox.dbPath };
  if (ctx.printer.isMachineReadable) {
    ctx.io.stdout.write(`${JSON.stringify(info)}\n`);
  } else {
    ctx.printer.write(`${served.url}\n`);
  }
  ctx.info(
    `Sandbox serving at ${served.url} (database ${sandbox.dbPath}).\n` +
      `Try: CRM_BASE_URL=${served.url} CRM_API_KEY=${sandbox.apiKey} crm contacts list\n` +
      'Press Ctrl-C to stop.',
  );
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  await served.close();
  sandbox.close();
  // Ctrl-C is the documented way to stop it, reported like any interruption (exit 130).
  if (signal === 'SIGINT') throw interruptedError();
};
