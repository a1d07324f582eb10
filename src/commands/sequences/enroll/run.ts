// crm sequences enroll ID CONTACT_ID... | --file FILE | -: bulk enrolment. Ids or emails from
// arguments, a file or stdin (one a line, or what another crm command printed), all read before the
// first request (../../bulk.ts), emails looked up, sent in batches of at most 50; every contact is one
// row of the report, and a run that failed part-way can be repeated.

import type { Context } from '../../../cli/context.js';
import { toCliError, ExitCode, type CliError } from '../../../cli/errors.js';
import type { Result } from '../../../cli/result.js';
import { isObject } from '../../../registry/values.js';
import { buildBody } from '../../body.js';
import { CancelledBulkError, confirmMany, countsOf, haltedRow, notSentRow, readTargets, report, resolveTargets, stopOnSignals, stopsEveryRecord, type Row } from '../../bulk.js';
import { namingTheId, pathOf } from '../../endpoint.js';
import type { Handler, Input } from '../../command.js';
import type { Spec } from './command.js';

const ENROLL_BATCH = 50;

export const run: Handler<Spec> = async (ctx, invocation) => {
  const path = pathOf(invocation);
  const field = invocation.command.args.find((arg) => arg.name === 'contact_ids')!;
  const targets = await readTargets(ctx, field, { contact_ids: contactsGiven(ctx, invocation) }, invocation.options.file);
  const base = await buildBody(ctx, invocation, { contact_ids: [] });
  await confirmMany(ctx, targets.values.length, { verb: 'Enrol', noun: 'contacts' });
  const resolved = await resolveTargets(ctx, field, targets.values);
  // Emails that name no contact: rows of their own, before those of the batches.
  const unresolved: Row[] = resolved.filter((item) => typeof item !== 'string');
  const ids = [...new Set(resolved.filter((item) => typeof item === 'string'))];
  const rows: Row[] = [];
  const client = await ctx.client();
  // On the command line, SIGTERM sends no other batch and Ctrl-C cancels the one under way: the contacts not sent are rows too.
  const stop = stopOnSignals(ctx);
  // The key refused, or the rate limit after its waits: every batch after would be refused alike.
  let halted: CliError | undefined;
  try {
    for (let start = 0; start < ids.length && !stop.stoppedBy() && !halted; start += ENROLL_BATCH) {
      // Cancelled: no other batch is sent, and the report says what was done.
      if (ctx.signal.aborted) throw new CancelledBulkError(ids, rows);
      const batch = ids.slice(start, start + ENROLL_BATCH);
      try {
        const data = await client.request('POST', path, { body: { ...base, contact_ids: batch }, waitOutRateLimit: true });
        for (const id of batch) {
          const result = outcomeOf(data, id);
          rows.push({ id, ok: result !== 'not_found', result, error: result === 'not_found' ? 'contact not found' : null, record: null });
        }
      } catch (error) {
        const failure = toCliError(namingTheId(error, invocation));
        if (ctx.signal.aborted && failure.exitCode === ExitCode.interrupted) {
          for (const id of batch) rows.push({ id, ok: false, result: 'cancelled', error: failure.hint ?? failure.message, record: null, failure });
          if (stop.stoppedBy()) break;
          throw new CancelledBulkError(ids, rows);
        }
        if (failure.exitCode === ExitCode.usage || failure.exitCode === ExitCode.interrupted) throw failure;
        for (const id of batch) rows.push({ id, ok: false, result: 'failed', error: failure.message, record: null, failure });
        if (stopsEveryRecord(failure)) halted = failure;
      }
      ctx.progress({ done: rows.length, total: ids.length, message: `${rows.length} of ${ids.length}: ${countsOf(rows)}` });
    }
  } finally {
    stop.release();
  }
  const stoppedBy = stop.stoppedBy();
  if (stoppedBy) for (const id of ids.slice(rows.length)) rows.push(notSentRow(id, stoppedBy));
  else if (halted) for (const id of ids.slice(rows.length)) rows.push(haltedRow(id, halted));
  return enrolmentReport(unresolved, rows, targets.many);
};

/**
 * The report: the emails that name no contact first, then the batches' rows. An array literal, not
 * unshift(...unresolved): a file may hold more emails than a call takes arguments (about 120,000).
 */
export function enrolmentReport(unresolved: readonly Row[], sent: readonly Row[], several: boolean): Result {
  const rows = [...unresolved, ...sent];
  const result = report(rows, { columns: ['id', 'result', 'error'], noun: 'contacts' }, 'the report lists each contact; running the same command again is safe', several);
  // Every contact refused for one reason (an unknown sequence): that reason, with its own exit code.
  // Several reasons (an email naming no contact, and an archived sequence) are the report's to tell.
  const first = rows[0]?.failure;
  const oneReason = first !== undefined && rows.every((row) => row.failure?.message === first.message && row.failure.exitCode === first.exitCode);
  if (oneReason && rows.length > 1) return { ...result, failure: first };
  return result;
}

/** The contacts as given; none, no --file and a stdin that is no terminal: stdin (`-`). */
function contactsGiven(ctx: Context, { args, options }: Input<Spec>): string[] {
  const given = args.contact_ids ?? [];
  return given.length === 0 && options.file === undefined && !ctx.io.stdinIsTTY ? ['-'] : given;
}

/** Reads {enrolled, already_enrolled, not_found} lists of ids, or of objects with contact_id. */
function outcomeOf(data: unknown, id: string): 'enrolled' | 'already_enrolled' | 'not_found' {
  if (!isObject(data)) return 'enrolled';
  const has = (key: string) =>
    Array.isArray(data[key]) && (data[key] as unknown[]).some((item) => (isObject(item) ? String(item.contact_id ?? item.id) : String(item)) === id);
  if (has('not_found')) return 'not_found';
  if (has('already_enrolled')) return 'already_enrolled';
  return 'enrolled';
}
