// A profile's API key replaced (rotated) on the same base URL: is the replica's workspace the one
// the new key reads? The service names no workspace, so crm asks it for a few of the records the
// replica holds, with the new key. Another workspace's key reads none of them (404); the same
// workspace's reads them as they were: the same id and the same creation time (which never
// changes, and which two workspaces do not share for one id even where ids are counters). Then the
// replica is kept for the new key, and its change events go on; without that proof it is refused as
// ever (src/mirror/replica.ts: otherWorkspace).

import type { ApiClient } from '../http/core.js';
import { recordCreatedAt, recordId } from '../http/envelope.js';
import { HttpError } from '../http/errors.js';
import { fillPath } from '../http/url.js';
import { Replica, type ReplicaWorkspace } from './replica.js';

/** Records read again with the new key: the newest held (the likeliest still there). */
const RECORDS_ASKED = 3;

/** A key proven to read the replica's workspace: the key it held, and how many records read the same. */
interface ReplacedKey {
  heldKey: string;
  same: number;
}

/**
 * The replica's key, when `workspace` (the same base URL, another key) reads at least one of its
 * records the same and none differently; undefined when there is nothing to prove (no replica, the
 * same key, another base URL, a replica without a key) or no proof (every record 404 or 403, or one
 * that differs). Any other failure (the new key refused: 401) is thrown: the sync would meet it too.
 */
export async function provenReplacedKey(client: ApiClient, path: string, workspace: ReplicaWorkspace, signal?: AbortSignal): Promise<ReplacedKey | undefined> {
  const replica = Replica.openForReading(path);
  if (!replica) return undefined;
  let heldKey: string | undefined;
  let records: ReturnType<Replica['newestRecords']> = [];
  try {
    const info = replica.info();
    if (info.baseUrl !== workspace.baseUrl || info.key === undefined || info.key === workspace.key) return undefined;
    heldKey = info.key;
    records = replica.newestRecords(RECORDS_ASKED);
  } finally {
    replica.close();
  }
  let same = 0;
  for (const { table, id, createdAt } of records) {
    let record: unknown;
    try {
      record = await client.request('GET', fillPath(table.getPath!, { id }), { signal });
    } catch (error) {
      if (error instanceof HttpError && error.kind === 'status' && (error.status === 404 || error.status === 403)) continue;
      throw error;
    }
    if (recordId(record) !== id || recordCreatedAt(record) !== createdAt) return undefined;
    same++;
  }
  return same > 0 ? { heldKey, same } : undefined;
}
