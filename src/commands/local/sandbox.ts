// crm sandbox init | serve | reset | status: the local workspace (SQLite in the user's data dir).

import { existsSync, rmSync } from 'node:fs';
import { usageError } from '../../cli/errors.js';
import { done, record } from '../../cli/result.js';
import { noticeMarker, sandboxPath } from '../../config/paths.js';
import { describeSandbox, resetSandbox } from '../../transport/sandbox.js';
import { confirmDeletion } from '../run.js';
import type { LocalHandler } from './types.js';

const DEFAULT_PORT = 4010;

/** Path, SQLite binding, key and counts; opening creates and seeds the database unless `seed` is false. */
async function describe(dbPath: string, seed = false): Promise<Record<string, unknown>> {
  if (!seed && !existsSync(dbPath)) return { path: dbPath, exists: false };
  return { path: dbPath, exists: true, ...(await describeSandbox(dbPath, seed)) };
}

export const init: LocalHandler = async (ctx, { options }) => {
  const dbPath = sandboxPath(ctx.env);
  if (ctx.dryRun) return done(`Dry run: the sandbox at ${dbPath} was left as it is.`);
  if (existsSync(dbPath)) {
    if (!options.flag('force')) {
      ctx.info(`The sandbox already exists at ${dbPath} (pass --force to start again from fresh demo data).`);
      return record(await describe(dbPath));
    }
    await resetSandbox(dbPath);
  }
  const created = await describe(dbPath, true);
  ctx.info(`✓ Created the sandbox with demo data at ${dbPath}`);
  return record(created);
};

export const status: LocalHandler = async (ctx) => record(await describe(sandboxPath(ctx.env)));

export const reset: LocalHandler = async (ctx, { options }) => {
  const dbPath = sandboxPath(ctx.env);
  await confirmDeletion(ctx, 'the sandbox', options.flag('yes'), async () => `Replace every record of the sandbox at ${dbPath} with fresh demo data?`);
  if (ctx.dryRun) return done(`Dry run: the sandbox at ${dbPath} was left as it is.`);
  const outcome = await resetSandbox(dbPath);
  rmSync(noticeMarker(dbPath), { force: true });
  const messages = {
    reseeded: `✓ Reset ${dbPath} to fresh demo data (the local key is unchanged).`,
    deleted: `✓ Deleted ${dbPath}, which could not be opened; fresh demo data is seeded on next use.`,
    absent: `There is no sandbox at ${dbPath}; fresh demo data is seeded on first use.`,
  };
  return done(messages[outcome], { path: dbPath, reset: outcome });
};

export const serve: LocalHandler = async (ctx, { options }) => {
  if (ctx.dryRun) throw usageError('sandbox serve sends no requests; --dry-run does not apply');
  const port = options.number('port') ?? DEFAULT_PORT;
  const { openSandbox } = await import('../../sandbox/index.js');
  const { serveSandbox } = await import('../../sandbox/server.js');
  const sandbox = openSandbox({ dbPath: sandboxPath(ctx.env) });
  let served;
  try {
    served = await serveSandbox({
      sandbox,
      port,
      onRequest: ctx.debug ? (entry) => ctx.info(`${entry.status} ${entry.method} ${entry.url}`) : undefined,
    });
  } catch (error) {
    sandbox.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw usageError(`port ${port} is in use`, 'pick another with --port N, or --port 0 for a free one');
    throw error;
  }
  ctx.info(
    `Sandbox serving at ${served.url} (database ${sandbox.dbPath}).\n` +
      `Try: CRM_BASE_URL=${served.url} CRM_API_KEY=${sandbox.apiKey} crm contacts list\n` +
      'Press Ctrl-C to stop.',
  );
  // Stopping releases the port and the database: after SIGTERM (exit 0), or Ctrl-C (exit 130, like
  // any command: src/cli/io.ts).
  ctx.onClose(() => {
    void served.close();
    sandbox.close();
  });
  // The address goes out first (scripts and tests read it), then the server runs until a signal.
  const afterPrint = async () => {
    await new Promise((resolve) => process.once('SIGTERM', resolve));
    return undefined;
  };
  return { ...record({ url: served.url, api_key: sandbox.apiKey, port: served.port, path: sandbox.dbPath }, { columns: ['url'] }), afterPrint };
};
