// crm sequences enroll ID CONTACT_ID... | --file FILE | -: bulk enrolment. Ids from arguments, a
// file or stdin (one a line, or a JSON array), all read before the first request, sent in batches
// of at most 50; every id is one row of the report, and a run that failed part-way can be repeated.

import type { Context } from '../../../cli/context.js';
import { toCliError, usageError, ExitCode } from '../../../cli/errors.js';
import { parseIdList, readSource } from '../../../cli/input.js';
import type { ReportRow } from '../../../cli/result.js';
import { isObject } from '../../../registry/values.js';
import { buildBody } from '../../body.js';
import { CancelledBulkError, countsOf, report } from '../../bulk.js';
import { namingTheId, pathOf } from '../../endpoint.js';
import { resolveKeys } from '../../keys.js';
import type { Handler, Input } from '../../command.js';
import type { Spec } from './command.js';

const ENROLL_BATCH = 50;

export const run: Handler<Spec> = async (ctx, invocation) => {
  const path = pathOf(invocation);
  const given = await contactIds(ctx, invocation);
  const base = await buildBody(ctx, invocation, { contact_ids: [] });
  const ids = [...new Set((await resolveKeys(ctx, invocation.command.args, { contact_ids: given })).contact_ids as string[])];
  const client = await ctx.client();

  const rows: Array<ReportRow & { failure?: ReturnType<typeof toCliError> }> = [];
  for (let start = 0; start < ids.length; start += ENROLL_BATCH) {
    // Cancelled: no other batch is sent, and the report says what was done.
    if (ctx.signal.aborted) throw new CancelledBulkError(ids, rows);
    const batch = ids.slice(start, start + ENROLL_BATCH);
    try {
      const data = await client.request('POST', path, { body: { ...base, contact_ids: batch }, waitOutRateLimit: true });
      for (const id of batch) {
        const result = outcomeOf(data, id);
        rows.push({ id, ok: result !== 'not_found', result, error: result === 'not_found' ? 'contact not found' : null });
      }
    } catch (error) {
      const failure = toCliError(namingTheId(error, invocation));
      if (ctx.signal.aborted && failure.exitCode === ExitCode.interrupted) {
        for (const id of batch) rows.push({ id, ok: false, result: 'cancelled', error: failure.hint ?? failure.message, failure });
        throw new CancelledBulkError(ids, rows);
      }
      if (failure.exitCode === ExitCode.usage || failure.exitCode === ExitCode.interrupted) throw failure;
      for (const id of batch) rows.push({ id, ok: false, result: 'failed', error: failure.message, failure });
    }
    ctx.progress({ done: rows.length, total: ids.length, message: `${rows.length} of ${ids.length}: ${countsOf(rows)}` });
  }
  const result = report(rows, { columns: ['id', 'result', 'error'], noun: 'contacts' }, 'the report lists each contact; running the same command again is safe');
  // Every batch refused for the same reason (an unknown sequence): that reason, with its own exit code.
  const failures = rows.filter((row) => row.failure);
  if (failures.length === rows.length && rows.length > 1) return { ...result, failure: failures[0]!.failure };
  return result;
};

async function contactIds(ctx: Context, { args, options }: Input<Spec>): Promise<string[]> {
  const fromArgs = (args.contact_ids ?? []);
  const ids = fromArgs.filter((id) => id !== '-');
  const file = options.file;
  const wantsStdin = fromArgs.includes('-') || (fromArgs.length === 0 && file === undefined && !ctx.io.stdinIsTTY);
  if (file !== undefined) ids.push(...parseIdList(await readSource(file, ctx.io.stdin, '--file'), file));
  if (wantsStdin) ids.push(...parseIdList(await readSource('-', ctx.io.stdin, 'stdin'), 'stdin'));
  const unique = [...new Set(ids.filter(Boolean))];
  if (unique.length === 0) throw usageError('no contact ids given', 'pass them as arguments, with --file FILE, or on stdin');
  return unique;
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
