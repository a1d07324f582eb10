// crm status: six reads at once, each a part of the day (./command.ts). Where the service selects
// the records (overdue tasks with the sandbox's overdue filter, pending suggestions) one page is
// read and its total counts them; where it cannot (due dates, close dates, creation since a day),
// the list is read from its head, at most PART_READ_MAX records, and crm keeps those that belong
// (../parts.ts). Every record is checked whatever the service did with the filters it was sent.
// Tasks due soon are read without `overdue=false`: the service's day (the sandbox's is UTC's) may
// already be tomorrow, and a task due on crm's today would then be in neither tasks part. While the
// user's day is ahead of UTC's, `overdue=true` is not sent either (its day may be behind: ../tasks/due.ts):
// the overdue tasks are then chosen by crm from the same read of the open tasks.

import { STATUS } from '../../registry/resources.js';
import { parseDate } from '../../cli/input.js';
import { cellText, formatNumber } from '../../cli/format.js';
import { record, type Section } from '../../cli/result.js';
import type { ApiClient } from '../../http/core.js';
import { readList } from '../../http/paginate.js';
import { ENDPOINTS } from '../../registry/endpoints.js';
import { isObject, timestampText, type JsonObject } from '../../registry/values.js';
import { isPending } from '../ai/pending.js';
import { VALUES_READ_MAX } from '../body.js';
import type { Handler } from '../command.js';
import { everyPart, notices, partOf, partSection, partialFailure, scan, settle, throwIfAllFailed, type Failure } from '../parts.js';
import { byCloseDate, closesWithin, notClosed } from '../deals/open.js';
import { byDueDate, hasStatus, isDue, parseDue } from '../tasks/due.js';
import type { Spec } from './command.js';

/** Records shown in each part unless --limit says otherwise. */
const SHOWN = 5;
const CLOSING_DAYS = 14;
const NEW_DAYS = 7;
const DAY_MS = 86_400_000;

const TASKS = ENDPOINTS.tasks_list;
const DEALS = ENDPOINTS.deals_list;
const SUGGESTIONS = ENDPOINTS.ai_suggestions;
const CONTACTS = ENDPOINTS.contacts_list;
const STAGES = ENDPOINTS.pipeline_stages;

