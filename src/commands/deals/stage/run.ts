// crm deals stage ID... [STAGE]: STAGE (the last argument, or --stage) is matched against the
// pipeline's stages (by id or name) before anything moves, and the move sends the stage's id; with no
// STAGE a person picks one. The stages (and the deal a person picks for) are look-ups: a dry run reads
// them too, so it refuses what the run refuses and plans the same requests. One deal: the moved deal
// (with the activity the move logged) and, under a table, a line about that activity; a move to the
// stage the deal is already in is no move (../../already.ts): said on stderr, exit 0. Several deals
// (or `-`): one move each, in a report (../../bulk.ts), such a deal being `already_in_stage`.

import type { Context } from '../../../cli/context.js';
import { usageError } from '../../../cli/errors.js';
import { cellText, safeLine } from '../../../cli/format.js';
import type { Choice } from '../../../cli/prompt.js';
import { record } from '../../../cli/result.js';
import { isObject } from '../../../registry/values.js';
import { fillPath } from '../../../http/url.js';
import { Already, unlessAlready } from '../../already.js';
import { buildBody, fetchChoices } from '../../body.js';
import { actOnEach, readTargets } from '../../bulk.js';
import { answeredRecord, idsField, namingEachId, namingTheId, withId } from '../../endpoint.js';
import { NoRecordSent, writtenRecord } from '../../no-record.js';
import type { Handler, Input } from '../../command.js';
import type { Spec } from './command.js';
import { ENDPOINTS } from '../../../registry/endpoints.js';

export const run: Handler<Spec> = async (ctx, invocation) => {
  const given = invocation.args.ids ?? [];
  // As mv: the last of several arguments is the stage, unless --stage names it.
  const named = invocation.options.stage;
  const requested = (named ?? (given.length > 1 ? given.at(-1) : undefined))?.trim();
  const field = idsField(invocation.command)!;
  const targets = await readTargets(ctx, field, { ids: named === undefined && given.length > 1 ? given.slice(0, -1) : given });
  // Bad usage is refused before anything is sent. (A person picks for one deal: several, or `-`, name the stage.)
  if (!requested && (targets.many || !ctx.io.canPrompt)) throw usageError('missing STAGE', 'list the stages with `crm pipeline stages`');
  const stages = await fetchChoices(ctx, 'stages');
  const one = targets.many ? undefined : { ...invocation, args: { ids: targets.values } };
  const stage = requested ? matchStage(requested, stages) : await pickStage(ctx, stages, one!);
  const body = await buildBody(ctx, invocation, { stage: stage.value });
  const client = await ctx.client();
  // Each of several waits out a 429 as the others keep the shared pace; one deal fails as any command does.
  const move = (id: string, waitOutRateLimit = false) =>
    unlessAlready(
      async () => answeredRecord(await client.request('POST', fillPath(invocation.command.path, { id }), { body, waitOutRateLimit }), withId(invocation, id)),
      'in_stage',
      () => dealIn(ctx, id, stage),
    );
  if (!one) {
    return actOnEach(ctx, field, targets, {
      verb: 'Move',
      to: `to ${stageLabel(stage)}`,
      success: 'moved',
      concurrency: invocation.options.concurrency,
      view: { columns: ['id', 'result', 'record.name', 'record.stage', 'error'], noun: 'deals' },
      act: (id) => namingEachId(invocation, id, () => move(id, true)),
      hint: 'the report lists each deal; moving one again to the same stage changes nothing',
    });
  }
  const data = await move(dealOf(one)).catch((error) => {
    throw namingTheId(error, one);
  });
  if (data instanceof Already) {
    ctx.info(`Deal ${dealOf(one)} is already in ${stageLabel(stage)}: nothing moved.`);
    return { ...record(data.record, { keys: invocation.command.columns }), outcome: 'already_in_stage' };
  }
  if (data instanceof NoRecordSent) return { ...writtenRecord(data, {}), outcome: 'moved' };
  // The service may answer the deal with an `activity` member, or {deal, activity}: one shape out.
  const moved = isObject(data.deal) ? { ...data.deal, activity: data.activity } : data;
  return { ...record(moved, { keys: invocation.command.columns, notes: isObject(moved) ? activityNote(moved.activity) : [] }), outcome: 'moved' };
};

const dealOf = (invocation: Input<Spec>) => invocation.args.ids![0]!;

/** No STAGE at a terminal: the person picks one, the deal's own stage preselected. */
async function pickStage(ctx: Context, stages: Choice[], invocation: Input<Spec>): Promise<Choice> {
  const id = dealOf(invocation);
  const deal = await (await ctx.lookupClient()).request('GET', fillPath(ENDPOINTS.deals_get.path, { id })).catch((error) => {
    throw namingTheId(error, invocation);
  });
  const name = isObject(deal) && deal.name !== undefined ? safeLine(cellText(deal.name)) : id;
  const value = await ctx.prompter().select(`Move ${name} to which stage?`, stages, isObject(deal) ? cellText(deal.stage) : undefined);
  return stages.find((choice) => choice.value === value) ?? { value };
}

/** After a refused move: the deal, if it is in STAGE already; undefined otherwise, and the refusal stands. */
async function dealIn(ctx: Context, id: string, stage: Choice): Promise<Record<string, unknown> | undefined> {
  const deal = await (await ctx.client()).request('GET', fillPath(ENDPOINTS.deals_get.path, { id }));
  return isObject(deal) && (typeof deal.stage === 'string' || typeof deal.stage === 'number') && sameStage(String(deal.stage), stage) ? deal : undefined;
}

const normal = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, ' ').trim();
/** A stage's id, its name, and its name without the "(id)" a choice adds. */
const labels = (choice: Choice) => [choice.value, choice.name ?? '', (choice.name ?? '').replace(/\s*\([^)]*\)$/, '')];
const sameStage = (text: string, choice: Choice) => labels(choice).some((label) => label !== '' && normal(label) === normal(text));
const stageLabel = (choice: Choice) => labels(choice)[2] || choice.value;

/** "Closed Won (closed_won)" matches closed_won, "closed won" and "Closed Won". */
function matchStage(requested: string, stages: Choice[]): Choice {
  const match = stages.find((choice) => sameStage(requested, choice));
  // A workspace that lists no stages leaves the check to the service.
  if (!match && stages.length > 0) throw usageError(`unknown stage "${requested}" (valid stages: ${stages.map((choice) => choice.value).join(', ')})`);
  return match ?? { value: requested };
}

function activityNote(activity: unknown): string[] {
  if (!isObject(activity)) return [];
  const from = cellText(activity.from_stage ?? activity.from);
  const to = cellText(activity.to_stage ?? activity.to);
  return [`Activity logged: ${cellText(activity.type ?? 'stage change')} ${from ? `${from} → ` : ''}${to} (${cellText(activity.id)})`];
}
