// crm ai accept ID...: accept suggestions; with no id on a terminal, pick from the pending ones.

import { STATUS } from '../../../registry/resources.js';
import type { Context } from '../../../cli/context.js';
import { usageError } from '../../../cli/errors.js';
import { cellText, safeLine } from '../../../cli/format.js';
import type { Choice } from '../../../cli/prompt.js';
import { done } from '../../../cli/result.js';
import { isObject } from '../../../registry/values.js';
import { PAGE_MAX } from '../../../registry/service.js';
import type { ApiClient } from '../../../http/core.js';
import { walk } from '../../../http/paginate.js';
import { unlessAlready } from '../../already.js';
import { buildBody } from '../../body.js';
import { actOnEach, readTargets } from '../../bulk.js';
import { idsField, namingEachId, pathOf, viewOf } from '../../endpoint.js';
import type { Handler } from '../../command.js';
import type { Spec } from './command.js';
import { ENDPOINTS } from '../../../registry/endpoints.js';

const SUGGESTIONS = ENDPOINTS.ai_suggestions;

export const run: Handler<Spec> = async (ctx, invocation) => {
  const field = idsField(invocation.command)!;
  const given = invocation.args.ids ?? [];
  if (given.length === 0 && !ctx.io.canPrompt) throw usageError('missing suggestion ids', 'list them with `crm ai suggestions`');
  const listed = given.length > 0 ? await readTargets(ctx, field, invocation.args) : undefined;
  const body = await buildBody(ctx, invocation);
  const targets = listed ?? { values: await pickPending(ctx), many: true };
  if (targets.values.length === 0) return done('Nothing selected; nothing accepted.');
  const client = await ctx.client();
  const accept = (id: string) => client.request('POST', pathOf(invocation, id), { body: Object.keys(body).length > 0 ? body : undefined, waitOutRateLimit: true });
  return actOnEach(ctx, field, targets, {
    verb: 'Accept',
    success: 'accepted',
    concurrency: invocation.options.concurrency,
    view: viewOf(invocation.command),
    // What a person picked is confirmed already.
    yes: listed === undefined,
    act: (id) => namingEachId(invocation, id, () => unlessAlready(() => accept(id), 'accepted', () => acceptedAlready(client, id))),
  });
};

/** Pending suggestions read to tell an accepted one (a suggestion is pending until accepted): a few pages at most. */
const PENDING_READ_MAX = 10 * PAGE_MAX;

/**
 * After a refused accept: a suggestion that is no longer among the pending ones has been accepted
 * (the API has no other way out of pending, and no way to read one suggestion); undefined when it is
 * pending still, or when there are too many pending ones to read.
 */
async function acceptedAlready(client: ApiClient, id: string): Promise<unknown> {
  let read = 0;
  for await (const suggestion of walk(client, SUGGESTIONS.path, {}, { limit: PENDING_READ_MAX, key: SUGGESTIONS.listKey })) {
    if (isObject(suggestion) && String(suggestion.id) === id) return undefined;
    read++;
  }
  return read < PENDING_READ_MAX ? { id, status: STATUS.suggestion.accepted } : undefined;
}

async function pickPending(ctx: Context): Promise<string[]> {
  const client = await ctx.client();
  const page = await client.list(SUGGESTIONS.path, { limit: PAGE_MAX }, SUGGESTIONS.listKey);
  const choices: Choice[] = page.items.filter(isObject).map((suggestion) => ({
    value: String(suggestion.id),
    name: safeLine(`${cellText(suggestion.title ?? suggestion.type ?? suggestion.id)}  (${String(suggestion.id)})`),
    description: typeof suggestion.reason === 'string' ? safeLine(suggestion.reason) : undefined,
  }));
  if (choices.length === 0) {
    ctx.info('No pending suggestions.');
    return [];
  }
  return ctx.prompter().checkbox('Accept which suggestions? (space to select, enter to confirm)', choices);
}
