// Commands that act on many items (tasks complete, ai accept, sequences enroll, contacts import):
// every item ends in one row of a report, and the run's exit code says whether all went well.

import pMap from 'p-map';
import type { Context } from '../cli/context.js';
import { CliError, ExitCode, toCliError } from '../cli/errors.js';
import { firstTen } from '../cli/format.js';
import { list, type ReportRow, type Result, type View } from '../cli/result.js';
import { Already } from './already.js';

/** Requests at once for the ids of one command. */
const CONCURRENCY = 4;

type Row = ReportRow & { failure?: CliError };

/**
 * One request per id, a few at a time (p-map); a usage error (nothing sent for it) stops the run: no
 * further id is sent. An action that finds its work done already (`Already`) is a success of its
 * own: `already_<state>`. Each finished id is told to ctx.progress. Once the command is cancelled
 * no other id is started, and the ones under way end at once: the run stops with a
 * CancelledBulkError that says what was done.
 */
export async function forEachId(ctx: Context, ids: readonly string[], action: (id: string) => Promise<unknown>, success: string): Promise<Row[]> {
  let finished = 0;
  const rows = await pMap(
    ids,
    async (id): Promise<Row | undefined> => {
      if (ctx.signal.aborted) return undefined;
      const row = await rowOf(id, action, success, ctx.signal);
      if (row) ctx.progress({ done: ++finished, total: ids.length, message: `${id}: ${row.result}` });
      return row;
    },
    { concurrency: CONCURRENCY },
  );
  if (ctx.signal.aborted) throw new CancelledBulkError(ids, rows);
  return rows as Row[];
}

async function rowOf(id: string, action: (id: string) => Promise<unknown>, success: string, signal: AbortSignal): Promise<Row | undefined> {
  try {
    const value = await action(id);
    if (value instanceof Already) return { id, ok: true, result: `already_${value.state}`, error: null, record: value.record };
    return { id, ok: true, result: success, error: null, record: value };
  } catch (error) {
    const failure = toCliError(error);
    // Cancelled under way: the report says so (CancelledBulkError), whatever the request's own words.
    if (signal.aborted && failure.exitCode === ExitCode.interrupted) return { id, ok: false, result: 'cancelled', error: failure.hint ?? failure.message, record: null, failure };
    if (failure.exitCode === ExitCode.usage || failure.exitCode === ExitCode.interrupted) throw failure;
    // `record: null`: every row has the same members, whichever id failed.
    return { id, ok: false, result: failure.status === 404 ? 'not_found' : 'failed', error: failure.message, record: null, failure };
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
 * The report as a result. One item that failed exits with that failure's own code (4 for a missing
 * id); some of several: exit 7 naming them.
 */
export function report(rows: readonly Row[], view: View, hint?: string): Result {
  const failed = rows.filter((row) => !row.ok);
  const shown = rows.map(({ failure: _failure, ...row }) => row);
  const result = list(shown, { ...view, summary: countsOf(rows) });
  if (failed.length === 0) return result;
  if (rows.length === 1 && failed[0]!.failure) return { ...result, failure: failed[0]!.failure };
  return { ...result, failure: new CliError(`${failed.length} of ${rows.length} failed: ${firstTen(failed.map((row) => row.id))}`, ExitCode.partial, { code: 'partial_failure', hint }) };
}
