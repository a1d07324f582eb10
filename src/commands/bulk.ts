// Commands that act on many records (update, delete, tasks complete, ai accept, contacts enroll,
// deals stage, sequences enroll; contacts import shares the pace and the counts). The records are
// read and checked before the first request: ids or emails or names as arguments, or `-` for what
// stdin lists (one a line, or what another crm command printed). Then, at a terminal, more than ten
// (a delete: any) are confirmed; natural keys are looked up; the requests go a few at a time at the
// client's shared pace, as an import's rows do; every record ends in one row of a report, and the
// run's exit code says whether all went well.

import pMap from 'p-map';
import type { Context } from '../cli/context.js';
import { CliError, ExitCode, toCliError, usageError } from '../cli/errors.js';
import { firstTen } from '../cli/format.js';
import { parseId, parseListedValues, readSource } from '../cli/input.js';
import { list, type ReportRow, type Result, type View } from '../cli/result.js';
import { CONCURRENCY } from '../registry/options.js';
import type { FieldSpec } from '../registry/types.js';
import type { Values } from './command.js';
import { HttpError } from '../http/errors.js';
import { Already } from './already.js';
import { stopOnSigterm } from './stop.js';
import { NoRecordSent } from './no-record.js';
import { keyedResource, parseKey, resolveKey } from './keys.js';

/** More records than this are confirmed at a terminal. */
const CONFIRM_ABOVE = 10;

/** Failures that concern every record alike: nothing more is sent after the first (as an import stops). */
const STOPS_AT_ONCE = new Set<number>([ExitCode.auth, ExitCode.rateLimited]);

/** Whether FAILURE concerns every record alike (the key refused, the rate limit after its waits): send no other. */
export const stopsEveryRecord = (failure: CliError): boolean => STOPS_AT_ONCE.has(failure.exitCode);

/** The row of a record not sent because HALTED stopped the run (stopsEveryRecord). */
export function haltedRow(id: string, halted: CliError): Row {
  return { id, ok: false, result: 'not_sent', error: `not sent: ${halted.message}`, record: null, failure: halted };
}

export type Row = ReportRow & { failure?: CliError };

/** The records a command was given. */
export interface Targets {
  /** As given (ids, emails, names), each once, in order. */
  values: string[];
  /**
   * A report rather than the one record's output: several were given (the same one twice too: the
   * output's shape follows what a script passed, not what its values turned out to be), or `-`
   * (however many stdin held).
   */
  many: boolean;
}

/**
 * The values of a variadic argument of ids (FIELD), `-` among them read from stdin, and those of a
 * file: every value checked (an id's form, an email's), before anything is sent. A bad one is exit 2
 * naming it and where it was.
 */
