// crm deals stage ID [STAGE]: STAGE is matched against the pipeline's stages (by id or name) before
// anything moves; with no STAGE a person picks one. The result is the moved deal (with the activity
// the move logged) and, under a table, a line about that activity.

import { usageError } from '../../cli/errors.js';
import { cellText, safeLine } from '../../cli/format.js';
import type { Choice } from '../../cli/prompt.js';
import { record } from '../../cli/result.js';
import { isObject } from '../../http/envelope.js';
import { fillPath } from '../../http/url.js';
import { buildBody, fetchChoices } from '../body.js';
import { namingTheId, pathOf, type Handler } from '../run.js';

export const run: Handler = async (ctx, invocation) => {
  const path = pathOf(invocation); // the deal id is checked first
  const id = invocation.args.string('id')!;
  const requested = invocation.args.string('stage')?.trim();
  let stage: string;
  if (ctx.dryRun) {
    if (!requested) throw usageError('missing STAGE (required with --dry-run)');
    stage = requested;
  } else if (requested) {
    stage = matchStage(requested, await fetchChoices(ctx, 'stages'));
  } else {
    // Bad usage is refused before anything is sent.
    if (!ctx.io.canPrompt) throw usageError('missing STAGE', 'list the stages with `crm pipeline stages`');
    const stages = await fetchChoices(ctx, 'stages');
    const deal = await (await ctx.client()).request('GET', fillPath('/deals/{id}', { id })).catch((error) => {
      throw namingTheId(error, invocation);
    });
    const name = isObject(deal) && deal.name !== undefined ? safeLine(cellText(deal.name)) : id;
    stage = await ctx.prompter.select(`Move ${name} to which stage?`, stages, isObject(deal) ? cellText(deal.stage) : undefined);
  }
  const body = await buildBody(ctx, invocation, { stage });
  let data: unknown;
  try {
    data = await (await ctx.client()).request('POST', path, { body });
  } catch (error) {
    throw namingTheId(error, invocation);
  }
  // The service may answer the deal with an `activity` member, or {deal, activity}: one shape out.
  const moved = isObject(data) && isObject(data.deal) ? { ...data.deal, activity: data.activity } : data;
  return record(moved, { keys: invocation.spec.columns, notes: isObject(moved) ? activityNote(moved.activity) : [] });
};

/** "Closed Won (closed_won)" matches closed_won, "closed won" and "Closed Won". */
function matchStage(requested: string, stages: Choice[]): string {
  const normal = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, ' ').trim();
  const labels = (choice: Choice) => [choice.value, choice.name ?? '', (choice.name ?? '').replace(/\s*\([^)]*\)$/, '')];
  const match = stages.find((choice) => labels(choice).some((label) => normal(label) === normal(requested)));
  // A workspace that lists no stages leaves the check to the service.
  if (!match && stages.length > 0) throw usageError(`unknown stage "${requested}" (valid stages: ${stages.map((choice) => choice.value).join(', ')})`);
  return match?.value ?? requested;
}

function activityNote(activity: unknown): string[] {
  if (!isObject(activity)) return [];
  const from = cellText(activity.from_stage ?? activity.from);
  const to = cellText(activity.to_stage ?? activity.to);
  return [`Activity logged: ${cellText(activity.type ?? 'stage change')} ${from ? `${from} → ` : ''}${to} (${cellText(activity.id)})`];
}
