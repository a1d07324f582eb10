// Walking a newest-first list page by page while other clients change it (docs/api-assumptions.md,
// "Walking a list"). The rule follows from the one thing such a list guarantees: records are created
// at its head and deleted anywhere, so the records that remain keep their order. Nothing new can come
// between two records; what follows a record in any later answer follows it still.
//
// - The walk continues from the records it has, never from a count. Each page after the first must
//   hold one of the last records given out, or the next record (read with the page before and held
//   back, so that it is there to be found even when every record given out has been deleted). What
//   follows it in the page is given out; a page that holds none of them is not used, and the walk
//   looks half a page before it (SEARCH_PAGES times, then at the head when it may start again from
//   there, else it fails), then takes it if it follows on. Except a page from the head, full or
//   short, when the walk started there and knows every record it gave out (it keeps every key up to
//   RESTARTABLE records; past REMEMBERED, it starts again LATE_STARTS times at most): nothing comes
//   before it and none of its records was given out, so it is read as the walk's first page.
//   Records given before that lie further on are known when met (their keys are kept), and the walk
//   gives no position while they may lie ahead.
// - So a record that exists for the whole walk is given exactly once, and none twice, whatever the
//   changes: nothing is taken on trust. The rate of change decides only whether the walk keeps up:
//   up to changesKeptUpWith(concurrency) records a request it always does; beyond, it may fail with
//   WalkOutpaced (exit 1), never end quietly with a record missing.
// - Pages start where the record held back is expected, less a margin that grows with the shifts
//   seen and shrinks while the list is still, and one record more when records say when they were
//   created (below): a still list costs 1 request for the first 50 records and 1 for every 48 after
//   (49 without created_at), plus one to find the end (a short page, never `total`;
//   but a short page that `total` says records follow is a service's smaller cap, not the end, and
//   without a total, before any page as long as asked, one more page, asked as long as the short one
//   was, tells a cap from the end: a cap only when it brings records and is short too).
// - A long walk keeps `concurrency` pages in flight, each planned to start on the last record of the
//   one before and taken in list order by the same rule, whatever order they are answered in. A
//   page that failed after the core's retries halves the pages in flight and is asked again; a page
//   that does not follow on halves them too (fewer keep up with more change), grown back one a page.
// - `total` is a hint: no page is planned past it while another is in flight.
// - A page that repeats a record (its id twice) is read with each record once, at its first place:
//   a list holds a record once, so the rule above applies to the page without the repeats. Across
//   pages the rule already gives nothing twice: only what follows the last record given out is new.
// - Records created at the same instant (one transaction, a clock of coarse resolution) have no order
//   the spec fixes: a database sorting by created_at alone may list them otherwise for each request,
//   so one not read yet may be listed before the record a page follows on from, or before the page.
//   A page follows on only if it shows where the instant of that record begins (a record of another
//   instant before it, or the head); those of the instant it lists before that record and that were
//   not given out are taken too. Each page starts one record earlier to show it, and a page asked
//   after the one read last starts just before the instant that page ended in (one asked while the
//   page before it is in flight, as early as the widest instant seen within a page). A still list of
//   3,000 costs, by records an instant 1 / 5 / 10 / 25 / 30 / 50 / 100 / 3,000: 63 / 67 / 75 / 120 /
//   100 / 80 / 75 / 75 requests one page at a time, 63 / 69 / 77 / 120 / 100 / 99 / 75 / 75 with 8
//   in flight (a page in flight that starts inside an instant of more than half a page searches
//   back). A page shows at most one instant of 25 to 48 records whole, a record of another instant
//   on each side: a still list of such instants costs about a request per instant unless the walk
//   trusts their order. The walk standing among more records of one instant than half a page (a bulk
//   import) trusts their order, since no page may show where they begin, until a page shows the
//   service changes it: then it fails with WalkUnordered, never ends with one missing. A walk
//   continued from a position (an MCP cursor) knows too few of the records given out before to tell
//   them from unread ones: it trusts the order.
//
// test/unit/walk.property.test.ts checks all of this against a model of such a list.

import type { ApiClient } from './core.js';
import { PAGE_MAX } from '../registry/service.js';
import { HttpError } from './errors.js';
import { recordCreatedAt, recordId, type ListPage } from './envelope.js';
import type { Query } from './url.js';

