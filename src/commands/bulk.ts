// Commands that act on many items (tasks complete, ai accept, sequences enroll, contacts import):
// every item ends in one row of a report, and the run's exit code says whether all went well.

import pMap from 'p-map';
import { CliError, ExitCode, toCliError } from '../cli/errors.js';
import { firstTen } from '../cli/format.js';
import { list, type ReportRow, type Result, type View } from '../cli/result.js';

/** Requests at once for the ids of one command. */
const CONCURRENCY = 4;

/** One request per id, a few at a time (p-map); a usage error (nothing sent for it) stops the run: no further id is sent. */
export async function forEachId(ids: readonly string[], action: (id: string) => Promise<unknown>, success: string): Promise<Array<ReportRow & { failure?: CliError }>> {
  return pMap(
    ids,
    async (id): Promise<ReportRow & { failure?: CliError }> => {
      try {
        return { id, ok: true, result: success, error: null, record: await action(id) };
      } catch (error) {
        const failure = toCliError(error);
        if (failure.exitCode === ExitCode.usage || failure.exitCode === ExitCode.interrupted) throw failure;
        // `record: null`: every row has the same members, whichever id failed.
        return { id, ok: false, result: failure.status === 404 ? 'not_found' : 'failed', error: failure.message, record: null, failure };
      }
    },
    { concurrency: CONCURRENCY },
  );
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
export function report(rows: ReadonlyArray<ReportRow & { failure?: CliError }>, view: View, hint?: string): Result {
  const failed = rows.filter((row) => !row.ok);
  const shown = rows.map(({ failure: _failure, ...row }) => row);
  const result = list(shown, { ...view, summary: countsOf(rows) });
  if (failed.length === 0) return result;
  if (rows.length === 1 && failed[0]!.failure) return { ...result, failure: failed[0]!.failure };
  return { ...result, failure: new CliError(`${failed.length} of ${rows.length} failed: ${firstTen(failed.map((row) => row.id))}`, ExitCode.partial, { code: 'partial_failure', hint }) };
}
