// The walk's rule (src/http/paginate.ts) against a model of a newest-first list that changes while it
// is read (test/helpers/churning-list.ts): records created at the head, some with a deleted record's
// id, and deleted anywhere (before the walk, after it, at the edges of the pages in flight, the
// records just read, every record read at once: an agent completing them), a page and more created
// at once, answered in any order, with and without `total` (one that counts too many or too few),
// and as a bare array.
//
// - At the rate the walk promises to keep up with, every record there for the whole walk is given
//   exactly once and the walk never gives up.
// - At any rate, nothing is given twice, and a walk either gives every such record or fails with
//   WalkOutpaced (or WalkUnordered, where instants are reordered): never an end with a record missing.
// - When every record read is deleted, or a page and more is created at the head at once, and the walk
//   searches back to a head page that holds none of its records (or asks it once 8 searches did not
//   find them), it reads that page as its first: it never gives up there (a list of up to three pages
//   that only shrinks never gives up).
// - A still list costs one request per 48 records after the first 50 (plus, without a total, at most
//   the pages in flight past the end); under change the cost is printed by the full run.
//
// A failing run names its seed; a seed that once failed is kept below as a test of its own.
// `npm run test:reliability` runs twenty times as many seeds; both print the request counts at the end.
import { describe, expect, it } from 'vitest';
import { PAGES_IN_FLIGHT, RESTARTABLE, Walk, WalkOutpaced, WalkUnordered, changesKeptUpWith, type WalkPosition } from '../../src/http/paginate.js';
import { checkRun, churn, listClient, pageAnswer, pageOf, random, type ChurnOptions, type Row } from '../helpers/churning-list.js';
import { recordFigure } from '../helpers/evidence.js';

const FULL = process.env.CRM_RELIABILITY === 'full';
const SEEDS = FULL ? 10_000 : 500;
const SHAPES = ['total', 'no-total', 'bare'] as const;

/**
 * The requests a still list of `size` records costs with a total: 50 records, then 48 a page (each page
 * starts on the last two records of the one before: records that say when they were created), then a
 * short page.
 */
const pagesFor = (size: number) => (size < 50 ? 1 : Math.floor((size - 50) / 48) + 2);

/** A run's settings from its seed: the list's size and shape, whether answers come in any order. */
function settings(seed: number, rate: number, concurrency: number): ChurnOptions {
  return { seed, size: (seed * 37) % 620, rate, exact: true, concurrency, shape: SHAPES[seed % 3]!, shuffle: seed % 2 === 0 };
}

/** Records an instant for a run that deletes every record read now and then: up to 24 for one seed in four. */
const sameInstant = (seed: number) => (seed % 4 === 0 ? 1 + (seed % 24) : undefined);

/**
 * A run that deletes every record read now and then, at the rate the walk keeps up with: a page and
 * more created at the head at once, and totals that count too many or too few.
 */
function churningSettings(seed: number, concurrency: number): ChurnOptions {
  const totalSkew = [0, 3, 60, -4, 500][(seed >> 2) % 5];
  return { ...settings(seed, changesKeptUpWith(concurrency), concurrency), exact: false, size: 50 + ((seed * 37) % 250), completes: 0.2, bursts: seed % 3 === 1 ? 0.1 : undefined, totalSkew, sameInstant: sameInstant(seed) };
}

/** A run beyond the rate the walk keeps up with: 10 to 150 changes a request, 8 pages in flight. */
function beyondSettings(seed: number): ChurnOptions {
  return { ...settings(seed, [10, 25, 60, 150][seed % 4]!, PAGES_IN_FLIGHT), exact: false, size: 200 + (seed % 400) };
}

/** Runs them all, checking each; how many gave up, and their requests against those of still lists. */
async function runAll(runs: ChurnOptions[]): Promise<{ outpaced: number; requests: number; still: number }> {
  let outpaced = 0;
  let requests = 0;
  let still = 0;
  for (const options of runs) {
    const run = await churn(options);
    checkRun(run, options.seed);
    if (run.error) outpaced++;
    requests += run.requests;
    still += pagesFor(run.initial.length);
  }
  return { outpaced, requests, still };
}