export const run: Handler<Spec> = async (ctx, { options }) => {
  const shown = options.limit ?? SHOWN;
  const now = new Date(ctx.now());
  const zone = ctx.timeZone();
  const due = (range: string) => parseDue(range, now, zone);
  // The open tasks read are kept up to the week's end: those overdue too, when crm chooses them.
  const [overdueRange, todayRange, weekRange] = [due('overdue'), due('today'), due('tomorrow..+6d')];
  const soonRange = due(overdueRange.askService ? 'today..+6d' : '..+6d');
  const today = todayRange.from!;
  const closingBy = parseDate(`+${CLOSING_DAYS}d`, 'date', now, zone);
  const since = new Date(now.getTime() - NEW_DAYS * DAY_MS).toISOString();
  const client = await ctx.client();
  const failures: Failure[] = [];

  // Every part's first request goes out before any answer is awaited.
  const reads = [
    settle('stages', () => readStages(client), failures),
    overdueRange.askService ? settle('tasks_overdue', () => scan(client, TASKS.path, { status: STATUS.task.open, overdue: true }, { key: TASKS.listKey, selected: true, matches: (task) => isDue(task, overdueRange) }), failures) : undefined,
    settle('tasks_due', () => scan(client, TASKS.path, { status: STATUS.task.open }, { key: TASKS.listKey, matches: (task) => hasStatus(task, STATUS.task.open) && isDue(task, soonRange) }), failures),
    settle('deals_closing', () => scan(client, DEALS.path, { status: STATUS.deal.open }, { key: DEALS.listKey, matches: (deal) => notClosed(deal) && closesWithin(deal, today, closingBy, zone) }), failures),
    settle('suggestions', () => scan(client, SUGGESTIONS.path, {}, { key: SUGGESTIONS.listKey, selected: true, matches: isPending }), failures),
    settle('contacts_new', () => scan(client, CONTACTS.path, {}, { key: CONTACTS.listKey, matches: (contact) => createdSince(contact, since), stopAt: (contact) => createdBefore(contact, since) }), failures),
  ] as const;
  const [stages, overdue, dueSoon, closing, suggestions, fresh] = await Promise.all(reads);
  throwIfAllFailed(failures, reads.filter((read) => read !== undefined).length);
  // Named in the order of the parts, not in the order they failed in.
  failures.sort((a, b) => READS.indexOf(a.part) - READS.indexOf(b.part));

  // A workspace whose deals carry no status: the stages say which are closed.
  const open = (deal: JsonObject) => !inClosedStage(deal, stages ?? []);
  const order = byDueDate(zone);
  const parts = {
    tasks_overdue: overdueRange.askService ? overdue && partOf(overdue, shown, { order }) : dueSoon && partOf(dueSoon, shown, { keep: (task) => isDue(task, overdueRange), order }),
    tasks_due_today: dueSoon && partOf(dueSoon, shown, { keep: (task) => isDue(task, todayRange), order }),
    tasks_due_this_week: dueSoon && { from: weekRange.from, to: weekRange.to, ...partOf(dueSoon, shown, { keep: (task) => isDue(task, weekRange), order }) },
    deals_closing: closing && { to: closingBy, ...partOf(closing, shown, { keep: open, order: byCloseDate }), by_stage: byStage(closing.matched.filter(open), stages ?? []) },
    suggestions: suggestions && partOf(suggestions, shown),
    contacts_new: fresh && { since, ...partOf(fresh, shown) },
  };
  const filteredLocally = Object.entries(parts).filter(([, part]) => part?.filtered_locally).map(([name]) => name);
  const data: JsonObject = { today, ...everyPart(parts), filtered_locally: filteredLocally, ...(failures.length > 0 ? { errors: failures } : {}) };

  const sections: Section[] = [
    partSection('Overdue tasks', 'tasks_overdue', parts.tasks_overdue, TASK_COLUMNS, 'No overdue tasks.', 'crm tasks list --due overdue --sort due'),
    partSection('Due today', 'tasks_due_today', parts.tasks_due_today, TASK_COLUMNS, 'Nothing due today.', 'crm tasks list --due today'),
    partSection(`Due this week, ${weekRange.from} to ${weekRange.to}`, 'tasks_due_this_week', parts.tasks_due_this_week, TASK_COLUMNS, 'Nothing else due this week.', 'crm tasks list --due tomorrow..+6d --sort due'),
    partSection(`Deals closing by ${closingBy}`, 'deals_closing', parts.deals_closing, DEAL_COLUMNS, `No open deal closes by ${closingBy}.`),
    ...(parts.deals_closing && parts.deals_closing.count > 0 ? [{ title: 'Closing, by stage', path: 'deals_closing.by_stage', columns: STAGE_COLUMNS, notes: totals(parts.deals_closing.by_stage) }] : []),
    partSection('Pending AI suggestions', 'suggestions', parts.suggestions, SUGGESTION_COLUMNS, 'No pending suggestions.', 'crm ai suggestions'),
    partSection(`New contacts since ${parseDate('today', 'date', new Date(since), zone)}`, 'contacts_new', parts.contacts_new, CONTACT_COLUMNS, `No contact created in the last ${NEW_DAYS} days.`, `crm contacts list --limit ${parts.contacts_new?.count ?? shown}`),
  ];
  const result = record(data, {
    sections,
    notices: notices([
      ['overdue tasks', overdueRange.askService ? overdue : dueSoon, 'open tasks'],
      ['tasks due today and this week', dueSoon, 'open tasks'],
      ['deals closing', closing, 'open deals'],
      ['pending suggestions', suggestions, 'suggestions'],
      ['new contacts', fresh, 'newest contacts'],
    ]),
  });
  const failure = partialFailure(failures, 'crm status');
  return failure ? { ...result, failure } : result;
};

/** What settle() names each read. */
const READS = ['stages', 'tasks_overdue', 'tasks_due', 'deals_closing', 'suggestions', 'contacts_new'];

const TASK_COLUMNS = ['id', 'title', 'due_date', 'priority', 'contact_id'];
const DEAL_COLUMNS = ['id', 'name', 'amount', 'currency', 'stage', 'close_date'];
const STAGE_COLUMNS = ['name', 'count', 'value', 'probability', 'weighted_value', 'currency'];
const SUGGESTION_COLUMNS = ['id', 'title', 'type', 'contact_id', 'deal_id'];
const CONTACT_COLUMNS = ['id', 'name', 'email', 'status', 'created_at'];

