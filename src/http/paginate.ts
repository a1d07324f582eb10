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
//
// A long walk (readAhead, no --limit) keeps the next two pages in flight, so that the service never
// waits for this end. The service may answer them in any order and the list may move meanwhile, so
// each of these pages starts one record early and is taken only if it holds the last record of the
// page before: then nothing lies between the two. One that does not is dropped, and the page is
// asked for again as above.

import type { ApiClient } from './core.js';
import { PAGE_MAX } from './core.js';
import { recordId, type ListPage } from './envelope.js';
import type { Query } from './url.js';

/** How far back a page may start to catch up with deletions (and how many ids are remembered). */
export const MAX_STEP_BACK = 150;
/** Re-read at the start of each page when the service sends no total. */
const OVERLAP_WITHOUT_TOTAL = 5;
const ID_WINDOW = MAX_STEP_BACK + 2 * PAGE_MAX;
/** Pages a long walk keeps in flight beyond the one it is writing out. */
const PAGES_IN_FLIGHT = 2;

export interface WalkOptions {
  /** At most this many records (--limit); every record when undefined (--all). */
  limit?: number;
  /** The list member of the response, e.g. "contacts". */
  key?: string;
  /**
   * Ask for the next pages while this one is written out, so that the service's time and the
   * writing overlap (a long export). Off for walks that usually stop on the first page.
   */
  readAhead?: boolean;
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
  /** The next page, asked for while the previous one was written out (readAhead). */
  let ahead: { offset: number; size: number; page: Promise<ListPage> } | undefined;
  /** Pages asked for ahead of need, each starting on the expected last record of the one before. */
  const inFlight: Array<{ offset: number; page: Promise<ListPage> }> = [];
  /** The id of the last record of the page taken last: the next page in flight must hold it. */
  let lastId: string | undefined;
  const ask = (offset: number, size: number) => client.list(path, { ...filters, limit: size, offset }, key);
  /** Keeps PAGES_IN_FLIGHT pages asked for after `from`, while the total says records remain. */
  const keepInFlight = (from: number, total: number) => {
    while (inFlight.length < PAGES_IN_FLIGHT) {
      const previous = inFlight.at(-1);
      const offset = previous ? previous.offset + PAGE_MAX - 1 : from - 1;
      if (offset + 1 >= total) return;
      const page = ask(offset, PAGE_MAX);
      // Its failure is reported by the request asked again in its place; an ended walk never awaits it.
      page.catch(() => {});
      inFlight.push({ offset, page });
    }
  };
  /** The page in flight that continues from `position`, if it came and holds the last record taken. */
  const continuation = async (position: number): Promise<{ offset: number; page: ListPage } | undefined> => {
    const next = inFlight.shift();
    if (next && next.offset === position - 1 && lastId !== undefined) {
      const page = await next.page.catch(() => undefined);
      if (page && page.items.some((item) => recordId(item) === lastId)) return { offset: next.offset, page };
    }
    inFlight.length = 0;
    return undefined;
  };
  /** Where the next page starts and how long it is, after `emittedSoFar` records. */
  const nextRequest = (emittedSoFar: number) => {
    const offset = Math.max(start, position - back);
    const remaining = limit === undefined ? PAGE_MAX : limit - emittedSoFar;
    return { offset, size: Math.min(PAGE_MAX, remaining + (position - offset)), remaining };
  };

  for (;;) {
    const wanted = nextRequest(emitted);
    if (wanted.remaining <= 0) return;
    let { offset, size } = wanted;
    let page: ListPage;
    const continued = inFlight.length > 0 ? await continuation(position) : undefined;
    if (continued) {
      ({ offset, page } = continued);
      size = PAGE_MAX;
    } else {
      page = await (ahead && ahead.offset === offset && ahead.size === size ? ahead.page : ask(offset, size));
      ahead = undefined;
      // Deleted records pulled the list earlier than this page starts: read from further back first.
      const reread = position - offset;
      const canStepBack = reread < Math.min(MAX_STEP_BACK, position - start);
      const shrunk = takenTotal !== undefined && page.total !== undefined ? takenTotal - page.total : 0;
      const firstId = recordId(page.items[0]);
      const missedStart = page.total === undefined && reread > 0 && firstId !== undefined && !seen.has(firstId);
      if (canStepBack && (shrunk > reread || missedStart)) {
        // Deletions may go on while we step back: the next try compares with the same taken total.
        back = Math.min(MAX_STEP_BACK, position - start, missedStart ? reread + PAGE_MAX : shrunk);
        continue;
      }
    }
    takenTotal = page.total;
    const items = page.items;

    // A server that ignores offset sends the same page again: stop rather than loop forever.
    const signature = signatureOf(items);
    if (signature === previousSignature) return;
    previousSignature = signature;

    const fresh: unknown[] = [];
    for (const item of items) {
      const id = recordId(item);
      if (id !== undefined) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      fresh.push(item);
    }
    const taken = limit === undefined ? fresh : fresh.slice(0, limit - emitted);
    // Full pages of records already seen: offset is ignored (or the list is being flooded).
    fruitless = fresh.length === 0 ? fruitless + 1 : 0;
    const last =
      taken.length < fresh.length ||
      items.length < size || // a short page: the end of the list
      (page.total !== undefined && offset + items.length >= page.total) ||
      fruitless >= 2;
    if (!last) {
      position = offset + items.length;
      back = page.total === undefined ? OVERLAP_WITHOUT_TOTAL : 0;
      lastId = recordId(items.at(-1));
      const next = nextRequest(emitted + taken.length);
      if (options.readAhead && limit === undefined && page.total !== undefined && lastId !== undefined) {
        keepInFlight(position, page.total);
      } else if (options.readAhead && next.remaining > 0) {
        inFlight.length = 0;
        ahead = { offset: next.offset, size: next.size, page: ask(next.offset, next.size) };
        // Its failure is reported when it is awaited; a walk ended early never awaits it.
        ahead.page.catch(() => {});
      }
    }
    for (const item of taken) {
      emitted++;
      yield item;
    }
    if (last) return;
  }
}

/** Tells pages apart, also when their records carry no ids. */
function signatureOf(items: unknown[]): string {
  return `${items.length}:${JSON.stringify(items[0])}:${JSON.stringify(items.at(-1))}`;
}