describe('the walk against a list that changes while it is read', () => {
  it.each([
    ['pages in flight', PAGES_IN_FLIGHT],
    ['one page at a time', 1],
  ])('at the rate it keeps up with (%s), gives every record there for the whole walk once and never gives up', async (_, concurrency) => {
    const rate = changesKeptUpWith(concurrency);
    expect(rate).toBeGreaterThanOrEqual(concurrency === 1 ? 20 : 3);
    const runs = Array.from({ length: SEEDS }, (__, index) => settings(index + 1, rate, concurrency));
    const { outpaced, requests, still } = await runAll(runs);
    expect(outpaced).toBe(0);
    recordFigure(`walk runs (${concurrency} in flight)`, runs.length);
    recordFigure(`walk requests (${concurrency} in flight)`, requests);
    recordFigure(`walk requests of still lists (${concurrency} in flight)`, still);
  }, FULL ? 900_000 : 120_000);

  it('beyond that rate gives every such record or fails with WalkOutpaced: never a silent gap', async () => {
    const runs: ChurnOptions[] = [];
    for (let seed = 1; seed <= SEEDS / 2; seed++) runs.push(beyondSettings(seed));
    const { outpaced } = await runAll(runs);
    // Some of these runs cannot be kept up with: the check above saw them fail loudly (21 of the full
    // run's 5,000 since a walk past 400 records may start again from the head, 33 before; the first
    // 250 may hold none).
    if (FULL) expect(outpaced).toBeGreaterThan(0);
    recordFigure('walk runs beyond the rate', runs.length);
    recordFigure('walk runs beyond the rate that gave up', outpaced);
  }, FULL ? 900_000 : 120_000);

  it('gives up loudly, with what it wrote, when the head grows faster than a page a request', async () => {
    const run = await churn({ seed: 7, size: 400, rate: 60, exact: true, growOnly: true, concurrency: PAGES_IN_FLIGHT, shape: 'total', shuffle: false });
    checkRun(run, 7);
    expect(run.error).toBeInstanceOf(WalkOutpaced);
    expect((run.error as Error).message).toMatch(/^the list changed faster than crm could walk it: .*; \d+ records were written, others may be missing$/);
  });

  it('costs one request per 48 records after the first 50 when nothing changes (and at most the pages in flight more without a total)', async () => {
    for (const size of [0, 1, 2, 49, 50, 51, 99, 100, 148, 149, 500, 3000]) {
      for (const shape of SHAPES) {
        const run = await churn({ seed: size, size, rate: 0, concurrency: PAGES_IN_FLIGHT, shape, shuffle: true });
        checkRun(run, size);
        expect(run.given).toEqual(run.initial);
        if (shape === 'total') expect(run.requests, `${size} records`).toBe(pagesFor(size));
        else expect(run.requests, `${size} records, ${shape}`).toBeLessThanOrEqual(pagesFor(size) + PAGES_IN_FLIGHT - 1);
      }
    }
  });

  // The head page holding none of the walk's records once an agent had completed (deleted) every record
  // read failed the walk with WalkOutpaced though nothing would have been lost when it was full or a
  // total counted more records than the list held: of the full run's 5,000 shrinking lists, 262 gave
  // up with 8 in flight and 191 one page at a time; of the churning ones, 2,283 and 2,386 (then 389
  // and 245 while a search back that did not reach the head gave up; then 95 and 89 while a walk that
  // gave out more than 400 could not start again; now 2 and 13, for the reasons below).
  it.each([
    ['pages in flight', PAGES_IN_FLIGHT],
    ['one page at a time', 1],
  ])('while an agent deletes every record read now and then (%s), gives every record there for the whole walk once; never gives up on a list of up to three pages that only shrinks', async (_, concurrency) => {
    const rate = changesKeptUpWith(concurrency);
    const shrinking: ChurnOptions[] = [];
    const churning: ChurnOptions[] = [];
    for (let seed = 1; seed <= SEEDS / 2; seed++) {
      // Short head pages and full ones (more than a page left once those read are gone).
      shrinking.push({ ...settings(seed, rate, concurrency), exact: false, size: 50 + ((seed * 37) % 100), deleteOnly: true, completes: 0.2, sameInstant: sameInstant(seed) });
      churning.push(churningSettings(seed, concurrency));
    }
    expect((await runAll(shrinking)).outpaced).toBe(0);
    // These may still give up loudly (checked above: nothing twice, nothing missing): in the full run
    // a few with WalkUnordered (a total that counts too many), and one page at a time 10 walks past
    // 400 records that had started again from the head 16 times since (their pages were of 2 to 11
    // records: a total that counted too many made a short page look like a service's cap).
    const { outpaced } = await runAll(churning);
    recordFigure('walk runs with records read deleted', shrinking.length + churning.length);
    recordFigure('walk runs with records read deleted that gave up', outpaced);
  }, FULL ? 900_000 : 120_000);

  it('continued from where it stood after the records it gave were all deleted (an agent completing each page), gives the rest once', async () => {
    for (let seed = 1; seed <= 60; seed++) {
      const limit = 20 + (seed % 5) * 20;
      const shape = SHAPES[seed % 3]!;
      const first = await churn({ seed, size: 300, rate: 2, concurrency: 1, shape, shuffle: false, limit, resumable: true });
      checkRun(first, seed);
      expect(first.given).toHaveLength(limit);
      const given = new Set(first.given);
      const rest = await churn({
        seed: seed + 1000,
        size: 0,
        rate: 2,
        concurrency: 1,
        shape,
        shuffle: false,
        list: first.list,
        from: first.walk.position(),
        before: (list) => list.splice(0, list.length, ...list.filter((row) => !given.has(`${row.id}\u0000${row.created_at}`))),
      });
      expect(rest.error, `seed ${seed}`).toBeUndefined();
      // Together the two walks give every record there from the start of the first to the end of the second, once.
      const both = [...first.given, ...rest.given];
      expect(both.filter((key, index) => both.indexOf(key) !== index), `seed ${seed}: given twice`).toEqual([]);
      const owed = first.initial.filter((key) => first.survivors.has(key) && (given.has(key) || rest.survivors.has(key)));
      expect(owed.filter((key) => !both.includes(key)), `seed ${seed}: not given`).toEqual([]);
    }
  });
});

