// crm sequences enroll ID CONTACT_ID... | --file FILE | -: bulk enrolment. Ids from arguments, a
// file or stdin (one a line, or a JSON array), sent in requests of at most 50 ids; every id is
// accounted for in the report, and a run that failed part-way can simply be repeated.

import { readFileSync } from 'node:fs';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, usageError } from '../../cli/errors.js';
import { readAll } from '../../cli/io.js';
import { parseIdList } from '../../cli/input.js';
import { isObject } from '../../http/envelope.js';
import { buildBody, pathOf, type Handler, type Invocation } from '../run.js';

export const ENROLL_BATCH = 50;

type Outcome = 'enrolled' | 'already_enrolled' | 'not_found' | 'failed';

export const run: Handler = async (ctx, invocation) => {
  const path = pathOf(invocation);
  const ids = await contactIds(ctx, invocation);
  const base = await buildBody(ctx, invocation, { contact_ids: [] });
  const client = await ctx.client();

  const outcomes = new Map<string, { outcome: Outcome; error?: string }>();
  let lastError: CliError | undefined;
  for (let start = 0; start < ids.length; start += ENROLL_BATCH) {
    const batch = ids.slice(start, start + ENROLL_BATCH);
    try {
      const data = await client.request('POST', path, { body: { ...base, contact_ids: batch } });
      for (const id of batch) outcomes.set(id, { outcome: outcomeOf(data, id) });
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      lastError = error;
      for (const id of batch) outcomes.set(id, { outcome: 'failed', error: error.message });
    }
  }

  const rows = ids.map((id) => ({ contact_id: id, result: outcomes.get(id)!.outcome, error: outcomes.get(id)!.error ?? null }));
  await printReport(ctx, String(invocation.args.id), rows);

  const failed = rows.filter((row) => row.result === 'failed' || row.result === 'not_found');
  if (failed.length === 0) return;
  if (lastError && failed.length === rows.length && rows.every((row) => row.result === 'failed')) throw lastError;
  throw new CliError(`${failed.length} of ${rows.length} contacts were not enrolled`, ExitCode.partial, {
    code: 'partial_failure',
    hint: 'the report lists each contact; running the same command again is safe',
  });
};

async function contactIds(ctx: Context, { args, options }: Invocation): Promise<string[]> {
  const fromArgs = ((args.contact_ids as string[] | undefined) ?? []).map((id) => id.trim());
  const ids = fromArgs.filter((id) => id !== '-');
  const wantsStdin = fromArgs.includes('-') || (fromArgs.length === 0 && options.file === undefined && !ctx.io.stdinIsTTY);
  if (typeof options.file === 'string') {
    let text: string;
    try {
      text = readFileSync(options.file, 'utf8');
    } catch (error) {
      throw usageError(`cannot read --file ${options.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    ids.push(...parseIdList(text, options.file));
  }
  if (wantsStdin) ids.push(...parseIdList(await readAll(ctx.io.stdin), 'stdin'));
  const unique = [...new Set(ids.filter(Boolean))];
  if (unique.length === 0) throw usageError('no contact ids given', 'pass them as arguments, with --file FILE, or on stdin');
  return unique;
}

/** Reads {enrolled, already_enrolled, not_found} lists of ids, or of objects with contact_id. */
function outcomeOf(data: unknown, id: string): Outcome {
  if (!isObject(data)) return 'enrolled';
  const has = (key: string) =>
    Array.isArray(data[key]) && (data[key] as unknown[]).some((item) => (isObject(item) ? String(item.contact_id ?? item.id) : String(item)) === id);
  if (has('not_found')) return 'not_found';
  if (has('already_enrolled')) return 'already_enrolled';
  return 'enrolled';
}

async function printReport(ctx: Context, sequenceId: string, rows: Array<{ contact_id: string; result: Outcome; error: string | null }>): Promise<void> {
  if (ctx.printer.format === 'json') {
    const pick = (outcome: Outcome) => rows.filter((row) => row.result === outcome).map((row) => row.contact_id);
    const failed = rows.filter((row) => row.result === 'failed').map(({ contact_id, error }) => ({ contact_id, error }));
    ctx.printer.write(
      `${JSON.stringify({ sequence_id: sequenceId, enrolled: pick('enrolled'), already_enrolled: pick('already_enrolled'), not_found: pick('not_found'), failed }, null, 2)}\n`,
    );
    return;
  }
  if (ctx.options.quiet) {
    await ctx.printer.records(rows.filter((row) => row.result === 'enrolled').map((row) => ({ id: row.contact_id })));
    return;
  }
  await ctx.printer.rows(rows, ['contact_id', 'result', 'error']);
  if (ctx.io.stderrIsTTY) {
    const count = (outcome: Outcome) => rows.filter((row) => row.result === outcome).length;
    ctx.info(`${count('enrolled')} enrolled, ${count('already_enrolled')} already enrolled, ${count('not_found')} not found, ${count('failed')} failed`);
  }
}
