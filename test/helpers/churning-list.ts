// A model of a newest-first list that other clients change while crm walks it: records are created at
// the head (some with the id of a deleted record and a later created_at) and deleted anywhere, chosen
// to hurt (the edges of the pages asked for, the records just read, the head; now and then every
// record read, or a page and more created at once) or at random, with a total that may miscount. It answers the walk's requests through the real HTTP core, in the order
// it chooses (several pages may be in flight), applying up to `rate` changes before each answer.
// Seeded: a seed is a run.
import { expect } from 'vitest';
import { ApiClient } from '../../src/http/core.js';
import { Walk, WalkOutpaced, WalkUnordered, recordKey, type WalkOptions } from '../../src/http/paginate.js';
import type { TransportRequest, TransportResponse } from '../../src/transport/types.js';

export interface ChurnOptions {
  seed: number;
  /** Records at the start. */
  size: number;
  /** Records created or deleted before each answer: at most this many, or exactly (`exact`). */
  rate: number;
  exact?: boolean;
  /** Only records created at the head (a list growing faster than it can be read). */
  growOnly?: boolean;
  /** Only records deleted, never created: a list that only shrinks. */
  deleteOnly?: boolean;
  /**
   * The chance, before each answer, that every record answered so far is deleted (an agent completing
   * what it read): the walk's records, the one it holds back too, are gone, and its head page may be
   * the whole list.
   */
  completes?: number;
  /** The chance, before each answer, that a page and more of records (50 to 150) is created at the head at once. */
  bursts?: number;
  /** The answer's total counts this many records more than the list holds (fewer when negative): a count of the service's own. */
  totalSkew?: number;
  concurrency: number;
  /** The answer's shape: {contacts, total}, {contacts} or a bare array. */
  shape: 'total' | 'no-total' | 'bare';
  /** Answer the requests in flight in any order (else first asked, first answered). */
  shuffle: boolean;
  limit?: number;
  from?: WalkOptions['from'];
  /** The walk will be asked where it stands, to be continued by another (WalkOptions.resumable). */
  resumable?: boolean;
  /** The records at the start (a walk continued from where another stopped); `size` new ones otherwise. */
  list?: readonly Row[];
  /** Run before the walk starts, on the list (an agent acting on the records of the last call). */
  before?: (list: Row[]) => void;
  /**
   * Records are created up to this many at one instant (one transaction, a clock of coarse
   * resolution), and each answer lists those of one instant in an order of its own, as a database
   * sorting by created_at alone may.
   */
  sameInstant?: number;
}

export interface ChurnRun {
  /** Keys of the records given, in order. */
  given: string[];
  /** Keys of the records there at the start and never deleted. */
  survivors: Set<string>;
  /** Keys of the records there at the start, in list order. */
  initial: string[];
  requests: number;
  changes: number;
  error?: unknown;
  walk: Walk;
  /** The list as it was when the walk ended. */
  list: Row[];
  /** Each answer lists the records of one instant in an order of its own (`sameInstant`). */
  reorders: boolean;
}

/** An API client of a test's list: its answers are the transport's, never asked again. */
export function listClient(transport: (request: TransportRequest) => Promise<TransportResponse>): ApiClient {
  return new ApiClient({ baseUrl: 'https://crm.test/api/v1', apiKey: 'key_live_abcdefghijklmnopqrstuvwxyz123456', userAgent: 'crm/test', maxRetries: 0, transport });
}

/** The records of LIST that a page request asks for (its offset and limit, CAP at most). */
export function pageOf<R>(list: readonly R[], request: TransportRequest, cap = Infinity): R[] {
  const query = new URL(request.url).searchParams;
  const offset = Number(query.get('offset'));
  return list.slice(offset, offset + Math.min(cap, Number(query.get('limit'))));
}

/** The service's answer (200) with DATA. */
export function pageAnswer(data: unknown): TransportResponse {
  return { status: 200, headers: {}, body: JSON.stringify({ data, error: null }) };
}

