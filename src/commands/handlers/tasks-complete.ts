// crm tasks complete ID...: each id completed and reported; some failing → exit 7.

import { usageError } from '../../cli/errors.js';
import type { Handler } from '../run.js';
import { postEach } from './each.js';

export const run: Handler = async (ctx, { op, args }) => {
  const ids = [...new Set((args.ids as string[] | undefined) ?? [])];
  if (ids.length === 0) throw usageError('missing task ids');
  await postEach(ctx, op, ids);
};
