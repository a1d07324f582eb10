// crm sandbox init [--force]: the local database with demo data.

import { existsSync } from 'node:fs';
import { done, record } from '../../../cli/result.js';
import { sandboxPath } from '../../../config/paths.js';
import { resetSandbox } from '../../../transport/sandbox.js';
import type { Handler } from '../../command.js';
import { describeDatabase } from '../describe.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { options }) => {
  const dbPath = sandboxPath(ctx.env);
  if (ctx.dryRun) return done(`Dry run: the sandbox at ${dbPath} was left as it is.`);
  if (existsSync(dbPath)) {
    if (!options.force) {
      ctx.info(`The sandbox already exists at ${dbPath} (pass --force to start again from fresh demo data).`);
      return record(await describeDatabase(dbPath));
    }
    await resetSandbox(dbPath);
  }
  const created = await describeDatabase(dbPath, true);
  ctx.info(`✓ Created the sandbox with demo data at ${dbPath}`);
  return record(created);
};
