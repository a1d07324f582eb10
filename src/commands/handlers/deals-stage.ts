// crm deals stage ID [STAGE]: STAGE is checked against the pipeline's stages before anything moves;
// with no STAGE a person picks one. Prints the moved deal and the activity the move logged.

import type { Context } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { cellText } from '../../cli/format.js';
import { isObject, type JsonObject } from '../../http/envelope.js';
import { fillPath } from '../../http/url.js';
import { buildBody, choicesFor, pathOf, type Handler } from '../run.js';

export const run: Handler = async (ctx, invocation) => {
  const { op, args } = invocation;
  const path = pathOf(invocation); // the deal id is checked first
  const requested = typeof args.stage === 'string' ? args.stage.trim() : undefined;
  let stage: string;
  if (ctx.dryRun) {
    if (!requested) throw usageError('missing STAGE (required with --dry-run)');
    stage = requested;
  } else {
    const stages = await choicesFor(ctx, 'stages');
    if (requested) {
      const match = stages.find((choice) => [choice.value, choice.name ?? ''].some((label) => sameStage(label, requested)));
      if (!match) {
        throw usageError(`unknown stage "${requested}" (valid stages: ${stages.map((choice) => choice.value).join(', ')})`);
      }
      stage = match.value;
    } else {
      if (!ctx.io.canPrompt) throw usageError('missing STAGE', `give one of: ${stages.map((choice) => choice.value).join(', ')}`);
      const deal = await (await ctx.client()).request('GET', fillPath('/deals/{id}', { id: String(args.id) }));
      const current = isObject(deal) ? cellText(deal.stage) : undefined;
      stage = await ctx.prompter.select(`Move ${cellText(isObject(deal) ? deal.name ?? args.id : args.id)} to which stage?`, stages, current);
    }
  }
  const body = await buildBody(ctx, invocation, { stage });
  const data = await (await ctx.client()).request('POST', path, { body });
  await printMove(ctx, data, op.columns ?? []);
};

/** "Closed Won (closed_won)" matches closed_won, "closed won" and "Closed Won". */
function sameStage(label: string, requested: string): boolean {
  const normal = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, ' ').trim();
  const bare = label.replace(/\s*\([^)]*\)$/, '');
  return normal(label) === normal(requested) || normal(bare) === normal(requested);
}

/** The service may answer the deal with an `activity` member, or {deal, activity}. */
async function printMove(ctx: Context, data: unknown, columns: readonly string[]): Promise<void> {
  if (ctx.printer.isMachineReadable || ctx.options.quiet || !isObject(data)) {
    return ctx.printer.record(data, { columns });
  }
  const { deal, activity } = splitMove(data);
  await ctx.printer.record(deal, { columns });
  if (isObject(activity)) {
    const from = cellText(activity.from_stage ?? activity.from);
    const to = cellText(activity.to_stage ?? activity.to);
    ctx.printer.write(`Activity logged: ${cellText(activity.type ?? 'stage change')} ${from ? `${from} → ` : ''}${to} (${cellText(activity.id)})\n`);
  }
}

function splitMove(data: JsonObject): { deal: unknown; activity: unknown } {
  if (isObject(data.deal)) return { deal: data.deal, activity: data.activity };
  const { activity, ...deal } = data;
  return { deal, activity };
}
