// The change log, read: the events successive syncs wrote (src/mirror/sync.ts), in the order they
// were found, for `crm watch RESOURCE --changes` and for SQL (`SELECT * FROM changes`). An event is
// numbered (seq) once and for ever within its replica; the replica's id tells replicas apart, so an
// event's id (replica and seq) is the same at every delivery and never another event's.

import { MirrorError } from './errors.js';
import type { Replica } from './replica.js';
import { CHANGES_KEPT_DAYS, CHANGES_TABLE } from './schema.js';

type ChangeKind = 'created' | 'updated' | 'deleted';

export interface ChangeEvent {
  /** Stable: `<replica id>.<seq>`. */
  event_id: string;
  seq: number;
  event: ChangeKind;
  resource: string;
  id: string;
  /** updated: the names of the fields that changed. */
  changed?: string[];
  /** updated: the fields that changed, before and after. */
  changes?: Record<string, { before: unknown; after: unknown }>;
  /** After the change; as last held for a deletion. */
  record: unknown;
  detected_at: string;
}

interface ChangeRow {
  seq: number;
  event: ChangeKind;
  resource: string;
  id: string;
  changed: string | null;
  changes: string | null;
  record: string;
  detected_at: string;
}

/** The newest event's number (0 when there is none): a watch's baseline. */
export function latestSeq(replica: Replica): number {
  return (replica.db.prepare(`SELECT coalesce(max(seq), 0) AS seq FROM ${CHANGES_TABLE}`).get() as { seq: number }).seq;
}

/**
 * The events of `resource` after `afterSeq`, oldest first, at most `limit`. Events after `afterSeq`
 * that were pruned meanwhile are a failure, not a silent gap.
 */
export function changesAfter(replica: Replica, resource: string, afterSeq: number, limit = 1000): ChangeEvent[] {
  const pruned = replica.db.prepare("SELECT value FROM _meta WHERE key = 'pruned_through'").get() as { value: string } | undefined;
  if (pruned && Number(pruned.value) > afterSeq) {
    throw new MirrorError(`change events after ${afterSeq} were pruned (events are kept ${CHANGES_KEPT_DAYS} days); the events up to ${pruned.value} cannot be delivered`, {
      usage: true,
      code: 'changes_pruned',
      hint: 'start the watch again with a new --state file (it takes the changes from now on)',
    });
  }
  const replicaId = replica.info().id;
  const rows = replica.db
    .prepare(`SELECT seq, event, resource, id, changed, changes, record, detected_at FROM ${CHANGES_TABLE} WHERE resource = ? AND seq > ? ORDER BY seq LIMIT ?`)
    .all(resource, afterSeq, limit) as ChangeRow[];
  return rows.map((row) => ({
    event_id: `${replicaId}.${row.seq}`,
    seq: row.seq,
    event: row.event,
    resource: row.resource,
    id: row.id,
    ...(row.changed === null ? {} : { changed: JSON.parse(row.changed) as string[] }),
    ...(row.changes === null ? {} : { changes: JSON.parse(row.changes) as ChangeEvent['changes'] }),
    record: JSON.parse(row.record),
    detected_at: row.detected_at,
  }));
}
