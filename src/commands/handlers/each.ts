// Commands that act on several ids one request each (tasks complete, ai accept): every id is
// reported, and if some fail the command exits 7 naming them.

import type { Operation } from '../../api/endpoints.js';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode } from '../../cli/errors.js';
import { fillPath } from '../../http/url.js';

export interface EachResult {
  id: string;
  ok: boolean;
  record?: unknown;
  error?: ReturnType<CliError['toJSON']>['error'];
}

const CONCURRENCY = 4;

export async function forEachId(ids: string[], action: (id: string) => Promise<unknown>): Promise<EachResult[]> {
  const results: EachResult[] = new Array(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const index = next++;
      const id = ids[index]!;
      try {
        results[index] = { id, ok: true, record: await action(id) };
      } catch (error) {
        if (!(error instanceof CliError) || error.exitCode === ExitCode.usage) throw error;
        results[index] = { id, ok: false, error: error.toJSON().error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
  return results;
}

/**
 * Prints the records that succeeded (json: every result with its ok flag) and the failures on
 * stderr. One id that failed exits with that error's own code; some of several: exit 7.
 */
export async function reportEach(ctx: Context, results: EachResult[], columns: readonly string[]): Promise<void> {
  const failed = results.filter((result) => !result.ok);
  const printer = ctx.printer;
  if (printer.format === 'json' || printer.format === 'ndjson') {
    await printer.records(results.map(({ id, ok, record, error }) => (ok ? { id, ok, record } : { id, ok, error })));
  } else {
    await printer.records(results.filter((result) => result.ok).map((result) => result.record), { columns });
  }
  if (failed.length === 0) return;
  if (results.length === 1) {
    const error = failed[0]!.error!;
    throw new CliError(error.message, error.exit_code, { status: error.status ?? undefined, code: error.code ?? undefined, hint: error.hint });
  }
  for (const failure of failed) ctx.io.stderr.write(`crm: ${failure.id}: ${failure.error?.message}\n`);
  throw new CliError(`${failed.length} of ${results.length} failed: ${failed.map((failure) => failure.id).join(', ')}`, ExitCode.partial, {
    code: 'partial_failure',
  });
}

/** POSTs the operation's path once per id (ids are all checked before the first request). */
export async function postEach(ctx: Context, op: Operation, ids: string[]): Promise<void> {
  const paths = new Map(ids.map((id) => [id, fillPath(op.path, { id })]));
  const client = await ctx.client();
  const results = await forEachId(ids, (id) => client.request('POST', paths.get(id)!));
  await reportEach(ctx, results, op.columns ?? []);
}