export async function readTargets(ctx: Context, field: FieldSpec, args: Values, file?: string): Promise<Targets> {
  const given = (args[field.name] as string[] | undefined) ?? [];
  const resource = keyedResource(field);
  const check = (value: string, label: string) => (resource ? parseKey(resource, value, label) : parseId(value, label));
  // Each argument checked before stdin is read; `-` stands where its ids go.
  const named = given.map((value) => (value === '-' ? value : check(value, 'ID')));
  const listed = async (text: string, source: string) => (await parseListedValues(text, source)).map(({ value, where }) => check(value, `id on ${where}`));
  const fromFile = file === undefined ? [] : await listed(await readSource(file, ctx.io.stdin, '--file'), file);
  const fromStdin = given.includes('-');
  const stdin = fromStdin ? await readSource('-', ctx.io.stdin, 'the ids (-)') : '';
  const piped = fromStdin ? await listed(stdin, 'stdin') : [];
  // In the order given, stdin's ids at the place of `-`. Not push(...list): a call's arguments are
  // bounded (about 120,000), a file of ids is not.
  const unique = new Set<string>();
  for (const value of named) for (const one of value === '-' ? piped : [value]) unique.add(one);
  for (const value of fromFile) unique.add(value);
  // What the argument is, without how it is given: "contact id or email", "deal ids".
  const what = field.description.replace(/\s*[;(].*$/, '');
  // Stdin that held an empty list (`crm tasks list --json` that found nothing) was not empty.
  if (unique.size === 0) throw usageError(`no ${what} given`, fromStdin ? (stdin.trim() === '' ? 'stdin was empty' : 'stdin held an empty list') : undefined);
  return { values: [...unique], many: given.length > 1 || fromStdin || file !== undefined };
}

/**
 * Asks before deleting WHAT, unless --yes (or --dry-run: nothing is deleted); without a person to ask
 * it refuses. The question is built only when it is asked (it may read the record).
 */
export async function confirmDeletion(ctx: Context, what: string, yes: boolean, question: () => Promise<string>): Promise<void> {
  if (yes || ctx.dryRun) return;
  if (!ctx.io.canPrompt) throw usageError(`refusing to delete ${what} without confirmation`, 'pass --yes to confirm');
  await confirmOrCancel(ctx, await question());
}

/**
 * Before acting on COUNT records: a delete as confirmDeletion says (a script deletes several only
 * with --yes); anything else, at a terminal, when there are more than ten. A dry run asks nothing.
 */
export async function confirmMany(ctx: Context, count: number, what: { verb: string; noun: string; to?: string; deletes?: boolean; yes?: boolean }): Promise<void> {
  const records = `${count} ${what.noun}`;
  if (what.deletes) return confirmDeletion(ctx, records, what.yes === true, async () => `Delete ${records}?`);
  if (ctx.dryRun || what.yes || !ctx.io.canPrompt || count <= CONFIRM_ABOVE) return;
  await confirmOrCancel(ctx, `${what.verb} ${records}${what.to ? ` ${what.to}` : ''}?`);
}

async function confirmOrCancel(ctx: Context, question: string): Promise<void> {
  if (!(await ctx.prompter().confirm(question, false))) throw new CliError('cancelled', ExitCode.interrupted, { code: 'cancelled' });
}

/**
 * The ids of VALUES (natural keys looked up, a few at a time): a key that names no record becomes a
 * row of its own; one that names several, or cannot be decided, stops the command (exit 2) before
 * anything is written.
 */
export async function resolveTargets(ctx: Context, field: FieldSpec, values: readonly string[], concurrency = CONCURRENCY): Promise<Array<string | Row>> {
  const resource = keyedResource(field);
  if (!resource) return [...values];
  return pMap(
    values,
    async (value): Promise<Row | string> => {
      try {
        return await resolveKey(ctx, resource, value);
      } catch (error) {
        const failure = toCliError(error);
        if (failure.exitCode !== ExitCode.notFound) throw failure;
        return { id: value, ok: false, result: 'not_found', error: failure.message, record: null, failure };
      }
    },
    { concurrency },
  );
}

/**
 * One request per id, CONCURRENCY at a time (--concurrency) at the client's shared pace: a request waiting out a 429
 * holds no place on the wire (src/http/pace.ts). A usage error (nothing sent for it) stops the run:
 * no further id is sent. An action that finds its work done already (`Already`) is a success of its
 * own: `already_<state>`. A failure that concerns every record alike (the key refused, the rate
 * limit after its waits) stops what is not under way yet: those rows are `not_sent`. Each finished
 * id is told to ctx.progress. Once the command is cancelled no other id is started, and the ones
 * under way end at once: the run stops with a CancelledBulkError that says what was done (an MCP
 * call's cancel). On the command line the process's signals stop it so too, and the report still
 * accounts for every id (exit 130): SIGTERM starts no other id and lets those under way finish (as
 * an import's rows); Ctrl-C cancels those under way too (`cancelled`: a write may have taken
 * effect); the others are `not_sent`.
 */
async function forEachId(ctx: Context, ids: readonly string[], action: (id: string) => Promise<unknown>, success: string, concurrency: number): Promise<Row[]> {
  (await ctx.client()).pace.maxInFlight = concurrency;
  const stop = stopOnSignals(ctx);
  let finished = 0;
  let halted: CliError | undefined;
  let rows: Array<Row | undefined>;
  try {
    rows = await pMap(
      ids,
      async (id): Promise<Row | undefined> => {
        if (ctx.signal.aborted || stop.stoppedBy()) return undefined;
        if (halted) return haltedRow(id, halted);
        const row = await rowOf(id, action, success, ctx.signal);
        if (row?.failure && stopsEveryRecord(row.failure)) halted ??= row.failure;
        if (row) ctx.progress({ done: ++finished, total: ids.length, message: `${id}: ${row.result}` });
        return row;
      },
      // Twice as many rows under way as on the wire: those waiting out a Retry-After hold no place.
      { concurrency: concurrency * 2 },
    );
  } finally {
    stop.release();
  }
  const stoppedBy = stop.stoppedBy();
  if (stoppedBy) return rows.map((row, index) => row ?? notSentRow(ids[index]!, stoppedBy));
  if (ctx.signal.aborted) throw new CancelledBulkError(ids, rows);
  return rows as Row[];
}

/**
 * While a bulk run goes on, on the command line: SIGTERM stops it before its next record (those
 * under way finish) and Ctrl-C cancels those under way too (Context.takeInterrupts); `stoppedBy`
 * says which, once one came. An MCP call's cancel is its ctx.signal alone.
 */
export function stopOnSignals(ctx: Context): { stoppedBy(): string | undefined; release(): void } {
  if (!ctx.ownsProcess) return { stoppedBy: () => undefined, release: () => {} };
  const sigterm = stopOnSigterm(ctx.io.signals);
  const releaseInterrupts = ctx.takeInterrupts();
  return {
    stoppedBy: () => (ctx.interrupted ? 'interrupted' : sigterm.signal.aborted ? 'stopped by SIGTERM' : undefined),
    release: () => {
      releaseInterrupts();
      sigterm.dispose();
    },
  };
}

/** The row of a record a signal kept from being sent (WHY: "interrupted", "stopped by SIGTERM"). */
export function notSentRow(id: string, why: string): Row {
  return { id, ok: false, result: 'not_sent', error: `not sent: ${why}`, record: null, failure: new CliError(why, ExitCode.interrupted, { code: 'interrupted' }) };
}

async function rowOf(id: string, action: (id: string) => Promise<unknown>, success: string, signal: AbortSignal): Promise<Row | undefined> {
  try {
    const value = await action(id);
    if (value instanceof Already) return { id, ok: true, result: `already_${value.state}`, error: null, record: value.record };
    // The service sent no record back (./no-record.ts): the row's record is null, as for any write answered so.
    if (value instanceof NoRecordSent) return { id, ok: true, result: success, error: null, record: null };
    return { id, ok: true, result: success, error: null, record: value };
  } catch (error) {
    // Cancelled while it waited for its turn: never sent, as the ids not started.
    if (signal.aborted && error instanceof HttpError && error.kind === 'cancelled' && error.unsent) return undefined;
    const failure = toCliError(error);
    // Cancelled under way: the report says so (CancelledBulkError), whatever the request's own words.
    if (signal.aborted && failure.exitCode === ExitCode.interrupted) return { id, ok: false, result: 'cancelled', error: failure.hint ?? failure.message, record: null, failure };
    if (failure.exitCode === ExitCode.usage || failure.exitCode === ExitCode.interrupted) throw failure;
    // `record: null`: every row has the same members, whichever id failed.
    // A 404's hint is about this id (it looks like another kind's): the row keeps it, as one id's stderr would.
    const reason = failure.status === 404 && failure.hint ? `${failure.message} (${failure.hint})` : failure.message;
    return { id, ok: false, result: failure.status === 404 ? 'not_found' : 'failed', error: reason, record: null, failure };
  }
}

/**
 * A bulk command cancelled part-way: what was done, what was under way (a write may have taken
 * effect), and which ids were never sent.
 */
export class CancelledBulkError extends CliError {
  constructor(ids: readonly string[], rows: ReadonlyArray<Row | undefined>) {
    const finished = rows.filter((row): row is Row => row !== undefined && row.result !== 'cancelled');
    const underWay = rows.filter((row): row is Row => row?.result === 'cancelled');
    const unsent = ids.filter((_, index) => rows[index] === undefined);
    const parts = [finished.length > 0 ? countsOf(finished) : 'nothing done'];
    if (finished.length > 0) parts.push(`done: ${firstTen(finished.map((row) => row.id))}`);
    if (underWay.length > 0) parts.push(`under way, may have taken effect: ${firstTen(underWay.map((row) => row.id))}`);
    if (unsent.length > 0) parts.push(`not sent: ${firstTen(unsent)}`);
    super(`cancelled after ${finished.length} of ${ids.length} (${parts.join('; ')})`, ExitCode.interrupted, { code: 'cancelled' });
  }
}

/** "3 completed, 1 not found". */
export function countsOf(rows: ReadonlyArray<Pick<ReportRow, 'result'>>): string {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.result, (counts.get(row.result) ?? 0) + 1);
  return [...counts].map(([result, count]) => `${count} ${result.replace(/_/g, ' ')}`).join(', ');
}