/** When the record was created (ms), from ISO text or an epoch number (timestampText); NaN when it does not say. */
const createdMs = (record: JsonObject) => Date.parse(timestampText(record.created_at) ?? '');

function createdSince(record: JsonObject, since: string): boolean {
  return createdMs(record) >= Date.parse(since);
}

function createdBefore(record: JsonObject, since: string): boolean {
  return createdMs(record) < Date.parse(since);
}

// ---- deals by stage ---------------------------------------------------------------------------------

interface Stage {
  id: string;
  name: string;
  /** Percent, when the stage carries a probability. */
  probability?: number;
  closed: boolean;
}

async function readStages(client: ApiClient): Promise<Stage[]> {
  const stages = (await readList(client, STAGES.path, {}, { key: STAGES.listKey, limit: VALUES_READ_MAX })).filter(isObject);
  const numbers = stages.map((stage) => probabilityOf(stage.probability)).filter((value) => value !== undefined);
  // Fractions (0.25) when every probability is one and some lies between 0 and 1; else percent (25).
  const scale = numbers.length > 0 && numbers.every((value) => value >= 0 && value <= 1) && numbers.some((value) => value > 0 && value < 1) ? 100 : 1;
  return stages.map((stage) => {
    const probability = probabilityOf(stage.probability);
    return {
      id: cellText(stage.id ?? stage.name),
      name: cellText(stage.name ?? stage.id),
      probability: probability === undefined ? undefined : probability * scale,
      closed: stage.is_closed === true,
    };
  });
}

/** A stage's probability: a number, or one written as text ("50", "0.25": a workspace whose database gives decimals as strings). */
function probabilityOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : undefined;
}

function stageOf(deal: JsonObject, stages: readonly Stage[]): Stage | undefined {
  // As text: a workspace's stage ids may be numbers, and a stage's id is kept as text.
  const reference = cellText(deal.stage);
  return stages.find((stage) => stage.id === reference) ?? stages.find((stage) => stage.name.toLowerCase() === reference.toLowerCase());
}

function inClosedStage(deal: JsonObject, stages: readonly Stage[]): boolean {
  return typeof deal.status !== 'string' && stageOf(deal, stages)?.closed === true;
}

interface StageRow {
  stage: string;
  name: string;
  probability: number | null;
  currency: string | null;
  count: number;
  value: number;
  weighted_value: number | null;
}

/** The deals by stage (in pipeline order) and currency: count, value and, where the stage has a probability, weighted value. */
function byStage(deals: readonly JsonObject[], stages: readonly Stage[]): StageRow[] {
  const rows = new Map<string, StageRow & { position: number }>();
  for (const deal of deals) {
    const stage = stageOf(deal, stages);
    const currency = typeof deal.currency === 'string' ? deal.currency : null;
    const stageId = stage?.id ?? cellText(deal.stage);
    const key = JSON.stringify([stageId, currency]);
    const row = rows.get(key) ?? { stage: stageId, name: stage?.name ?? stageId, probability: stage?.probability ?? null, currency, count: 0, value: 0, weighted_value: stage?.probability === undefined ? null : 0, position: stage ? stages.indexOf(stage) : stages.length };
    const amount = Number(deal.amount) || 0;
    row.count++;
    row.value += amount;
    if (row.weighted_value !== null) row.weighted_value = round(row.weighted_value + (amount * row.probability!) / 100);
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => a.position - b.position || (a.currency ?? '').localeCompare(b.currency ?? '')).map(({ position: _position, ...row }) => row);
}

const round = (value: number) => Math.round(value * 100) / 100;

/** "Total 120,000 USD, weighted 54,000" a currency. */
function totals(rows: readonly StageRow[]): string[] {
  const byCurrency = new Map<string, { value: number; weighted: number; weighs: boolean }>();
  for (const row of rows) {
    const total = byCurrency.get(row.currency ?? '') ?? { value: 0, weighted: 0, weighs: false };
    total.value += row.value;
    if (row.weighted_value !== null) {
      total.weighted += row.weighted_value;
      total.weighs = true;
    }
    byCurrency.set(row.currency ?? '', total);
  }
  return [...byCurrency].map(([currency, total]) => `Total ${formatNumber(total.value)}${currency ? ` ${currency}` : ''}${total.weighs ? `, weighted ${formatNumber(round(total.weighted))}` : ''}`);
}