/** Pages a long walk (export, --all, --paginate) keeps asked for at once. */
export const PAGES_IN_FLIGHT = 8;
/** Pages searched back from a page that holds none of the walk's records, before giving up. */
const SEARCH_PAGES = 8;
/** How far before such a page the search looks: half a page, so that each look overlaps the one after it by half a page. */
const SEARCH_STEP = PAGE_MAX / 2;
/**
 * Records created or deleted per request sent that a walk always keeps up with. Between the answers
 * to two pages that follow on, at most `concurrency` requests are answered, so the list moves by at
 * most concurrency x this: less than a search step (each look back gains on it), and with the
 * largest margin still within the page (each page brings something).
 */
export function changesKeptUpWith(concurrency: number): number {
  return Math.floor((SEARCH_STEP - 1) / concurrency);
}
/** Pages in a row that bring nothing new (the list grows at its head faster than the walk reads, or `offset` is ignored). */
const FRUITLESS_PAGES = PAGES_IN_FLIGHT + 2;
/** How far before the expected record a page may start: at most half a page, so that each page brings at least half a page. */
const MAX_MARGIN = PAGE_MAX / 2;
/**
 * Records given out that are remembered (the last ones, once the walk cannot start again). More than
 * a search can reach back, so that a record met again is always known: a page whose only known
 * record is a newer one with a reused id (at the head) then brings no record twice.
 */
const REMEMBERED = SEARCH_PAGES * SEARCH_STEP + 4 * PAGE_MAX;
/**
 * Records a walk from the head gives out while it keeps every key, so that it may start again from
 * there (canStartAgain); past them it keeps the last REMEMBERED. A key takes about 190 bytes of heap
 * (an id of 20 characters with a created_at): under 2 MB for these, whatever the list's length.
 */
export const RESTARTABLE = 10_000;
/**
 * Times a walk that gave out more than REMEMBERED starts again from the head, at most. One that keeps
 * starting again follows a head that grows faster than it reads (or than its pages: a service's cap
 * of a few records, or a total that made a short page look like one), after a search of up to
 * SEARCH_PAGES pages each time: unbounded, it gave new records until RESTARTABLE, a thousand requests
 * and more (test/unit/walk.property.test.ts, "seeds that once failed").
 */
const LATE_STARTS = 16;
/**
 * Records of the instant the walk stands in, read before, that a page must list again in the order
 * they were read for the walk to trust the order of more records of one instant than half a page.
 */
const SAME_ORDER_SHOWN = 8;
/** Records a WalkPosition names on each side of where the walk stands. */
const POSITION_KEYS = 3;
/** Where the records of the walk's first page follow on from: the head. */
const FROM_HEAD = { from: 0, at: -1 } as const;

/** The list changed faster than the walk could follow (or the service ignores `offset`). */
export class WalkOutpaced extends HttpError {
  constructor(detail: string, given: number) {
    super('lost_track', `the list changed faster than crm could walk it: ${detail}; ${given} records were written, others may be missing`, {
      code: 'walk_outpaced',
      hint: `run it again when the list changes less (or, for a service that ignores offset, read it with --limit ${PAGE_MAX} or less)`,
    });
  }
}

/** Records created at the same instant are listed in another order by each request, and more of them than a page can show at once. */
export class WalkUnordered extends HttpError {
  constructor(createdAt: string, given: number) {
    super('lost_track', `the service lists the records created at ${createdAt} in a different order from one page to the next, and more of them than a page holds: crm cannot tell which it has not read; ${given} records were written, others may be missing`, {
      code: 'walk_unordered',
      hint: 'read them with a filter that selects fewer records, or ask the service to order records created at the same time (by id, say)',
    });
  }
}

/** Where a walk stands, to continue it later (an MCP cursor): the next record and its neighbours. */
export interface WalkPosition {
  /** Where the next record was in the list when it was read. */
  offset: number;
  /** Keys (positionKey) of the last records given out, oldest first. */
  taken: string[];
  /** Keys of the next records, read but not given out yet, in list order. */
  ahead: string[];
  /** The keys are positionKeys (a resumable walk's), not recordKeys: the walk that continues knows records the same way. */
  digests: boolean;
}

