// crm query SQL | --file F | - [--fresh] | --schema: read-only SQL on the profile's replica, printed by
// the one printer (table, tsv, json, ndjson, csv, --fields) as it is read. stderr says how old the
// data is; --fresh syncs first.

import { readFileSync } from 'node:fs';
import type { Context } from '../../cli/context.js';
import { toCliError, usageError } from '../../cli/errors.js';
import { readAll, roomToWrite, signalsEndProcess, type OutStream } from '../../cli/io.js';
import { list } from '../../cli/result.js';
import { checkQuery, runQuery } from '../../mirror/query.js';
import { cannotUseFile } from '../../registry/values.js';
import { describeReplica } from '../../mirror/replica.js';
import type { Handler } from '../command.js';
import { stopOnSigterm } from '../stop.js';
import { ageOf, openReplicaForReading, syncReplica, tablesToSync } from '../mirror/replica.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { args, options }) => {
  if (options.schema) {
    if (args.sql !== undefined || options.file !== undefined || options.fresh) throw usageError('--schema takes no query and no --file or --fresh');
    return list(describeReplica(), { columns: ['table', 'column', 'type', 'description'], noun: 'columns' });
  }
  const sql = await readSql(ctx, args.sql, options.file);
  // A mistake in the SQL is named before a replica is looked for or synced.
  checkQuery(sql);
  if (options.fresh) await freshen(ctx);
  const replica = openReplicaForReading(ctx);
  const { columns, rows } = runQuery(replica, sql);
  if (!ctx.options.quiet) ctx.info(capitalized(ageOf(replica, ctx.now())));
  return list(streamed(rows, ctx.io.stdout), { columns, fields: columns, noun: 'rows' });
};

/** The query: the argument, --file, or stdin for `-`; exactly one of them. */
async function readSql(ctx: Context, argument: string | undefined, file: string | undefined): Promise<string> {
  if (argument !== undefined && file !== undefined) throw usageError('give the query as an argument or with --file, not both');
  const source = argument ?? (file === undefined ? undefined : file === '-' ? '-' : { file });
  if (source === undefined) throw usageError('missing SQL', 'crm query "SELECT ...", --file query.sql, or - to read it from stdin; --schema lists the tables');
  if (source === '-') return readAll(ctx.io.stdin);
  if (typeof source === 'string') return source;
  try {
    return readFileSync(source.file, 'utf8');
  } catch (error) {
    throw usageError(cannotUseFile('read', `--file ${source.file}`, error));
  }
}

/** --fresh: the default sync first; a failure stops here, with its code. */
async function freshen(ctx: Context): Promise<void> {
  if (ctx.dryRun) throw usageError('--fresh syncs, which reads every list; --dry-run does not apply');
  const stopper = stopOnSigterm(ctx.io.signals);
  ctx.onClose(() => stopper.dispose());
  const outcome = await syncReplica(ctx, await ctx.client(), tablesToSync([]), 'full', AbortSignal.any([ctx.signal, stopper.signal]));
  if (outcome.failure !== undefined) throw toCliError(outcome.failure);
  const failed = outcome.reports.find((report) => report.error !== undefined);
  if (failed) ctx.warn(`${failed.resource} were not synced: ${failed.error}`);
}

/** Rows read between turns of the event loop (roomToWrite): a few microseconds a turn. */
const ROWS_A_TURN = 256;

/**
 * The rows as the printer takes a stream: read from SQLite one at a time, not held, and no faster
 * than stdout takes them (into a pipe, each turn waits for its reader; `| head -1` ends the command).
 * While they are read, Ctrl-C and SIGTERM end the process by their default action: a statement runs
 * in one synchronous call of SQLite (a recursive CTE without end, a cross join to sort) that no
 * handler could interrupt, and a read-only connection leaves nothing to clean up.
 */
async function* streamed(rows: Iterable<Record<string, unknown>>, stdout: OutStream): AsyncGenerator<Record<string, unknown>> {
  const restoreSignals = signalsEndProcess();
  try {
    let read = 0;
    for (const row of rows) {
      yield row;
      if (++read % ROWS_A_TURN === 0) await roomToWrite(stdout);
    }
  } finally {
    restoreSignals();
  }
}

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