/**
 * The report as a result. One item given alone (SEVERAL false) that failed exits with that failure's
 * own code (4 for a missing id); a failure that concerns every record (the key refused, the rate
 * limit), with its code and how many were not sent; otherwise exit 7 naming them. Like the output's
 * shape, the code follows what was given: `-` or an id given twice that held one record is exit 7.
 */
export function report(rows: readonly Row[], view: View, hint?: string, several = rows.length > 1): Result {
  const failed = rows.filter((row) => !row.ok);
  const shown = rows.map(({ failure: _failure, ...row }) => row);
  const result = list(shown, { ...view, summary: countsOf(rows) });
  if (failed.length === 0) return result;
  if (!several && rows.length === 1 && failed[0]!.failure) return { ...result, failure: failed[0]!.failure };
  // Stopped by Ctrl-C or SIGTERM (forEachId): the rows say what became of each record.
  const stop = failed.find((row) => row.result === 'not_sent' && row.failure?.exitCode === ExitCode.interrupted) ?? failed.find((row) => row.result === 'cancelled');
  if (stop) {
    const why = stop.result === 'not_sent' ? stop.failure!.message : 'interrupted';
    const done = rows.filter((row) => row.ok).length;
    return { ...result, failure: new CliError(`${why} after ${done} of ${rows.length} (${countsOf(rows)})`, ExitCode.interrupted, { code: 'interrupted', hint }) };
  }
  const stopped = failed.find((row) => row.failure && STOPS_AT_ONCE.has(row.failure.exitCode))?.failure;
  if (stopped) {
    const unsent = failed.filter((row) => row.result === 'not_sent').length;
    const message = unsent > 0 ? `${stopped.message}; ${unsent} of ${rows.length} were not sent` : stopped.message;
    return { ...result, failure: new CliError(message, stopped.exitCode, { code: stopped.code, hint: stopped.hint ?? hint }) };
  }
  return { ...result, failure: new CliError(`${failed.length} of ${rows.length} failed: ${firstTen(failed.map((row) => row.id))}`, ExitCode.partial, { code: 'partial_failure', hint }) };
}