export interface WalkOptions {
  /** At most this many records (--limit); every record when undefined. */
  limit?: number;
  /** The list member of the response, e.g. "contacts". */
  key?: string;
  /** Pages asked for at once: PAGES_IN_FLIGHT for long walks; 1 (the default) for walks that usually stop early. */
  concurrency?: number;
  /**
   * Continue a walk from where it stood (an MCP cursor, the sync's second walk) instead of from
   * `query.offset`; it knows records as that position names them.
   */
  from?: WalkPosition;
  /**
   * Where the walk stands will be kept outside crm (an MCP cursor): records are known by their
   * positionKey, short whatever the record, so that a cursor holds a few of them.
   */
  resumable?: boolean;
  /** Headers of the caller's on every page (crm api -H). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * What tells records apart: the id with the creation time, so that a new record given a deleted
 * record's id is another record; the whole record when it has no id.
 */
export function recordKey(record: unknown): string {
  const id = recordId(record);
  if (id === undefined) return `json:${JSON.stringify(record)}`;
  return `${id}\u0000${recordCreatedAt(record) ?? ''}`;
}

/** A record's key as a position names it: 16 hex digits of a digest of its recordKey (a record without an id can be long). */
function positionKey(record: unknown): string {
  // node:crypto is loaded here, by the walks that keep positions, not by every command's start (about 2 ms).
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(recordKey(record)).digest('hex').slice(0, 16);
}

/** A page asked for: where it starts, how many records, and the answer to come. */
interface Page {
  offset: number;
  size: number;
  /** Records it should bring that the walk has not read, if the list stands still. */
  yields: number;
  /** Pages the walk kept in flight when it was asked for: a page asked for alone that fails is the walk's failure. */
  alongside: number;
  answer: Promise<ListPage>;
  /** It held none of the walk's records once already: a page searched back from, kept for one more look. */
  missed: boolean;
}

/**
 * Keys of the records given out, in the order given: every one while the walk may start again from
 * the head (RESTARTABLE at most), else the most recent REMEMBERED; and those given before the walk
 * last started again from the head (canStartAgain).
 */
class GivenKeys {
  /** Each key with the number of the record when it was given out. */
  private readonly keys = new Map<string, number>();
  /**
   * Keys given before the walk started again from the head, never dropped: those records lie
   * further on, where the walk meets them again after giving any number of others.
   */
  private readonly before = new Map<string, number>();
  private given = 0;
  /** Keys beyond REMEMBERED are dropped: a record given out then would not be known again. */
  private forgetting: boolean;

  /** KEEPALL: the walk may start again from the head, so every key is kept while they are RESTARTABLE at most. */
  constructor(keepAll: boolean) {
    this.forgetting = !keepAll;
  }
  /** Every key given out is still here (RESTARTABLE at most, so that those kept by startAgain are bounded). */
  get complete(): boolean {
    return !this.forgetting;
  }
  has(key: string): boolean {
    return this.keys.has(key) || this.before.has(key);
  }
  /** When the record was given out (a number that grows), undefined when it was not (or is forgotten). */
  order(key: string): number | undefined {
    return this.keys.get(key) ?? this.before.get(key);
  }
  add(key: string): void {
    this.keys.delete(key);
    this.keys.set(key, this.given++);
    // Past RESTARTABLE the walk can no longer start again: the oldest keys beyond REMEMBERED go, all
    // at once the first time (the walk's memory is back to REMEMBERED keys), then one for each added.
    if (this.keys.size + this.before.size > RESTARTABLE) this.forgetting = true;
    if (!this.forgetting) return;
    for (const oldest of this.keys.keys()) {
      if (this.keys.size <= REMEMBERED) break;
      this.keys.delete(oldest);
    }
  }
  /** The walk starts again from the head: every key given so far is kept. */
  startAgain(): void {
    for (const [key, serial] of this.keys) this.before.set(key, serial);
    this.keys.clear();
  }
  /** The last COUNT keys given, oldest first: one pass over the keys, without copying them (position(), once a walk). */
  last(count: number): string[] {
    const last: string[] = [];
    for (const keys of [this.before, this.keys]) {
      for (const key of keys.keys()) {
        if (last.push(key) > count) last.shift();
      }
    }
    return last;
  }
  forget(key: string): void {
    this.keys.delete(key);
    this.before.delete(key);
  }
}

export class Walk implements AsyncIterable<unknown> {
  /** Requests sent so far (the property test reports them). */
  requests = 0;
  private readonly filters: Query;
  private readonly start: number;
  private readonly given: GivenKeys;
  /** Records read, after the last one given out and in list order, not given out yet (at least the last of a page). */
  private held: unknown[] = [];
  /** Keys of the next records when the walk continues a position (their records are not read yet). */
  private aheadKeys: string[] = [];
  /** Where the last record held was in the list when its page was answered. */
  private next = 0;
  private started = false;
  /** The walk started again from a head page that was not the whole list: records it gave before may lie ahead. */
  private givenAhead = false;
  /** Times the walk started again from the head after it gave out more than REMEMBERED records. */
  private lateStarts = 0;
  private ended = false;
  private count = 0;
  private margin = 0;
  private totalHint?: number;
  /** Records a page holds at most: PAGE_MAX, or fewer once a service gave fewer than asked while more followed (`total` said so, or the page asked to tell brought them). */
  private pageSize = PAGE_MAX;
  /** A page came back as long as asked: the service's pages are not shorter, so a short one is the end. */
  private sizeShown = false;
  /** The next page is asked after a short one without a total, to tell a cap from the end. */
  private probing = false;
  private readonly inFlight: Page[] = [];
  /** Aborted when the walk ends (the list's end, --limit, a reader that stopped): the pages in flight are cancelled. */
  private readonly ending = new AbortController();
  /** Pages in flight now, and at most (halved by failures, grown back slowly). */
  private concurrency = 1;
  private ceiling: number;
  private searches = 0;
  private fruitless = 0;
  private steady = 0;
  /** The record given out last, until the next (unread gives it back). */
  private lastGiven?: { record: unknown };
  /** How the walk knows a record: recordKey, or the shorter positionKey for a walk that is resumed later. */
  private readonly keyOf: (record: unknown) => string;
  /** When the last record given out was created, and how many given out in a row were created then. */
  private lastCreated?: string;
  private sameInstant = 0;
  /** The records say when they were created: each page starts a record earlier, to show where the instant of its first new record begins. */
  private instants = false;
  /** Records in a row, ending with the last one read, created at its instant. */
  private lastInstant = 0;
  /** The most records of one instant seen together within a page (fewer than half a page): pages planned while the one before is in flight start one fewer earlier, so that the rest of such an instant shows. */
  private widestInstant = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly path: string,
    query: Query,
    private readonly options: WalkOptions = {},
  ) {
    const { offset, ...filters } = query;
    this.filters = filters;
    this.start = Number(offset ?? 0);
    this.ceiling = options.concurrency ?? 1;
    this.keyOf = (options.from ? options.from.digests : options.resumable) ? positionKey : recordKey;
    // Only a walk from the head, not continued from a position, may start again from there
    // (canStartAgain): it alone keeps every key.
    this.given = new GivenKeys(this.start === 0 && options.from === undefined);
    const from = options.from;
    if (from) {
      this.started = true;
      this.next = from.offset;
      for (const key of from.taken) this.given.add(key);
      this.aheadKeys = [...from.ahead];
      // Whoever continues a walk later may have acted on what it was given (completed, deleted).
      this.margin = MAX_MARGIN;
    }
  }

