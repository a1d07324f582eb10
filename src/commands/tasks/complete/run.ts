// crm tasks complete ID...|-: each task completed and reported; some failing → exit 7. A task that
// is completed already is a success (already_completed) when the service refuses to complete it again.

import { STATUS } from '../../../registry/resources.js';
import { fillPath } from '../../../http/url.js';
import { isObject } from '../../../registry/values.js';
import { unlessAlready } from '../../already.js';
import { buildBody } from '../../body.js';
import { actOnEach, readTargets } from '../../bulk.js';
import { idsField, namingEachId, pathOf, viewOf } from '../../endpoint.js';
import type { Handler } from '../../command.js';
import type { Spec } from './command.js';
import { ENDPOINTS } from '../../../registry/endpoints.js';

export const run: Handler<Spec> = async (ctx, invocation) => {
  const field = idsField(invocation.command)!;
  const targets = await readTargets(ctx, field, invocation.args);
  const body = await buildBody(ctx, invocation);
  const client = await ctx.client();
  const complete = (id: string) => client.request('POST', pathOf(invocation, id), { body: Object.keys(body).length > 0 ? body : undefined, waitOutRateLimit: true });
  const completed = async (id: string) => {
    const task = await client.request('GET', fillPath(ENDPOINTS.tasks_get.path, { id }));
    return isObject(task) && (task.status === STATUS.task.completed || (typeof task.completed_at === 'string' && task.completed_at !== '')) ? task : undefined;
  };
  return actOnEach(ctx, field, targets, {
    verb: 'Complete',
    success: 'completed',
    concurrency: invocation.options.concurrency,
    view: viewOf(invocation.command),
    act: (id) => namingEachId(invocation, id, () => unlessAlready(() => complete(id), 'completed', () => completed(id))),
    hint: 'the report lists each task; completing one again is harmless',
  });
};