/** A small fast generator (mulberry32): the same seed, the same run. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface Row {
  id: string;
  created_at: string;
  n: number;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

export async function churn(options: ChurnOptions): Promise<ChurnRun> {
  const rnd = random(options.seed);
  const pick = (count: number) => Math.floor(rnd() * count);
  let clock = Date.UTC(2024, 0, 1);
  let serial = 0;
  let atInstant = 0;
  const row = (id?: string): Row => {
    if (!options.sameInstant || ++atInstant >= 1 + pick(options.sameInstant)) {
      clock += 1000;
      atInstant = 0;
    }
    serial++;
    return { id: id ?? `r${serial}`, created_at: new Date(clock).toISOString(), n: serial };
  };
  // Oldest last: the list is newest first.
  const list: Row[] = options.list ? [...options.list] : [];
  if (options.list) {
    serial = Math.max(0, ...list.map((record) => record.n));
    clock = Math.max(clock, ...list.map((record) => Date.parse(record.created_at)));
  } else for (let index = 0; index < options.size; index++) list.unshift(row());
  options.before?.(list);
  const initial = list.map(recordKey);
  const deletedIds: string[] = [];
  const deletedKeys = new Set<string>();
  // How this seed's changes lean: some runs mostly delete, some mostly create, some go for the edges.
  const weights = { head: options.deleteOnly ? 0 : rnd(), anywhere: rnd(), edges: rnd(), justRead: rnd() };
  const sum = weights.head + weights.anywhere + weights.edges + weights.justRead;
  const pending: Array<{ offset: number; limit: number; answer: (response: TransportResponse) => void }> = [];
  const given: string[] = [];
  const answered = new Set<string>();
  let changes = 0;

  const remove = (index: number) => {
    if (index < 0 || index >= list.length) return;
    const [gone] = list.splice(index, 1);
    deletedIds.push(gone!.id);
    deletedKeys.add(recordKey(gone));
    changes++;
  };
  const change = () => {
    let draw = rnd() * sum;
    if (options.growOnly || (draw -= weights.head) < 0) {
      // A new record at the head; one in five takes the id of a deleted one.
      const reused = deletedIds.length > 0 && rnd() < 0.2 ? deletedIds[pick(deletedIds.length)] : undefined;
      list.unshift(row(reused));
      changes++;
    } else if ((draw -= weights.anywhere) < 0) {
      remove(pick(list.length));
    } else if ((draw -= weights.edges) < 0 && pending.length > 0) {
      // At the edges of a page asked for: just before it, its first, its last, just after it.
      const asked = pending[pick(pending.length)]!;
      remove(asked.offset + [-1, 0, asked.limit - 1, asked.limit][pick(4)]!);
    } else if (given.length > 0) {
      // One of the records just read (pulls the rest of the list earlier).
      const recent = given.slice(-60);
      const key = recent[pick(recent.length)]!;
      remove(list.findIndex((record) => recordKey(record) === key));
    }
  };
  const respond = (offset: number, limit: number): TransportResponse => {
    const rows = (options.sameInstant ? reorderInstants(list, rnd) : list).slice(offset, offset + limit);
    for (const record of rows) answered.add(recordKey(record));
    const data = options.shape === 'bare' ? rows : options.shape === 'total' ? { contacts: rows, total: Math.max(0, list.length + (options.totalSkew ?? 0)) } : { contacts: rows };
    return pageAnswer(data);
  };

  const client = listClient(
    (request: TransportRequest) =>
      new Promise<TransportResponse>((answer) => {
        const query = new URL(request.url).searchParams;
        pending.push({ offset: Number(query.get('offset')), limit: Number(query.get('limit')), answer });
      }),
  );
  const walk = new Walk(client, '/contacts', {}, { key: 'contacts', concurrency: options.concurrency, limit: options.limit, from: options.from, resumable: options.resumable });
  let finished = false;
  let error: unknown;
  const reading = (async () => {
    for await (const record of walk) given.push(recordKey(record));
  })().then(
    () => (finished = true),
    (caught: unknown) => {
      error = caught;
      finished = true;
    },
  );
  for (let serves = 0; !finished; serves++) {
    await turn();
    if (finished) break;
    if (pending.length === 0) throw new Error(`seed ${options.seed}: the walk waits for nothing`);
    if (serves > 5000) throw new Error(`seed ${options.seed}: the walk does not end`);
    const [asked] = pending.splice(options.shuffle ? pick(pending.length) : 0, 1);
    const count = options.exact ? options.rate : pick(options.rate + 1);
    for (let index = 0; index < count; index++) change();
    if (options.bursts !== undefined && rnd() < options.bursts) {
      for (let index = 50 + pick(101); index > 0; index--, changes++) list.unshift(row());
    }
    if (options.completes !== undefined && rnd() < options.completes) {
      for (let index = list.length - 1; index >= 0; index--) if (answered.has(recordKey(list[index]))) remove(index);
    }
    asked!.answer(respond(asked!.offset, asked!.limit));
  }
  await reading;
  const survivors = new Set(initial.filter((key) => !deletedKeys.has(key)));
  return { given, survivors, initial, requests: walk.requests, changes, error, walk, list, reorders: options.sameInstant !== undefined };
}

/** The list with the records of each instant in an order of this answer's own (newest first still). */
function reorderInstants(list: readonly Row[], rnd: () => number): Row[] {
  const keyed = list.map((record, index) => ({ record, index, draw: rnd() }));
  keyed.sort((a, b) => (a.record.created_at === b.record.created_at ? a.draw - b.draw : a.index - b.index));
  return keyed.map(({ record }) => record);
}

/** What every run must show, whatever the rate: nothing twice, and an end that is complete or loud. */
export function checkRun(run: ChurnRun, seed: number): void {
  const where = `seed ${seed}`;
  const twice = run.given.filter((key, index) => run.given.indexOf(key) !== index);
  expect(twice, `${where}: given twice`).toEqual([]);
  if (run.error !== undefined) {
    // WalkUnordered too where the list reorders an instant that a walk takes for more than half a
    // page (a total that counts too many makes a short page look like a service's smaller page).
    const loud = run.error instanceof WalkOutpaced || (run.reorders && run.error instanceof WalkUnordered);
    expect(loud, `${where}: fails only as WalkOutpaced (or WalkUnordered): ${String(run.error)}`).toBe(true);
    return;
  }
  const given = new Set(run.given);
  // A walk that stopped at its --limit owes only the records before the last one it gave.
  const reached = run.walk.position() === undefined ? run.initial.length : Math.max(-1, ...run.initial.map((key, index) => (given.has(key) ? index : -1))) + 1;
  const missing = run.initial.slice(0, reached).filter((key) => run.survivors.has(key) && !given.has(key));
  expect(missing, `${where}: records there for the whole walk, not given`).toEqual([]);
}
