// crm sync [TABLE...] [--new | --full] | --status | --forget: the profile's local replica of the
// workspace (src/mirror/). A sync prints one row per table: what it added, changed and removed, what
// it holds now and the requests it took; a failure stops it with that failure's code, every table
// synced before it committed.

import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, interruptedError, toCliError, usageError } from '../../cli/errors.js';
import { done, list, type Result } from '../../cli/result.js';
import { forgetReplica } from '../../mirror/files.js';
import { Replica } from '../../mirror/replica.js';
import type { TableReport } from '../../mirror/sync.js';
import type { Handler, Input } from '../command.js';
import { stopOnSigterm } from '../stop.js';
import type { Spec } from './command.js';
import { replicaPathOf, replicaProfile, syncReplica, tablesToSync } from '../mirror/replica.js';

const REPORT_COLUMNS = ['resource', 'mode', 'added', 'changed', 'removed', 'records', 'requests', 'error'] as const;
const STATUS_COLUMNS = ['resource', 'records', 'synced_at', 'new_synced_at', 'requests'] as const;

export const run: Handler<Spec> = async (ctx, invocation) => {
  const { args, options } = invocation;
  const names = args.resources ?? [];
  const asked = (['status', 'forget', 'new', 'full'] as const).filter((flag) => options[flag]);
  const alone = asked.filter((flag) => flag === 'status' || flag === 'forget');
  if (alone.length > 0 && (asked.length > 1 || names.length > 0)) {
    throw usageError(`--${alone[0]} takes no table and no other flag of crm sync`, `--${alone[0]} is about the whole replica of the profile`);
  }
  if (options.new && options.full) throw usageError('--new and --full ask for different syncs', '--new takes only new records; --full (the default) reads every list whole');
  if (options.forget) return forget(ctx);
  if (options.status) return status(ctx);
  return syncTables(ctx, invocation);
};

async function syncTables(ctx: Context, { args, options }: Input<Spec>): Promise<Result> {
  const tables = tablesToSync((args.resources ?? []));
  if (ctx.dryRun) throw usageError('crm sync reads every list it syncs; --dry-run does not apply', 'see the requests of one list with `crm contacts list --all --dry-run`');
  const client = await ctx.client();
  // Ctrl-C (the command's signal) and SIGTERM stop the sync at the next record: what is committed stays.
  const stopper = stopOnSigterm(ctx.io.signals);
  ctx.onClose(() => stopper.dispose());
  const signal = AbortSignal.any([ctx.signal, stopper.signal]);
  const outcome = await syncReplica(ctx, client, tables, options.new ? 'new' : 'full', signal);
  const rows = outcome.reports.map(reportRow);
  const result = list(rows, { columns: REPORT_COLUMNS, noun: 'tables', summary: summary(outcome.reports, outcome.ms) });
  if (outcome.failure !== undefined) {
    const failure = signal.aborted ? interruptedError() : toCliError(outcome.failure);
    return { ...result, failure: new CliError(`${failure.message} (${stoppedAt(outcome.reports, tables)})`, failure.exitCode, { status: failure.status, code: failure.code, hint: failure.hint }) };
  }
  const failed = outcome.reports.filter((report) => report.error !== undefined);
  if (failed.length === 0) return result;
  const which = failed.map((report) => `${report.resource} (${report.error})`).join(', ');
  return { ...result, failure: new CliError(`${failed.length} of ${tables.length} tables were not synced: ${which}`, ExitCode.partial, { code: 'partial_failure', hint: 'the key may lack the scope to read them' }) };
}

function reportRow(report: TableReport) {
  const { resource, mode, added, changed, removed, records, requests, error } = report;
  return { resource, mode, added, changed, removed, records, requests, error: error ?? null };
}

/** Where the sync stopped: what it committed, and what is left as it was. */
function stoppedAt(reports: readonly TableReport[], tables: readonly string[]): string {
  const synced = new Set(reports.map((report) => report.resource));
  const left = tables.filter((table) => !synced.has(table));
  return `${synced.size > 0 ? `synced: ${[...synced].join(', ')}; ` : ''}left as the last sync left them: ${left.join(', ')}`;
}

function summary(reports: readonly TableReport[], ms: number): string {
  const sum = (key: 'added' | 'changed' | 'removed' | 'requests') => reports.reduce((total, report) => total + report[key], 0);
  return `Synced ${reports.length} table${reports.length === 1 ? '' : 's'} in ${(ms / 1000).toFixed(1)}s: ${sum('added')} added, ${sum('changed')} changed, ${sum('removed')} removed (${sum('requests')} requests)`;
}

function status(ctx: Context): Result {
  const profile = ctx.target().profile;
  const path = replicaPathOf(ctx, profile);
  const replica = Replica.openForReading(path);
  if (!replica) {
    if (ctx.io.stderrIsTTY) ctx.info(`No replica of profile "${profile}" yet: \`crm sync\` makes one at ${path}`);
    return list([], { columns: STATUS_COLUMNS, noun: 'tables' });
  }
  ctx.onClose(() => replica.close());
  const { baseUrl } = replica.info();
  const rows = replica.status().map((table) => ({ resource: table.resource, records: table.records, synced_at: table.fullAt, new_synced_at: table.newAt, requests: table.requests }));
  const megabytes = (replica.size() / 1_048_576).toFixed(1);
  return list(rows, { columns: STATUS_COLUMNS, noun: 'tables', title: `Replica of profile "${profile}" (${baseUrl}): ${path}, ${megabytes} MB` });
}

function forget(ctx: Context): Result {
  const profile = replicaProfile(ctx);
  const path = replicaPathOf(ctx, profile);
  if (ctx.dryRun) return done(`Dry run: the replica of profile "${profile}" was not deleted (${path})`);
  const removed = forgetReplica(path);
  const message = removed ? `✓ Deleted the replica of profile "${profile}" (${path})` : `Profile "${profile}" has no replica.`;
  return done(message, { profile, path, deleted: removed });
}