describe('records created at the same instant, listed in another order by each answer (a database sorting by created_at alone)', () => {
  // Without the rule for them, a record whose instant straddled a page's first record was listed before
  // it by the next answer, and was never given: exit 0 with a record missing.
  it.each([
    ['pages in flight', PAGES_IN_FLIGHT],
    ['one page at a time', 1],
  ])('gives every record there for the whole walk once, up to 24 records an instant (%s), while the list changes', async (_, concurrency) => {
    for (let seed = 1; seed <= SEEDS / 5; seed++) {
      const rate = seed % 3 === 0 ? 0 : changesKeptUpWith(concurrency);
      const run = await churn({ ...settings(seed, rate, concurrency), size: 60 + ((seed * 37) % 400), sameInstant: 1 + (seed % 24) });
      checkRun(run, seed);
      expect(run.error, `seed ${seed}`).toBeUndefined();
    }
  }, 120_000);

  it('a still list of 7 records an instant costs a request per 42 records after the first 50: each page starts 6 records earlier, where an instant may begin', async () => {
    for (const size of [51, 149, 500, 3000]) {
      for (const concurrency of [1, PAGES_IN_FLIGHT]) {
        const run = await churn({ seed: size, size: 0, rate: 0, concurrency, shape: 'total', shuffle: true, list: sameInstantRows(size, 7) });
        expect(run.given).toEqual(run.initial);
        expect(run.requests, `${size} records`).toBe(1 + Math.ceil((size - 50) / 42));
      }
    }
  });

  // Requests of a still list of 3,000 (a total, an order the service keeps) by records an instant, one
  // page at a time and pages in flight. An instant of fewer than half a page is taken only from a page
  // that shows it whole, a record of another instant on each side: 5 an instant, 9 instants a page at
  // best; 25 to 48, one a page (27 to 50 records), so 25 and 30 cost as many requests as instants,
  // whatever the walk does. One page at a time starts each page where the instant its last page ended
  // in begins; pages in flight do not know that yet, and start as early as the widest instant seen.
  it.each([
    [1, 63, 63],
    [5, 67, 69],
    [10, 75, 77],
    [25, 120, 120],
    [30, 100, 100],
    [50, 80, 99],
    [100, 75, 75],
    [3000, 75, 75],
  ])('a still list of 3,000 records, %i an instant, costs %i requests one page at a time, %i with pages in flight', async (each, alone, inFlight) => {
    for (const [concurrency, requests] of [
      [1, alone],
      [PAGES_IN_FLIGHT, inFlight],
    ] as const) {
      const run = await churn({ seed: each, size: 0, rate: 0, concurrency, shape: 'total', shuffle: true, list: sameInstantRows(3000, each) });
      expect(run.given).toEqual(run.initial);
      expect(run.requests, `${concurrency} in flight`).toBe(requests);
    }
  });

  it('one page at a time starts each page just before the instant the last one ended in, not as early as the widest instant seen', async () => {
    // Instants of 20 to 40 records: the widest seen within a page is 24, and pages that started 25
    // records early brought 24 new ones.
    const run = await churn({ seed: 3, size: 0, rate: 0, concurrency: 1, shape: 'total', shuffle: true, list: jitteredInstantRows(3000, 20, 40, 3) });
    expect(run.given).toEqual(run.initial);
    expect(run.requests).toBeLessThanOrEqual(90);
  });

  it('trusts the order of more records of one instant than half a page while it holds, and fails with WalkUnordered once it does not', async () => {
    const rows = sameInstantRows(300, 300);
    const stable = await churn({ seed: 1, size: 0, rate: 0, concurrency: PAGES_IN_FLIGHT, shape: 'total', shuffle: true, list: rows });
    expect(stable.error).toBeUndefined();
    expect(stable.given).toEqual(stable.initial);
    // Each page starts 9 records before the next one: 8 read before, to see they keep their order.
    expect(stable.requests).toBe(1 + Math.ceil((300 - 50) / 40));
    for (let seed = 1; seed <= 20; seed++) {
      const run = await churn({ seed, size: 0, rate: 0, concurrency: seed % 2 ? 1 : PAGES_IN_FLIGHT, shape: 'total', shuffle: true, list: rows, sameInstant: 1 });
      const twice = run.given.filter((key, index) => run.given.indexOf(key) !== index);
      expect(twice, `seed ${seed}: given twice`).toEqual([]);
      expect(run.error, `seed ${seed}`).toBeInstanceOf(WalkUnordered);
      expect((run.error as Error).message).toMatch(/^the service lists the records created at \S+ in a different order from one page to the next, .*; \d+ records were written, others may be missing$/);
    }
  });
});

