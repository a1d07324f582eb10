// crm tasks complete ID...: each id completed and reported; some failing → exit 7.

import { usageError } from '../../../cli/errors.js';
import { buildBody } from '../../body.js';
import { forEachId, report } from '../../bulk.js';
import { pathOf, viewOf } from '../../endpoint.js';
import type { Handler } from '../../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, invocation) => {
  const ids = [...new Set((invocation.args.ids ?? []))];
  if (ids.length === 0) throw usageError('missing task ids');
  const paths = new Map(ids.map((id) => [id, pathOf(invocation, id)]));
  const body = await buildBody(ctx, invocation);
  const client = await ctx.client();
  const rows = await forEachId(ids, (id) => client.request('POST', paths.get(id)!, { body: Object.keys(body).length > 0 ? body : undefined, waitOutRateLimit: true }), 'completed');
  return report(rows, viewOf(invocation.command), 'the report lists each task; completing one again is harmless');
};