  [Symbol.asyncIterator](): AsyncGenerator<unknown> {
    return this.records();
  }

  /** The service's count of the records, as its last page said (a hint: the walk never relies on it). */
  get total(): number | undefined {
    return this.totalHint;
  }

  /**
   * The last record given out, given back: the reader could not use it (an MCP response that would
   * grow too large). It is the next record again, and where the walk stands counts it as not given.
   * The walk takes back the record as it gave it: a reader may have changed its copy (search adds a
   * `type`), and a record without an id is known by all of its members.
   */
  unread(): void {
    if (this.lastGiven === undefined) return;
    this.given.forget(this.keyOf(this.lastGiven.record));
    // Which record was given out before it, and when that was created, is not kept.
    if (--this.sameInstant <= 0) this.lastCreated = undefined;
    this.held.unshift(this.lastGiven.record);
    this.lastGiven = undefined;
    this.count--;
  }

  /**
   * Where the walk stands; undefined once the list has been read to its end. A walk that may have
   * records it gave ahead of it fails instead: one continued from a position would give them again.
   */
  position(): WalkPosition | undefined {
    if (this.ended && this.held.length === 0) return undefined;
    if (this.givenAhead && !this.ended) throw new WalkOutpaced('it started again from the head of the list, and records it wrote before may follow where it stopped', this.count);
    const ahead = this.held.length > 0 ? this.held.map(this.keyOf) : this.aheadKeys;
    const offset = this.held.length > 0 ? this.next - (this.held.length - 1) : this.started ? this.next : this.start;
    return { offset, taken: this.given.last(POSITION_KEYS), ahead: ahead.slice(0, POSITION_KEYS), digests: this.keyOf === positionKey };
  }

  async *records(): AsyncGenerator<unknown> {
    try {
      yield* this.pages();
    } finally {
      this.ending.abort(new Error('the walk ended'));
    }
  }

