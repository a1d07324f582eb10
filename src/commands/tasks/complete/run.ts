// crm tasks complete ID...: each id completed and reported; some failing → exit 7. A task that is
// completed already is a success (already_completed) when the service refuses to complete it again.

import { usageError } from '../../../cli/errors.js';
import { fillPath } from '../../../http/url.js';
import { isObject } from '../../../registry/values.js';
import { unlessAlready } from '../../already.js';
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
  const complete = (id: string) => client.request('POST', paths.get(id)!, { body: Object.keys(body).length > 0 ? body : undefined, waitOutRateLimit: true });
  const completed = async (id: string) => {
    const task = await client.request('GET', fillPath('/tasks/{id}', { id }));
    return isObject(task) && (task.status === 'completed' || (typeof task.completed_at === 'string' && task.completed_at !== '')) ? task : undefined;
  };
  const rows = await forEachId(ctx, ids, (id) => unlessAlready(() => complete(id), 'completed', () => completed(id)), 'completed');
  return report(rows, viewOf(invocation.command), 'the report lists each task; completing one again is harmless');
};
