// crm ai accept ID...: accept suggestions; with no id on a terminal, pick from the pending ones.

import type { Context } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { cellText } from '../../cli/format.js';
import type { Choice } from '../../cli/prompt.js';
import { isObject } from '../../http/envelope.js';
import { PAGE_MAX } from '../../http/core.js';
import type { Handler } from '../run.js';
import { postEach } from './each.js';

export const run: Handler = async (ctx, { op, args }) => {
  let ids = [...new Set((args.ids as string[] | undefined) ?? [])];
  if (ids.length === 0) {
    if (!ctx.io.canPrompt) throw usageError('missing suggestion ids', 'list them with `crm ai suggestions`');
    ids = await pickPending(ctx);
    if (ids.length === 0) {
      ctx.info('Nothing selected; nothing accepted.');
      return;
    }
  }
  await postEach(ctx, op, ids);
};

async function pickPending(ctx: Context): Promise<string[]> {
  const client = await ctx.client();
  const page = await client.list('/ai/suggestions', { limit: PAGE_MAX }, 'suggestions');
  const choices: Choice[] = page.items.filter(isObject).map((suggestion) => ({
    value: String(suggestion.id),
    name: `${cellText(suggestion.title ?? suggestion.type ?? suggestion.id)}  (${String(suggestion.id)})`,
    description: typeof suggestion.reason === 'string' ? suggestion.reason : undefined,
  }));
  if (choices.length === 0) {
    ctx.info('No pending suggestions.');
    return [];
  }
  return ctx.prompter.checkbox('Accept which suggestions? (space to select, enter to confirm)', choices);
}