  private async *pages(): AsyncGenerator<unknown> {
    const { limit } = this.options;
    for (;;) {
      // The last record read is held back until the next page shows what follows it.
      while (this.held.length > (this.ended ? 0 : 1) && (limit === undefined || this.count < limit)) {
        const record = this.held.shift();
        this.given.add(this.keyOf(record));
        const created = recordCreatedAt(record);
        this.sameInstant = created !== undefined && created === this.lastCreated ? this.sameInstant + 1 : 1;
        this.lastCreated = created;
        this.count++;
        this.lastGiven = { record };
        yield record;
      }
      if (this.ended || (limit !== undefined && this.count >= limit)) return;
      this.plan();
      const page = this.inFlight.shift()!;
      let answer: ListPage;
      try {
        answer = await page.answer;
      } catch (error) {
        if (this.slowDown(error, page)) continue;
        throw error;
      }
      this.take(page, answer);
      // A long walk asks for its next pages before this one is written out: the service never waits
      // for the printer. A walk that usually stops early (a poll) asks only when it needs more.
      if (!this.ended && this.ceiling > 1) this.plan();
    }
  }

  private ask(offset: number, size: number, yields: number): Page {
    this.requests++;
    const answer = this.client.list(this.path, { ...this.filters, limit: size, offset }, this.options.key, this.ending.signal, this.options.headers);
    // A page that is never awaited (the walk ended first) must not be an unhandled rejection.
    answer.catch(() => {});
    return { offset, size, yields, alongside: this.concurrency, answer, missed: false };
  }

  /**
   * Asks for pages until `concurrency` are in flight (one until the first page shows the list is
   * longer), each starting a margin before the last record of the one before, and no more than
   * --limit needs.
   */
  private plan(): void {
    const { limit } = this.options;
    // What is still to read: the records --limit wants beyond those held, and one to hold back.
    const wanted = limit === undefined ? Number.POSITIVE_INFINITY : limit - this.count - this.held.length + 1;
    let coming = this.inFlight.reduce((sum, page) => sum + page.yields, 0);
    // At most half a page back, so that each page brings at least half a page. A page after one still
    // in flight cannot know where the instant that page ends in begins: it starts as early as the
    // widest instant seen; a page after the one read last starts just before it (instantMargin).
    const marginWith = (widest: number) => Math.max(Math.min(Math.max(this.margin, widest - 1), this.pageSize >> 1) + (this.instants ? 1 : 0), this.instantMargin());
    const margin = marginWith(this.widestInstant);
    const afterRead = marginWith(0);
    while (this.inFlight.length < this.concurrency) {
      const previous = this.inFlight.at(-1);
      if (coming >= wanted) return;
      if (previous && this.totalHint !== undefined && previous.offset + previous.size >= this.totalHint) return;
      let offset: number;
      let known: number;
      if (previous) {
        offset = Math.max(0, previous.offset + previous.size - 1 - margin);
        known = previous.offset + previous.size - offset;
      } else if (this.started) {
        offset = Math.max(0, this.next - afterRead);
        // The records before the next one, and the one held back when there is one.
        known = this.next - offset + (this.held.length > 0 ? 1 : 0);
      } else {
        offset = this.start;
        known = 0;
      }
      // The page asked to tell a cap from the end is asked as long as the short page was: one of the
      // short page's size, starting a record before the last one read, could hold only records read.
      const size = Math.min(this.probing ? PAGE_MAX : this.pageSize, known + Math.max(1, wanted - coming));
      this.inFlight.push(this.ask(offset, size, size - known));
      coming += size - known;
    }
  }

  /** A page failed after the core's retries: fewer pages in flight, and this one asked again. */
  private slowDown(error: unknown, page: Page): boolean {
    if (page.alongside <= 1 || !transient(error)) return false;
    this.ceiling = Math.max(1, Math.floor(Math.min(this.concurrency, page.alongside) / 2));
    this.concurrency = this.ceiling;
    this.steady = 0;
    this.inFlight.unshift({ ...this.ask(page.offset, page.size, page.yields), missed: page.missed });
    return true;
  }