describe('continued from where another walk stood (an MCP cursor), among records of one instant', () => {
  // The walk continued knows only the last 3 records given out before: the others of the instant
  // looked unread (given twice), or out of order (WalkUnordered).
  it.each([[5], [300]])('instants of %i records: gives the rest once, with no error', async (each) => {
    for (const limit of [20, 47, 60, 130]) {
      const first = await churn({ seed: limit, size: 0, rate: 0, concurrency: 1, shape: 'total', shuffle: false, list: sameInstantRows(300, each), limit, resumable: true });
      const rest = await churn({ seed: limit + 1, size: 0, rate: 0, concurrency: 1, shape: 'total', shuffle: false, list: first.list, from: first.walk.position() });
      expect(rest.error, `--limit ${limit}`).toBeUndefined();
      expect([...first.given, ...rest.given], `--limit ${limit}`).toEqual(first.initial);
    }
  });
});

describe('pages in flight from a service that gives fewer than 50 a page, among records of one instant in an order it keeps', () => {
  // Pages planned before the walk knew how many records of an instant it had read started too late
  // to show where it begins, or too few of it read before; a search half a page back ended on the
  // record held back, bringing nothing: 8 searches, then walk_outpaced (exit 1) from a still list.
  it.each([
    [137, 11, 10],
    [137, 26, 20],
    [137, 49, 20],
    [3000, 51, 20],
  ])('%i records, %i an instant, pages of %i: every record once, in list order', async (size, each, cap) => {
    const list = sameInstantRows(size, each);
    const client = listClient(async (request) => {
      const contacts = pageOf(list, request, cap);
      return pageAnswer({ contacts, total: list.length });
    });
    const given: string[] = [];
    for await (const record of new Walk(client, '/contacts', {}, { key: 'contacts', concurrency: PAGES_IN_FLIGHT })) given.push((record as Row).id);
    expect(given).toEqual(list.map((record) => record.id));
  });
});

describe('a total that counts more records than the list holds (a still list)', () => {
  // The short last page, which that total says is not the end, was followed by pages in flight planned
  // as if it were whole: past the list's end, holding nothing, each searched back from half a page at
  // a time of the short page's size, and the walk gave up (walk_outpaced, exit 1): 99 records and a
  // total of 159, 8 in flight. (A list of exactly 2 records still does: see docs/api-assumptions.md.)
  it.each([1, 60, 500])('%i more: every record once, in list order, with 1 or 8 in flight', async (overcount) => {
    for (const size of [0, 1, 3, 49, 50, 51, 57, 99, 105, 150, 393]) {
      for (const concurrency of [1, PAGES_IN_FLIGHT]) {
        const list = sameInstantRows(size, 1);
        const client = listClient(async (request) => {
          const contacts = pageOf(list, request);
          return pageAnswer({ contacts, total: size + overcount });
        });
        const given: string[] = [];
        for await (const record of new Walk(client, '/contacts', {}, { key: 'contacts', concurrency })) given.push((record as Row).id);
        expect(given, `${size} records, ${concurrency} in flight`).toEqual(list.map((record) => record.id));
      }
    }
  });
});

