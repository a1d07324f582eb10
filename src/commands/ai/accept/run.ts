// crm ai accept ID...: accept suggestions; with no id on a terminal, pick from the pending ones.

import type { Context } from '../../../cli/context.js';
import { usageError } from '../../../cli/errors.js';
import { cellText, safeLine } from '../../../cli/format.js';
import type { Choice } from '../../../cli/prompt.js';
import { done } from '../../../cli/result.js';
import { isObject } from '../../../registry/values.js';
import { PAGE_MAX } from '../../../registry/service.js';
import { buildBody } from '../../body.js';
import { forEachId, report } from '../../bulk.js';
import { pathOf, viewOf } from '../../endpoint.js';
import type { Handler } from '../../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, invocation) => {
  let ids = [...new Set((invocation.args.ids ?? []))];
  const body = await buildBody(ctx, invocation);
  if (ids.length === 0) {
    if (!ctx.io.canPrompt) throw usageError('missing suggestion ids', 'list them with `crm ai suggestions`');
    ids = await pickPending(ctx);
    if (ids.length === 0) return done('Nothing selected; nothing accepted.');
  }
  const paths = new Map(ids.map((id) => [id, pathOf(invocation, id)]));
  const client = await ctx.client();
  const rows = await forEachId(ids, (id) => client.request('POST', paths.get(id)!, { body: Object.keys(body).length > 0 ? body : undefined, waitOutRateLimit: true }), 'accepted');
  return report(rows, viewOf(invocation.command));
};

async function pickPending(ctx: Context): Promise<string[]> {
  const client = await ctx.client();
  const page = await client.list('/ai/suggestions', { limit: PAGE_MAX }, 'suggestions');
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