  /** Takes what follows on in this page, or searches back when it holds none of the walk's records. */
  private take(page: Page, answer: ListPage): void {
    if (answer.total !== undefined) this.totalHint = answer.total;
    // Short by what the service sent: a page that repeated a record is still a full page.
    const short = answer.items.length < page.size;
    const { items, places } = firstOfEach(answer.items, this.keyOf);
    // Where the record at INDEX of the page (without repeats) was in the list; past its end, after the page.
    const place = (index: number) => page.offset + (places[index] ?? answer.items.length);
    const follows = this.started ? this.continuation(items) : FROM_HEAD;
    // A page from the head that holds none of the walk's records is read as its first page (canStartAgain).
    const restarts = follows === undefined && page.offset === 0 && this.canStartAgain() && items.every((record) => recordId(record) !== undefined);
    const anchor = restarts ? FROM_HEAD : follows;
    if (restarts) {
      this.given.startAgain();
      if (this.count > REMEMBERED) this.lateStarts++;
    }
    // A page asked to tell a cap from the end tells nothing when it starts the walk again.
    const probe = this.probing && !restarts;
    // The page after a short one, asked to tell a cap from the end, that holds none of the walk's
    // records (the list changed much meanwhile): the short page is taken for the end, as without asking.
    if (anchor === undefined && this.probing) {
      this.ended = true;
      return;
    }
    if (anchor) this.noteInstants(items);
    const unordered = anchor && this.sameInstantBefore(page, items, anchor.at);
    if (anchor === undefined || unordered === undefined) return this.searchBack(page, items, short);
    // A page planned before the walk knew how many records of that instant it read: the page that
    // starts far enough back is asked for (a search step back may show them and nothing after).
    if (typeof unordered === 'number') return this.searchBack(page, items, short, unordered);
    const { from } = anchor;
    const first = !this.started;
    const heldBefore = new Set(this.held.map(this.keyOf));
    // A page that starts the walk again does not hold the record held back: it shows no shift.
    if (this.started && !restarts) {
      // How far the list moved back since the record held back was read: the margin of the next pages.
      const shift = this.next - place(from);
      this.margin = Math.min(MAX_MARGIN, Math.max(2 * shift, this.margin - 1, 0));
    }
    this.started = true;
    this.aheadKeys = [];
    const fresh = [...unordered, ...items.slice(from)];
    if (fresh.length > 0) {
      this.held = fresh;
      this.next = place(items.length - 1);
    } else if (short) {
      // The list ends on the last record given out: the one held back has been deleted.
      this.held = [];
    } else {
      // The page ends on the last record given out: the one held back is further on.
      this.next = place(items.length);
    }
    // A short page ends the list, unless the page brought records not read before and the service's
    // total says records follow it, or, without a total, no page yet was as long as asked: a service
    // that gives fewer than asked (a cap below the spec's 50) would otherwise end the walk after its
    // first page. Its size is then the size of the pages asked for (without a total, once the one
    // more page from the last record that tells brings records and is short too), so that the next
    // page starts within the service's page. A total that counts records the list does not give
    // costs one more page, not a failure. A page as long as asked shows the service gives that many:
    // more than a short page before it, and that page was the list's end then, not a cap.
    if (!short) {
      this.sizeShown = true;
      this.pageSize = Math.max(this.pageSize, page.size);
    }
    const brought = fresh.filter((record) => !heldBefore.has(this.keyOf(record))).length;
    const totalSaysMore = answer.total !== undefined && page.offset + answer.items.length < answer.total;
    const mayBeCapped = short && brought > 0 && answer.total === undefined && !this.sizeShown;
    const more = short && brought > 0 && (totalSaysMore || mayBeCapped);
    if (totalSaysMore || mayBeCapped) this.pageSize = Math.max(2, Math.min(this.pageSize, answer.items.length));
    // The page asked to tell, short too, brought records that follow the short page: the service gives
    // fewer than asked, and pages of that size come back whole.
    if (probe && mayBeCapped) this.sizeShown = true;
    this.probing = more && !totalSaysMore && !this.sizeShown;
    this.ended = short && !more;
    // A head page that is not the end by the rule for short pages may be followed by records given before.
    if (restarts && !this.ended) this.givenAhead = true;
    // Pages in flight after a short page that is not the end were planned as if it were whole: past
    // what follows it (past the list's end, under a total that counts too many). Asked again from here.
    if (more) this.inFlight.length = 0;
    if (short || fresh.length > 1) {
      this.fruitless = 0;
      this.searches = 0;
      if (this.ceiling < (this.options.concurrency ?? 1) && ++this.steady >= PAGES_IN_FLIGHT) {
        this.ceiling++;
        this.steady = 0;
      }
      // After the first page a total says how many pages there are to ask for; without one, and after
      // a page that did not follow on, one more each page (a short list is not asked for many pages
      // past its end; a list that moves is followed with fewer pages in flight, which keep up with more).
      this.concurrency = first && this.totalHint !== undefined ? this.ceiling : Math.min(this.ceiling, this.concurrency + 1);
      // Asking whether a short page was the end: that page alone.
      if (this.probing) this.concurrency = 1;
    } else if (++this.fruitless >= FRUITLESS_PAGES) {
      throw new WalkOutpaced(`${this.fruitless} pages in a row brought nothing new (records are created faster than they can be read, or the service ignores offset)`, this.count);
    }
  }

