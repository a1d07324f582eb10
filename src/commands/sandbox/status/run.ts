// crm sandbox status: path, SQLite, key and record counts.

import { record } from '../../../cli/result.js';
import { sandboxPath } from '../../../config/paths.js';
import type { Handler } from '../../command.js';
import { describeDatabase } from '../describe.js';

export const run: Handler = async (ctx) => record(await describeDatabase(sandboxPath(ctx.env)));
