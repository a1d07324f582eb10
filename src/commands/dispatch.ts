// Which code runs an operation: its handler when the registry names one, else the generic runner.

import type { HandlerName } from '../api/endpoints.js';
import type { Context } from '../cli/context.js';
import { run as aiAccept } from './handlers/ai-accept.js';
import { run as aiTrigger } from './handlers/ai-trigger.js';
import { run as analytics } from './handlers/analytics.js';
import { run as contactsCreate } from './handlers/contacts-create.js';
import { run as dealsStage } from './handlers/deals-stage.js';
import { run as pipelineDeals } from './handlers/pipeline-deals.js';
import { run as search } from './handlers/search.js';
import { run as sequencesEnroll } from './handlers/sequences-enroll.js';
import { run as tasksComplete } from './handlers/tasks-complete.js';
import { runGeneric, type Handler, type Invocation } from './run.js';

const HANDLERS: Record<HandlerName, Handler> = {
  'contacts-create': contactsCreate,
  'deals-stage': dealsStage,
  'sequences-enroll': sequencesEnroll,
  'tasks-complete': tasksComplete,
  'pipeline-deals': pipelineDeals,
  search,
  analytics,
  'ai-accept': aiAccept,
  'ai-trigger': aiTrigger,
};

export async function runOperation(ctx: Context, invocation: Invocation): Promise<void> {
  const handler = invocation.op.handler ? HANDLERS[invocation.op.handler] : runGeneric;
  await handler(ctx, invocation);
}