  /**
   * Where the records that follow on begin in this page (from): after the last record given out that
   * it holds, or at the first record held back; `at` is that record's index. The latest such record in
   * the page wins: a newer record that reuses a known id can only be nearer the head. Undefined when
   * the page holds none.
   */
  private continuation(items: readonly unknown[]): { from: number; at: number } | undefined {
    const ahead = new Set(this.held.length > 0 ? this.held.map(this.keyOf) : this.aheadKeys);
    for (let index = items.length - 1; index >= 0; index--) {
      const key = this.keyOf(items[index]);
      if (this.given.has(key)) return { from: index + 1, at: index };
      if (ahead.has(key)) {
        let first = index;
        while (first > 0 && ahead.has(this.keyOf(items[first - 1]))) first--;
        return { from: first, at: first };
      }
    }
    return undefined;
  }

  /**
   * Whether a page from the head that holds none of the walk's records can be read as its first page
   * (when each of its records has an id too: one without is known by its content, which an update
   * changes): nothing comes before it, so nothing is missed there, and none of its records was given
   * out when the walk knows every record it gave: it started at the head (else the page may hold
   * records before its start), not from a position (which names only the last few given), and has
   * forgotten none (it gave RESTARTABLE at most). What it gave or held back and is not in the page was
   * deleted or lies beyond it (a page and more was created at the head): the pages that follow
   * continue from the latest record given that they hold, so the one held back is taken, and those
   * given are known (GivenKeys.startAgain). Past REMEMBERED records given, LATE_STARTS times at most.
   */
  private canStartAgain(): boolean {
    // Complete only for a walk from the head, not from a position (the constructor), that gave RESTARTABLE at most.
    return this.given.complete && (this.count <= REMEMBERED || this.lateStarts < LATE_STARTS);
  }

  /** The record held back was created at the instant the last records given out were: the walk stands among them. */
  private amongSameInstant(): boolean {
    const held = this.held[0];
    return held !== undefined && this.lastCreated !== undefined && recordCreatedAt(held) === this.lastCreated;
  }

  /**
   * Whether records say when they were created, how many of one instant a page lists together
   * (within it, fewer than half a page), and how many end it.
   */
  private noteInstants(items: readonly unknown[]): void {
    let run = 0;
    for (let index = 0; index < items.length; index++) {
      const instant = recordCreatedAt(items[index]);
      if (instant !== undefined) this.instants = true;
      run = instant !== undefined && index > 0 && instant === recordCreatedAt(items[index - 1]) ? run + 1 : 1;
      const next = recordCreatedAt(items[index + 1]);
      // A run that reaches an end of the page may go on beyond it; one of half a page or more is a bulk import's.
      if (index + 1 < items.length && next !== instant && run < index + 1 && run < this.halfPage()) this.widestInstant = Math.max(this.widestInstant, run);
    }
    // A run that fills the page goes on from the page before.
    const last = recordCreatedAt(items.at(-1));
    this.lastInstant = run === items.length && last !== undefined && last === this.lastCreated ? run + this.sameInstant : run;
  }

  /**
   * How far before the last record read the next page starts at least, when that record ends a run
   * of records of one instant: before the first of them (fewer than half a page), or enough of them
   * to see their order (more).
   */
  private instantMargin(): number {
    const run = this.lastInstant;
    if (run <= 1) return 0;
    return Math.min(run < this.halfPage() ? run : this.orderShown() + 1, this.halfPage());
  }

  /**
   * Half the pages the service gives: no page from the walk's margin shows where an instant of more
   * records begins (a service with a cap below 50 gives smaller pages, so the bar is lower).
   */
  private halfPage(): number {
    return this.pageSize >> 1;
  }

  /** Records read before that a page must list again in their order, among such an instant: SAME_ORDER_SHOWN, or fewer when half a page is fewer. */
  private orderShown(): number {
    return Math.min(SAME_ORDER_SHOWN, this.halfPage());
  }

