// crm analytics [--period 7d|30d|90d]: the rollup as one record; under a table, a section for each
// of contacts, deals, emails and tasks.

import { noRecordError } from '../../cli/errors.js';
import { cellText } from '../../cli/format.js';
import { record } from '../../cli/result.js';
import { isObject } from '../../registry/values.js';
import type { Handler } from '../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { command: op, options }) => {
  const period = options.period ?? '30d';
  const data = await (await ctx.client()).request('GET', op.path, { query: { period } });
  if (!isObject(data)) throw noRecordError('rollup');
  const window = data.from ? ` (${cellText(data.from).slice(0, 10)} to ${cellText(data.to).slice(0, 10)})` : '';
  return record(data, { title: `Analytics for the last ${period.replace('d', ' days')}${window}` });
};