/** What a command does to each record, for its report. */
interface EachAction {
  /** The result word of a record it succeeded for: updated, deleted, moved, found... */
  success: string;
  /** The question at a terminal: "Update" (12 contacts), "Move" (12 deals) "to Won". None: a read, which changes nothing and is not asked about. */
  verb?: string;
  to?: string;
  act: (id: string) => Promise<unknown>;
  view: View;
  hint?: string;
  deletes?: boolean;
  yes?: boolean;
  /** Requests at a time (--concurrency; default CONCURRENCY), as an import's. */
  concurrency?: number;
}

/** TARGETS confirmed, resolved and acted on, one row each: the many-record half of a command. */
export async function actOnEach(ctx: Context, field: FieldSpec, targets: Targets, action: EachAction): Promise<Result> {
  return report(await rowsOfEach(ctx, field, targets, action), action.view, action.hint, targets.many);
}

/**
 * TARGETS read, one record each (get of several): the records found, in the order given, as a list
 * prints them (--json an array of records, what a script wants); each one not read is a line on
 * stderr naming it and why, and the run exits as a write's report does (7 when some failed).
 */
export async function readEach(ctx: Context, field: FieldSpec, targets: Targets, action: Omit<EachAction, 'verb' | 'to' | 'deletes' | 'yes'>): Promise<Result> {
  const rows = await rowsOfEach(ctx, field, targets, action);
  const found = rows.filter((row) => row.ok).map((row) => row.record);
  const notRead = rows.filter((row) => !row.ok).map((row) => `${row.id}: ${row.error ?? row.result.replace(/_/g, ' ')}`);
  return { ...list(found, { ...action.view, summary: countsOf(rows), notices: notRead }), failure: report(rows, action.view, action.hint, targets.many).failure };
}

async function rowsOfEach(ctx: Context, field: FieldSpec, targets: Targets, action: EachAction): Promise<Row[]> {
  if (action.verb !== undefined) {
    await confirmMany(ctx, targets.values.length, { verb: action.verb, to: action.to, noun: action.view.noun ?? 'records', deletes: action.deletes, yes: action.yes });
  }
  const concurrency = action.concurrency ?? CONCURRENCY;
  const resolved = await resolveTargets(ctx, field, targets.values, concurrency);
  const ids = [...new Set(resolved.filter((item) => typeof item === 'string'))];
  const rows = new Map((await forEachId(ctx, ids, action.act, action.success, concurrency)).map((row) => [row.id, row]));
  // In the order given; an email and the id it names are one record, reported once.
  const ordered = resolved.flatMap((item) => {
    if (typeof item !== 'string') return [item];
    const row = rows.get(item);
    rows.delete(item);
    return row ? [row] : [];
  });
  return ordered;
}