  /**
   * Records created at the instant of the record AT (the one the page follows on from) that the page
   * lists before it, not given out yet: the service ordered that instant's records otherwise for this
   * page. When the page may not show them all (it does not show where that instant's records begin,
   * so that some of them may be listed before the page; or, among more of them than half a page, it
   * lists fewer of those read before than it must): where a page that does would start.
   */
  private sameInstantBefore(page: Page, items: readonly unknown[], at: number): unknown[] | number {
    const instant = at < 0 ? undefined : recordCreatedAt(items[at]);
    // A walk continued from a position (an MCP cursor) knows only the last few records given out
    // before: others of the instant would look unread and be given twice. It trusts the order.
    if (instant === undefined || this.options.from !== undefined) return [];
    // Where the instant begins in the page.
    let start = at;
    while (start > 0 && recordCreatedAt(items[start - 1]) === instant) start--;
    const before = items.slice(start, at);
    const unread = before.filter((record) => !this.given.has(this.keyOf(record)));
    if (start > 0 || page.offset === 0) return unread;
    const long = this.amongSameInstant() && instant === this.lastCreated && this.sameInstant >= this.halfPage();
    // One record before those of the instant read in a row (the one AT may be the last of them).
    if (!long) return page.offset + at - (instant === this.lastCreated ? this.sameInstant : 0) - 1;
    // More of them than half a page (a bulk import): no page may show where they begin. Their order
    // is trusted when the page lists those read before it again in the order they were read, enough
    // of them that a service which shuffles them could hardly do so by chance.
    const order = before.map((record) => this.given.order(this.keyOf(record)));
    const kept = unread.length === 0 && order.every((serial, index) => index === 0 || serial! > order[index - 1]!);
    if (!kept) throw new WalkUnordered(instant, this.count);
    return before.length >= this.orderShown() ? [] : page.offset + at - this.orderShown();
  }

  /**
   * A page that holds none of the walk's records: what it follows on from was pulled earlier (or
   * deleted). A page is asked for half a page before it, so that the two overlap whatever moves
   * meanwhile (or from START); this one is kept, and taken after it if it then follows on.
   */
  private searchBack(page: Page, items: readonly unknown[], short: boolean, start?: number): void {
    // The whole list, and nothing in it: every record has gone; none can be missing.
    if (short && items.length === 0 && page.offset === 0) {
      this.held = [];
      this.ended = true;
      return;
    }
    this.margin = Math.min(MAX_MARGIN, 2 * this.margin + 2);
    this.concurrency = Math.max(1, this.concurrency >> 1);
    // A page kept while the search went further back, still not following on: dropped (the walk
    // asks for the pages it needs from where it stands).
    if (page.missed) return;
    if (page.offset === 0) throw new WalkOutpaced('none of the records it had read are left at the head of the list', this.count);
    // A search that did not reach the head in SEARCH_PAGES looks at the head page: a walk that can
    // start again from there (canStartAgain) loses nothing by it, and it may still hold the walk's records.
    const exhausted = this.searches >= SEARCH_PAGES;
    if (exhausted && !this.canStartAgain()) throw new WalkOutpaced(`none of the records it had read are within ${this.searches} searches before offset ${page.offset}`, this.count);
    this.searches++;
    const step = page.offset - Math.min(SEARCH_STEP, this.pageSize >> 1);
    // A page from START, less the margin of the shifts seen, if that is nearer than a step back.
    const from = exhausted ? 0 : start === undefined ? step : Math.max(step, Math.min(start - this.margin, page.offset - 1));
    this.inFlight.unshift(this.ask(Math.max(0, from), this.pageSize, 0), { ...page, missed: true });
  }
}

/**
 * A page with each record once: the first of those the service repeated in it (the same id, or for a
 * record without one the same key), and where each record kept was in the page. A list holds a
 * record once; a page that repeats one (a join on the service's side) would otherwise give it twice.
 */
function firstOfEach(page: readonly unknown[], keyOf: (record: unknown) => string): { items: unknown[]; places: number[] } {
  const seen = new Set<string>();
  const items: unknown[] = [];
  const places: number[] = [];
  page.forEach((record, index) => {
    const id = recordId(record);
    const key = id === undefined ? keyOf(record) : `id:${id}`;
    if (seen.has(key)) return;
    seen.add(key);
    items.push(record);
    places.push(index);
  });
  return { items, places };
}

/** One page as a list prints it (one page of `list`): each record once, as a walk gives it (see firstOfEach). */
export function distinctRecords(page: readonly unknown[]): unknown[] {
  return firstOfEach(page, recordKey).items;
}

/** Failures that asking again later may cure: the network, the service's own errors, its rate limit. */
function transient(error: unknown): boolean {
  if (!(error instanceof HttpError)) return false;
  if (error.kind === 'network' || error.kind === 'retry_later' || error.kind === 'malformed') return true;
  return error.kind === 'status' && (error.status === 429 || (error.status ?? 0) >= 500);
}

export function walk(client: ApiClient, path: string, query: Query, options: WalkOptions = {}): AsyncGenerator<unknown> {
  return new Walk(client, path, query, options).records();
}

/** Every record of a short list (a workspace's stages, its active sequences), page after page, up to `limit`. */
export async function readList(client: ApiClient, path: string, query: Query, options: { key?: string; limit: number }): Promise<unknown[]> {
  const records: unknown[] = [];
  for await (const record of walk(client, path, query, options)) records.push(record);
  return records;
}
