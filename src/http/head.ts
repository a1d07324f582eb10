// The records new at the head of a newest-first list, for crm watch's polls and crm sync --new: the
// list is walked from its head (./paginate.ts, so a burst of any size is read whole while records
// are deleted) until a run of STOP_RUN records the reader holds already. What a reader holds is
// matched by id and creation time together (a new record given a deleted record's id is another
// record), and no time decides where the new records end: a record with a future created_at,
// servers whose clocks disagree by minutes, or an id handed out again cannot make a later record
// look held, in this read or any later one. A new record listed among held ones (its server's clock
// behind the others') is still found, up to STOP_RUN records down.

import type { ApiClient } from './core.js';
import { recordCreatedAt } from './envelope.js';
import { PAGES_IN_FLIGHT, Walk } from './paginate.js';

/**
 * Held records in a row that end the read. A new record may be listed below some held ones (its
 * server's clock behind the others'): up to this many are read past. Fewer than a page, so that
 * reading a list with nothing new is one request.
 */
const STOP_RUN = 40;
/** Records read one page at a time (a few new ones: 1 request in 48) before several pages are asked for at once. */
const ONE_PAGE_AT_A_TIME = 4 * 49;

/** What the reader holds already. */
export interface HeldRecords {
  /** This record, by its id and created_at, is held. */
  has(record: unknown): boolean;
  /**
   * When the oldest record held was created (ms since the epoch), for a reader that holds only the
   * last few records it met (crm watch): should every one of them have been deleted, there is no run
   * of held records, and the read stops instead at STOP_RUN records in a row created before all it
   * holds (or at the list's end). One record from a clock behind the others cannot end a read so: it
   * would take STOP_RUN of them in a row, with no held record among them. Undefined: every record
   * not held is new (a replica holds every record; none is older than it knows).
   */
  oldestCreated?(): number | undefined;
}

interface HeadOptions {
  /** The list member of the response, e.g. "contacts". */
  key: string;
  held: HeldRecords;
  /** True for a record the reader cannot tell apart (no id): it is passed over, neither new nor held. */
  skip?(record: unknown): boolean;
}

export class NewAtHead implements AsyncIterable<unknown> {
  /** Requests sent so far. */
  requests = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly path: string,
    private readonly options: HeadOptions,
  ) {}

  [Symbol.asyncIterator](): AsyncGenerator<unknown> {
    return this.records();
  }

  /** The new records, newest first as listed, each once. */
  async *records(): AsyncGenerator<unknown> {
    const { held, skip } = this.options;
    const oldest = held.oldestCreated?.();
    /** Records read since the last held or newer one, created before the oldest held. */
    let older: unknown[] = [];
    let run = 0;
    for await (const record of this.walked()) {
      if (skip?.(record)) continue;
      if (held.has(record)) {
        yield* older;
        older = [];
        if (++run >= STOP_RUN) return;
        continue;
      }
      run = 0;
      const created = Date.parse(recordCreatedAt(record) ?? '');
      if (oldest !== undefined && created < oldest) {
        older.push(record);
        if (older.length >= STOP_RUN) return;
      } else {
        yield* older;
        older = [];
        yield record;
      }
    }
  }

  /** The list from its head: one page at a time while few records are new, then several pages in flight from where that walk stood. */
  private async *walked(): AsyncGenerator<unknown> {
    const { key } = this.options;
    const first = new Walk(this.client, this.path, {}, { key });
    let read = 0;
    try {
      for await (const record of first.records()) {
        yield record;
        if (++read === ONE_PAGE_AT_A_TIME) break;
      }
    } finally {
      this.requests += first.requests;
    }
    const position = read === ONE_PAGE_AT_A_TIME ? first.position() : undefined;
    if (!position) return;
    const rest = new Walk(this.client, this.path, {}, { key, concurrency: PAGES_IN_FLIGHT, from: position });
    try {
      yield* rest.records();
    } finally {
      this.requests += rest.requests;
    }
  }
}
