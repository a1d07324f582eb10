// crm sandbox reset [--yes]: fresh demo data, the key kept; safe while it is served.

import { rmSync } from 'node:fs';
import { done } from '../../../cli/result.js';
import { noticeMarker, sandboxPath } from '../../../config/paths.js';
import { resetSandbox } from '../../../transport/sandbox.js';
import type { Handler } from '../../command.js';
import { confirmDeletion } from '../../bulk.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { options }) => {
  const dbPath = sandboxPath(ctx.env);
  await confirmDeletion(ctx, 'the sandbox', Boolean(options.yes), async () => `Replace every record of the sandbox at ${dbPath} with fresh demo data?`);
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