describe('a page from the head that holds none of the walk\'s records (every one it read was deleted, or a page and more was created at the head)', () => {
  /**
   * Walks LIST (answers with a total when TOTAL says so, counting OVERCOUNT records more than the list
   * holds), running CHANGE on the list, the ids of the records served so far and those given before
   * each answer after the first: the ids given out, and how it ended.
   */
  async function walkWhile(
    list: Row[],
    change: (list: Row[], served: readonly string[], given: readonly string[]) => void,
    options: { concurrency: number; total: boolean; overcount?: number; offset?: number; limit?: number; resumable?: boolean; from?: WalkPosition },
  ) {
    const served: string[] = [];
    const given: string[] = [];
    let answers = 0;
    const client = listClient(async (request) => {
      if (answers++ > 0) change(list, served, given);
      const contacts = pageOf(list, request);
      served.push(...contacts.map((record) => record.id));
      return pageAnswer(options.total ? { contacts, total: list.length + (options.overcount ?? 0) } : { contacts });
    });
    let error: unknown;
    const { concurrency, limit, resumable, from } = options;
    const walk = new Walk(client, '/contacts', options.offset === undefined ? {} : { offset: options.offset }, { key: 'contacts', concurrency, limit, resumable, from });
    try {
      for await (const record of walk) given.push((record as Row).id);
    } catch (caught) {
      error = caught;
    }
    return { given, error, walk };
  }
  const without = (list: Row[], ids: Iterable<string>) => {
    const gone = new Set(ids);
    list.splice(0, list.length, ...list.filter((record) => !gone.has(record.id)));
  };
  const ids = (rows: readonly Row[]) => rows.map((record) => record.id);
  /** COUNT records created at the head of LIST, after every record in it: their ids, newest first. */
  const createAtHead = (list: Row[], count: number): string[] => {
    const rows = Array.from({ length: count }, (_, index) => ({ id: `new${index + 1}`, created_at: new Date(Date.UTC(2025, 0, 1) + index * 1000).toISOString(), n: 100_000 + index })).reverse();
    list.unshift(...rows);
    return ids(rows);
  };
  const twice = (given: readonly string[]) => given.filter((id, index) => given.indexOf(id) !== index);
  const SETTINGS = [
    [1, true],
    [1, false],
    [PAGES_IN_FLIGHT, true],
    [PAGES_IN_FLIGHT, false],
  ] as const;

  // Both failed with WalkOutpaced ("none of the records it had read are left at the head of the list"),
  // exit 1, though nothing would have been lost: the rule took the head page only when it was short
  // (the whole list) and no total said more followed.
  const HEAD_PAGES = [
    [80, 'short (the whole list)'],
    [150, 'full (more than a page left)'],
  ] as const;
  it.each(HEAD_PAGES.flatMap(([size, shape]) => SETTINGS.map(([concurrency, total]) => [shape, concurrency, total, size] as const)))(
    '%s, %i in flight, total %s: it is read as the first page; every record left is given once, after those given before, and the walk ends',
    async (_shape, concurrency, total, size) => {
      const list = sameInstantRows(size, 1);
      const initial = ids(list);
      // Before the second answer, the 50 records of the first page go (those given out and the one held back).
      const run = await walkWhile(list, (rows, served) => without(rows, served.slice(0, 50)), { concurrency, total });
      expect(run.error).toBeUndefined();
      // The first page's 49 (its 50th held back, then deleted), then the records never read.
      expect(run.given).toEqual([...initial.slice(0, 49), ...initial.slice(50)]);
    },
  );

  it.each(SETTINGS)('full of records created meanwhile (60 at the head, every record read deleted), %i in flight, total %s: each record once, the new ones too', async (concurrency, total) => {
    const list = sameInstantRows(80, 1);
    const initial = ids(list);
    let created: string[] = [];
    const run = await walkWhile(
      list,
      (rows, served) => {
        if (created.length === 0) created = createAtHead(rows, 60);
        without(rows, served.slice(0, 50));
      },
      { concurrency, total },
    );
    expect(run.error).toBeUndefined();
    expect(run.given).toEqual([...initial.slice(0, 49), ...created, ...initial.slice(50)]);
  });

  // With 500, more than it remembered (REMEMBERED), the records it gave before it started again from
  // the head were pushed out of its memory before it met them again further on: it gave those 49 twice.
  it.each(SETTINGS.flatMap(([concurrency, total]) => [200, 500].map((count) => [count, concurrency, total] as const)))(
    'full of records created meanwhile (%i at the head, none deleted), %i in flight, total %s: the records given before are known again further on, and the one held back is given after them',
    async (count, concurrency, total) => {
      const list = sameInstantRows(150, 1);
      const initial = ids(list);
      let created: string[] = [];
      const run = await walkWhile(
        list,
        (rows) => {
          if (created.length === 0) created = createAtHead(rows, count);
        },
        { concurrency, total },
      );
      expect(run.error).toBeUndefined();
      expect(twice(run.given), 'given twice').toEqual([]);
      // The first page but the one held back, new records, then the rest from the one held back on. A
      // page that holds records given first continues after them: the new records just before them
      // may be skipped (records created during the walk may or may not be given).
      const news = run.given.slice(49, run.given.length - 101);
      expect(news.length).toBeGreaterThanOrEqual(count - 50);
      expect(run.given).toEqual([...initial.slice(0, 49), ...created.slice(0, news.length), ...initial.slice(49)]);
    },
  );

  it('full, for a walk whose position is kept (an MCP cursor): it stops at its limit, but where it stands fails with WalkOutpaced, since a walk continued from there would give the records before the head page again', async () => {
    // 200 records created at the head before the second answer: the walk starts again from the head
    // page (none of its records), gives 51 new records and stops at its limit of 100, with the 49 it
    // gave first further on. A position names only the last 3 given: a walk continued from it gave
    // those 49 again.
    const list = sameInstantRows(150, 1);
    const initial = ids(list);
    let answers = 0;
    const client = listClient(async (request) => {
      if (answers++ === 1) createAtHead(list, 200);
      const contacts = pageOf(list, request);
      return pageAnswer({ contacts, total: list.length });
    });
    const walk = new Walk(client, '/contacts', {}, { key: 'contacts', limit: 100, resumable: true });
    const given: string[] = [];
    for await (const record of walk) given.push((record as Row).id);
    expect(given.slice(0, 49)).toEqual(initial.slice(0, 49));
    expect(given).toHaveLength(100);
    expect(() => walk.position()).toThrow(WalkOutpaced);
  });

  it.each([
    [80, 1, 7],
    [80, PAGES_IN_FLIGHT, 7],
    [80, 1, 500],
    [80, PAGES_IN_FLIGHT, 500],
    [150, 1, 7],
    [150, PAGES_IN_FLIGHT, 7],
    [150, 1, 500],
    [150, PAGES_IN_FLIGHT, 500],
  ])('%i records, with a total that counts more records than the list holds, %i in flight, %i more: every record left once, and the walk ends', async (size, concurrency, overcount) => {
    const list = sameInstantRows(size, 1);
    const initial = ids(list);
    const run = await walkWhile(list, (rows, served) => without(rows, served.slice(0, 50)), { concurrency, total: true, overcount });
    expect(run.error).toBeUndefined();
    expect(run.given).toEqual([...initial.slice(0, 49), ...initial.slice(50)]);
  });

  it('asked to tell a cap from the end (a short first page, no total), it is read as the first page, not taken for a cap', async () => {
    // Were it taken as the page that tells (short too, bringing records), the walk would ask pages of
    // 2, each holding only records read: 10 such pages, then WalkOutpaced.
    const list = sameInstantRows(2, 1);
    let created: string[] = [];
    const run = await walkWhile(
      list,
      (rows) => {
        if (created.length > 0) return;
        without(rows, ids(rows));
        created = createAtHead(rows, 2);
      },
      { concurrency: 1, total: false },
    );
    expect(run.error).toBeUndefined();
    expect(run.given).toEqual(['t2', ...created]);
  });

  /**
   * An agent completes each page's records but the first 20; once the walk has given out GIVEN, every
   * record but those 20 and the last LASTKEPT goes: the head page holds the 20 given first.
   */
  async function keptFirstTwenty(given: number, lastKept: number) {
    const list = sameInstantRows(given + 170, 1);
    const initial = ids(list);
    const kept = new Set(initial.slice(0, 20));
    const last = initial.slice(-lastKept);
    let head: string[] = [];
    const run = await walkWhile(
      list,
      (rows, _served, givenSoFar) => {
        if (givenSoFar.length >= given && head.length === 0) {
          without(rows, initial.filter((id) => !kept.has(id) && !last.includes(id)));
          head = ids(rows.slice(0, 50));
        } else without(rows, givenSoFar.filter((id) => !kept.has(id)));
      },
      { concurrency: 1, total: true },
    );
    expect(head.slice(0, 20)).toEqual([...kept]);
    expect(run.given.slice(0, 20)).toEqual([...kept]);
    expect(twice(run.given), 'given twice').toEqual([]);
    return { ...run, initial, last };
  }

  // It failed with WalkOutpaced (exit 1): past 400 records given, the walk kept only the last 400 keys
  // (REMEMBERED), did not know the 20 at the head, and could not start again.
  it.each([
    ['short', 10],
    ['full', 60],
  ])('%s, after a walk that gave out 430 records: it knows the 20 given first, and gives every record left after them once', async (_, lastKept) => {
    const run = await keptFirstTwenty(430, lastKept);
    expect(run.error).toBeUndefined();
    expect(run.given).toEqual([...run.initial.slice(0, run.given.length - lastKept), ...run.last]);
  });

  it.each([
    ['short', 10],
    ['full', 60],
  ])(`%s, after a walk that gave out more records than it keeps to start again (${RESTARTABLE}): fails with WalkOutpaced, since the page holds records given first`, async (_, lastKept) => {
    // The first 20 forgotten, the head page holds them: started again from there, it would give them
    // twice (as it did when a walk started again whatever it had forgotten). It stops instead, having
    // given only records in list order.
    const run = await keptFirstTwenty(RESTARTABLE + 30, lastKept);
    expect(run.error).toBeInstanceOf(WalkOutpaced);
    expect(run.given.length).toBeGreaterThan(RESTARTABLE);
    expect(run.given).toEqual(run.initial.slice(0, run.given.length));
  });

  it.each([
    ['short', 90],
    ['full', 150],
  ])('%s, for a walk that started past the head (an offset): fails with WalkOutpaced rather than give the records before its start', async (_, size) => {
    const list = sameInstantRows(size, 1);
    const initial = ids(list);
    const beforeStart = initial.slice(0, 10);
    // Every record read from its start is deleted: the 10 before it stay at the head.
    const run = await walkWhile(list, (rows, served) => without(rows, served.filter((id) => !beforeStart.includes(id))), { concurrency: 1, total: true, offset: 10 });
    expect(run.given).toEqual(initial.slice(10, 59));
    expect(ids(list).slice(0, 10)).toEqual(beforeStart);
    expect(run.error).toBeInstanceOf(WalkOutpaced);
  });

  it('full, for a walk continued from a position (an MCP cursor): fails with WalkOutpaced, since the page holds records the walk before it gave', async () => {
    // The first walk gives 100 records; the second knows only the last 3 of them. Before it, an agent
    // deletes the last 50 given and the next 100: none it knows is left, and the head page holds 50
    // records the first walk gave, which it cannot tell from new ones.
    const first = await churn({ seed: 1, size: 300, rate: 0, concurrency: 1, shape: 'total', shuffle: false, limit: 100, resumable: true });
    expect(first.given).toHaveLength(100);
    const gone = new Set([...first.given.slice(50), ...first.initial.slice(100, 200)]);
    const rest = await churn({
      seed: 2,
      size: 0,
      rate: 0,
      concurrency: 1,
      shape: 'total',
      shuffle: false,
      list: first.list,
      from: first.walk.position(),
      before: (rows) => rows.splice(0, rows.length, ...rows.filter((row) => !gone.has(`${row.id}\u0000${row.created_at}`))),
    });
    expect(rest.initial.slice(0, 50)).toEqual(first.given.slice(0, 50));
    expect(rest.given.filter((key) => first.given.includes(key)), 'given twice').toEqual([]);
    expect(rest.error).toBeInstanceOf(WalkOutpaced);
  });

  it('full, of records without an id (known by their content): fails with WalkOutpaced, since the records given, updated, look new', async () => {
    // 80 records without an id; before the second answer every one is updated (its score changes):
    // the walk knows none of them, and the head page holds the 49 it gave, which it would give twice.
    let list = sameInstantRows(80, 1).map(({ id, created_at }) => ({ name: id, created_at, score: 0 }));
    let answers = 0;
    const client = listClient(async (request) => {
      if (answers++ === 1) list = list.map((record) => ({ ...record, score: 1 }));
      const contacts = pageOf(list, request);
      return pageAnswer({ contacts, total: list.length });
    });
    const given: string[] = [];
    let error: unknown;
    try {
      for await (const record of new Walk(client, '/contacts', {}, { key: 'contacts', concurrency: 1 })) given.push((record as { name: string }).name);
    } catch (caught) {
      error = caught;
    }
    expect(given).toEqual(list.slice(0, 49).map((record) => record.name));
    expect(error).toBeInstanceOf(WalkOutpaced);
  });

  describe('every record read deleted deep in a long list: the search back (8 half pages) cannot reach the head', () => {
    /** LIST, walked while, once AFTER records were answered, every record answered so far but KEEP goes: the walk, and the ids left then. */
    async function completingDeep(list: Row[], after: number, options: Parameters<typeof walkWhile>[2], keep: readonly string[] = []) {
      let left: string[] = [];
      const run = await walkWhile(
        list,
        (rows, served) => {
          if (new Set(served).size < after || left.length > 0) return;
          without(rows, served.filter((id) => !keep.includes(id)));
          left = ids(rows);
        },
        options,
      );
      expect(left.length).toBeGreaterThan(0);
      return { ...run, left };
    }

    // From 300 records in, the 8 searches looked back to offset 100 at best, all at records not read
    // yet, and the walk failed with WalkOutpaced (exit 1) though the head page could start it again;
    // from 2,000 in it still failed: it had given more records than the 400 it kept the keys of then,
    // and could not start again.
    it.each(SETTINGS.flatMap(([concurrency, total]) => [300, 2000].map((deep) => [deep, concurrency, total] as const)))('%i records in, %i in flight, total %s: it asks the head page, reads it as its first page, and gives every record left once', async (deep, concurrency, total) => {
      const list = sameInstantRows(deep + 700, 1);
      const initial = ids(list);
      const run = await completingDeep(list, deep, { concurrency, total });
      expect(run.error).toBeUndefined();
      const before = run.given.length - run.left.length;
      expect(before).toBeGreaterThanOrEqual(deep);
      expect(run.given).toEqual([...initial.slice(0, before), ...run.left]);
    });

    // The negatives fail before and after: each says what asking the head page and starting again from
    // it would have done.
    it('for a walk that started at an offset: fails with WalkOutpaced, since the head page holds the records before its start', async () => {
      const list = sameInstantRows(1000, 1);
      const initial = ids(list);
      const run = await completingDeep(list, 300, { concurrency: PAGES_IN_FLIGHT, total: true, offset: 10 });
      expect(run.left.slice(0, 10)).toEqual(initial.slice(0, 10));
      expect(run.given).toEqual(initial.slice(10, 10 + run.given.length));
      expect(run.error).toBeInstanceOf(WalkOutpaced);
    });

    it(`for a walk that gave out more records than it keeps to start again (${RESTARTABLE}): fails with WalkOutpaced, since the head page holds the 20 given first`, async () => {
      const list = sameInstantRows(RESTARTABLE + 800, 1);
      const initial = ids(list);
      const run = await completingDeep(list, RESTARTABLE + 50, { concurrency: 1, total: true }, initial.slice(0, 20));
      expect(run.left.slice(0, 20)).toEqual(initial.slice(0, 20));
      expect(twice(run.given), 'given twice').toEqual([]);
      expect(run.given).toEqual(initial.slice(0, run.given.length));
      expect(run.error).toBeInstanceOf(WalkOutpaced);
    });

    it('for a walk continued from a position (an MCP cursor): fails with WalkOutpaced, since the head page holds records the walk before it gave', async () => {
      // The first walk gives 50; the position names its last 3. The first 40 stay: the walk continued
      // knows none of them.
      const list = sameInstantRows(1000, 1);
      const initial = ids(list);
      const first = await walkWhile(list, () => {}, { concurrency: 1, total: true, limit: 50, resumable: true });
      expect(first.given).toEqual(initial.slice(0, 50));
      const rest = await completingDeep(list, 300, { concurrency: PAGES_IN_FLIGHT, total: true, from: first.walk.position() }, initial.slice(0, 40));
      expect(rest.left.filter((id) => first.given.includes(id))).toEqual(initial.slice(0, 40));
      expect(rest.given).toEqual(initial.slice(50, 50 + rest.given.length));
      expect(rest.error).toBeInstanceOf(WalkOutpaced);
    });

    it('of records without an id, every one updated: fails with WalkOutpaced, since those given look new at the head', async () => {
      let list = sameInstantRows(1000, 1).map(({ id, created_at }) => ({ name: id, created_at, score: 0 }));
      const names = list.map((record) => record.name);
      let given = 0;
      const client = listClient(async (request) => {
        if (given >= 300 && list[0]!.score === 0) list = list.map((record) => ({ ...record, score: 1 }));
        const contacts = pageOf(list, request);
        return pageAnswer({ contacts, total: list.length });
      });
      const walked: string[] = [];
      let error: unknown;
      try {
        for await (const record of new Walk(client, '/contacts', {}, { key: 'contacts', concurrency: 1 })) given = walked.push((record as { name: string }).name);
      } catch (caught) {
        error = caught;
      }
      expect(walked.length).toBeGreaterThanOrEqual(300);
      expect(walked).toEqual(names.slice(0, walked.length));
      expect(error).toBeInstanceOf(WalkOutpaced);
      expect((error as Error).message).toContain('none of the records it had read are left at the head of the list');
    });
  });
});

