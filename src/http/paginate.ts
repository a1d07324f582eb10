// Walking a newest-first list page by page, in constant memory, without skipping a record when
// others are deleted during the walk (docs/api-assumptions.md, "Walking a list"):
//
// - Records created during the walk land at the head and push the rest later: a record may come
//   again, and is dropped by its id (a window of the most recent ids, so memory stays bounded).
// - Records deleted behind the walk pull the rest earlier, so the next page would start past a
//   record never seen. The service's `total` shows how many went: when it falls by d, the next page
//   starts d records earlier. Without a total, every page re-reads a few records, and a page that
//   does not start on a record already seen is read again from further back.
//
// Every record that exists for the whole walk is emitted exactly once as long as no more than
// MAX_STEP_BACK records are deleted between two page requests.

import type { ApiClient } from './core.js';
import { PAGE_MAX } from './core.js';
import { isObject } from './envelope.js';
import type { Query } from './url.js';

/** How far back a page may start to catch up with deletions (and how many ids are remembered). */
export const MAX_STEP_BACK = 150;
/** Re-read at the start of each page when the service sends no total. */
const OVERLAP_WITHOUT_TOTAL = 5;
const ID_WINDOW = MAX_STEP_BACK + 2 * PAGE_MAX;

export interface WalkOptions {
  /** At most this many records (--limit); every record when undefined (--all). */
  limit?: number;
  /** The list member of the response, e.g. "contacts". */
  key?: string;
}

/** A set that remembers only its most recent entries. */
class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity: number) {}
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
  }
}

function idOf(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const id = item.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

export async function* walk(client: ApiClient, path: string, query: Query, options: WalkOptions = {}): AsyncGenerator<unknown> {
  const { limit, key } = options;
  const { offset: from, ...filters } = query;
  const start = Number(from ?? 0);
  const seen = new RecentIds(ID_WINDOW);
  let position = start; // list index of the first record not yet read
  let back = 0; // how many records before `position` the next page starts
  /** The total when the last page was taken: what shrank since is how far the list moved back. */
  let takenTotal: number | undefined;
  let previousSignature = '';
  let emitted = 0;
  let fruitless = 0;

  for (;;) {
    const remaining = limit === undefined ? PAGE_MAX : limit - emitted;
    if (remaining <= 0) return;
    const offset = Math.max(start, position - back);
    const size = Math.min(PAGE_MAX, remaining + (position - offset));
    const page = await client.list(path, { ...filters, limit: size, offset }, key);
    const items = page.items;

    // Deleted records pulled the list earlier than this page starts: read from further back first.
    const reread = position - offset;
    const canStepBack = reread < Math.min(MAX_STEP_BACK, position - start);
    const shrunk = takenTotal !== undefined && page.total !== undefined ? takenTotal - page.total : 0;
    const firstId = idOf(items[0]);
    const missedStart = page.total === undefined && reread > 0 && firstId !== undefined && !seen.has(firstId);
    if (canStepBack && (shrunk > reread || missedStart)) {
      // Deletions may go on while we step back: the next try compares with the same taken total.
      back = Math.min(MAX_STEP_BACK, position - start, missedStart ? reread + PAGE_MAX : shrunk);
      continue;
    }
    takenTotal = page.total;

    // A server that ignores offset sends the same page again: stop rather than loop forever.
    const signature = signatureOf(items);
    if (signature === previousSignature) return;
    previousSignature = signature;

    let fresh = 0;
    for (const item of items) {
      const id = idOf(item);
      if (id !== undefined) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      fresh++;
      emitted++;
      yield item;
      if (limit !== undefined && emitted >= limit) return;
    }
    if (items.length < size) return; // a short page: the end of the list
    if (page.total !== undefined && offset + items.length >= page.total) return;
    // Full pages of records already seen: offset is ignored (or the list is being flooded).
    fruitless = fresh === 0 ? fruitless + 1 : 0;
    if (fruitless >= 2) return;

    position = offset + items.length;
    back = page.total === undefined ? OVERLAP_WITHOUT_TOTAL : 0;
  }
}

/** Tells pages apart, also when their records carry no ids. */
function signatureOf(items: unknown[]): string {
  return `${items.length}:${JSON.stringify(items[0])}:${JSON.stringify(items.at(-1))}`;
}
