// What the replica's commands share (crm sync, crm query, crm watch --changes, and the offers of
// auth logout and profiles remove): where a profile's replica is, opening it, running a sync with a
// progress bar at a terminal, and saying how old its data is.

import type { Context } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { relativeTime } from '../../cli/format.js';
import { startProgress, type Progress } from '../../cli/progress.js';
import { replicaPath } from '../../config/paths.js';
import { checkProfileName } from '../../config/store.js';
import type { ApiClient } from '../../http/core.js';
import { SANDBOX_BASE_URL } from '../../http/url.js';
import { MirrorError } from '../../mirror/errors.js';
import { provenReplacedKey } from '../../mirror/key.js';
import { Replica, checkReplicaWritable, keyFingerprint, otherWorkspace, type ReplicaWorkspace } from '../../mirror/replica.js';
import { TABLES, tableSpec } from '../../mirror/schema.js';
import { sync, type SyncMode, type SyncOutcome } from '../../mirror/sync.js';
import { REPLICA_TABLES } from '../../registry/local.js';
import { keepHeapSmall } from '../stream.js';

/** The profile whose replica a command means: the one named (even if no longer configured: --forget after `profiles remove`), else the active one. */
export function replicaProfile(ctx: Context): string {
  const named = ctx.options.profile || ctx.env.CRM_PROFILE;
  return named ? checkProfileName(named) : ctx.target().profile;
}

export function replicaPathOf(ctx: Context, profile = ctx.target().profile): string {
  return replicaPath(ctx.env, profile);
}

/** The workspace the command is for, as a replica remembers it: the base URL and which key reads it. */
function replicaWorkspace(ctx: Context): ReplicaWorkspace {
  const target = ctx.target();
  const baseUrl = target.kind === 'remote' ? target.baseUrl : SANDBOX_BASE_URL;
  // The embedded sandbox is one workspace, whatever its key.
  return { baseUrl, key: keyFingerprint(baseUrl, target.kind === 'remote' ? target.apiKey : undefined) };
}

/**
 * The replica of the active profile, read-only, closed with the command; a usage error when there is
 * none yet, or when it holds another workspace's records than the key now in use reads (or may: one
 * an older crm made, which did not record the key, until a sync checks it).
 */
export function openReplicaForReading(ctx: Context): Replica {
  const profile = ctx.target().profile;
  const replica = Replica.openForReading(replicaPathOf(ctx, profile));
  if (!replica) {
    throw new MirrorError(`there is no replica of profile "${profile}" yet`, { usage: true, code: 'no_replica', hint: 'make it with `crm sync` (or `crm query --fresh ...`)' });
  }
  ctx.onClose(() => replica.close());
  const held = replica.info();
  const workspace = replicaWorkspace(ctx);
  if (held.key === undefined) {
    throw new MirrorError(`the replica of profile "${profile}" was made by an older crm, which did not record the API key its records were read with`, {
      usage: true,
      code: 'replica_workspace',
      hint: '`crm sync` makes it anew for this key (one full sync)',
    });
  }
  if (held.baseUrl !== workspace.baseUrl || held.key !== workspace.key) throw otherWorkspace(replica.path, held.baseUrl, workspace.baseUrl);
  return replica;
}

/** The tables to sync: those named (checked), else every table synced by default. */
export function tablesToSync(names: readonly string[]): string[] {
  const unknown = names.filter((name) => !(REPLICA_TABLES as readonly string[]).includes(name));
  if (unknown.length > 0) throw usageError(`unknown table${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `"${name}"`).join(', ')} (tables: ${REPLICA_TABLES.join(', ')})`);
  const chosen = names.length > 0 ? new Set(names) : new Set(TABLES.filter((table) => table.byDefault).map((table) => table.name));
  return TABLES.filter((table) => chosen.has(table.name)).map((table) => table.name);
}

/**
 * Syncs `tables` into the profile's replica. A list read per parent (notes, enrolments) needs its
 * parents held: a parent table never synced is synced first. A progress bar at a terminal.
 */
export async function syncReplica(
  ctx: Context,
  client: ApiClient,
  tables: readonly string[],
  mode: SyncMode,
  signal?: AbortSignal,
  { quiet = false }: { quiet?: boolean } = {},
): Promise<SyncOutcome & { ms: number }> {
  const started = ctx.now();
  await keepHeapSmall();
  const path = replicaPathOf(ctx);
  const workspace = replicaWorkspace(ctx);
  // Before the look-ups of a replaced key are sent.
  checkReplicaWritable(path);
  const replaced = await provenReplacedKey(client, path, workspace, signal);
  const replica = Replica.openForSync(path, workspace, { replacedKey: replaced?.heldKey });
  ctx.onClose(() => replica.close());
  if (replaced) ctx.info(`The profile's API key was replaced: ${replaced.same} of the replica's records read the same with the new key, so the replica is kept for it (its change events go on).`);
  if (replica.emptied) ctx.info('The replica was made by an older crm, which did not record the API key its records were read with: it is made anew for this key (a first sync of each table, without change events).');
  const held = new Set(replica.status().map((status) => status.resource));
  const wanted = new Set(tables);
  for (const name of tables) {
    const parent = tableSpec(name).parent;
    if (parent && !held.has(parent) && !wanted.has(parent)) {
      ctx.info(`${name} are read per ${parent.replace(/s$/, '')}, which the replica does not hold yet: syncing ${parent} first`);
      wanted.add(parent);
    }
  }
  const ordered = TABLES.filter((table) => wanted.has(table.name)).map((table) => table.name);
  // crm watch --changes syncs every poll: its output is the events, not a bar.
  const bar = quiet ? { update: () => {}, stop: () => {} } : progressBar(ctx);
  const spinner = ctx.spinnerAllowed;
  if (!quiet) ctx.spinnerAllowed = false;
  try {
    const outcome = await sync({
      client,
      replica,
      tables: ordered,
      mode,
      signal,
      now: () => new Date(ctx.now()),
      onProgress: bar.update,
      onWarning: (message) => ctx.warn(message),
    });
    return { ...outcome, ms: ctx.now() - started };
  } finally {
    bar.stop();
    ctx.spinnerAllowed = spinner;
    replica.close();
  }
}

/** One bar a table, drawn once the list's size is known (the service's `total`, or the parents held). */
function progressBar(ctx: Context): { update: (progress: { resource: string; done: number; total?: number }) => void; stop: () => void } {
  let current: { resource: string; progress?: Progress } | undefined;
  return {
    update({ resource, done, total }) {
      if (current?.resource !== resource) {
        current?.progress?.stop();
        current = { resource };
      }
      if (!current.progress && total !== undefined) current.progress = startProgress(ctx.io, resource, total);
      current.progress?.update(done);
    },
    stop: () => current?.progress?.stop(),
  };
}

/** "data as of 3 minutes ago", and how old updates and deletions are when a `--new` sync came since the last full one. */
export function ageOf(replica: Replica, now: number): string {
  const synced = replica.status();
  if (synced.length === 0) return 'the replica holds nothing yet: run `crm sync`';
  const latest = (status: (typeof synced)[number]) => [status.fullAt, status.newAt].filter((at): at is string => at !== null).sort().at(-1)!;
  const newest = synced.map(latest).sort()[0]!;
  const full = synced.map((status) => status.fullAt ?? '').sort()[0]!;
  const ago = (iso: string) => `${relativeTime(iso, now)} (${iso})`;
  if (full === newest) return `data as of ${ago(newest)}`;
  return `new records as of ${ago(newest)}; updates and deletions as of ${full ? ago(full) : 'no full sync yet'}`;
}