/** SIZE records, newest first, created EACH at one instant (the last instant may hold fewer). */
function sameInstantRows(size: number, each: number): Row[] {
  return Array.from({ length: size }, (_, index) => ({ id: `t${size - index}`, created_at: new Date(Date.UTC(2024, 0, 1) + Math.floor((size - index) / each) * 1000).toISOString(), n: size - index }));
}

/** SIZE records, newest first, in instants of FEWEST to MOST records (drawn from SEED). */
function jitteredInstantRows(size: number, fewest: number, most: number, seed: number): Row[] {
  const draw = random(seed);
  const rows: Row[] = [];
  for (let n = 1, instant = 0, left = 0; n <= size; n++, left--) {
    if (left === 0) {
      instant++;
      left = fewest + Math.floor(draw() * (most - fewest + 1));
    }
    rows.unshift({ id: `t${n}`, created_at: new Date(Date.UTC(2024, 0, 1) + instant * 1000).toISOString(), n });
  }
  return rows;
}

describe('seeds that once failed', () => {
  // A list of 0 to 3 records without a total: its short first page was taken for a cap of 2, and the
  // page asked to tell, of 2 records from one before the last read, came back whole: pages of 2, which
  // bring nothing new, and the walk gave up (a still list of 2 records too).
  it.each([
    [6686, PAGES_IN_FLIGHT],
    [8060, PAGES_IN_FLIGHT],
    [5999, 1],
  ])('seed %i: at the rate it keeps up with, %i in flight, a list of a few records without a total', async (seed, concurrency) => {
    const run = await churn(settings(seed, changesKeptUpWith(concurrency), concurrency));
    checkRun(run, seed);
    expect(run.error).toBeUndefined();
  });

  // Walks that follow a head growing faster than they read start again from it over and over, giving
  // new records. Once a walk could start again up to 10,000 records, and as often as it met a head
  // page without its records: with pages shrunk to a few records (a total counting 3 to 500 too many
  // made a short page look like a service's cap), one page at a time, 7 of the full run's 5,000
  // churning runs did not end within 5,000 requests and one took 4,246; with 150 changes a request
  // and 8 in flight, runs took up to 1,409 requests to stop at 10,000 records. Past 400 records a walk
  // starts again 16 times at most.
  it.each<[number, string, ChurnOptions]>([
    ...[918, 1965, 2286, 2850, 2928, 3399, 3489, 4338].map((seed): [number, string, ChurnOptions] => [seed, 'pages of a few records, records read deleted now and then, one page at a time', churningSettings(seed, 1)]),
    ...[851, 1431, 4899].map((seed): [number, string, ChurnOptions] => [seed, '150 changes a request, 8 in flight', beyondSettings(seed)]),
  ])('seed %i (%s): stops within 600 requests', async (seed, _, options) => {
    const run = await churn(options);
    checkRun(run, seed);
    expect(run.requests).toBeLessThanOrEqual(600);
  });

  // The first design's probe ended where the page it searched back from began: after a shift of one
  // record the two could not be joined, and a walk at one change a request gave up.
  it.each([2, 89, 119, 242, 256, 270])('seed %i: one change a request, six pages in flight, lists of 100-600', async (seed) => {
    const run = await churn({ seed, size: 100 + ((seed * 37) % 500), rate: 1, concurrency: 6, shape: SHAPES[seed % 3]!, shuffle: seed % 2 === 0 });
    checkRun(run, seed);
    expect(run.error).toBeUndefined();
  });
});
