// The replica's engine (src/mirror/) against the sandbox in-process: a first sync holds exactly what
// the service lists, typed and whole; changes in the service (create, update, soft delete, stage move)
// are found by the next sync, exactly those, each once, in the change log; `--new` takes only new
// records for a few requests; an interrupted sync leaves the replica as it was and the next one loses
// nothing; the file is the owner's only.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/http/core.js';
import { PAGES_IN_FLIGHT } from '../../src/http/paginate.js';
import { changesAfter, latestSeq } from '../../src/mirror/changes.js';
import { MirrorError } from '../../src/mirror/errors.js';
import { replicaFiles } from '../../src/mirror/files.js';
import { Replica, keyFingerprint } from '../../src/mirror/replica.js';
import { TABLES } from '../../src/mirror/schema.js';
import { openDatabase } from '../../src/sqlite/database.js';
import { sync, type SyncOptions, type TableReport } from '../../src/mirror/sync.js';
import { BASE_URL, openWorkspace, type Workspace } from '../helpers/inprocess.js';
import { scriptedAt, scriptedList, type ScriptedList } from '../helpers/scripted-list.js';
import { until } from '../helpers/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'crm-mirror-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The workspace the tests' client reads: the sandbox's base URL and key. */
const WORKSPACE = { baseUrl: BASE_URL, key: keyFingerprint(BASE_URL, 'the key') };
const DEFAULT_TABLES = TABLES.filter((table) => table.byDefault).map((table) => table.name);

let ws: Workspace & { close(): void };
let path: string;
let serial = 0;

beforeEach(async () => {
  ws?.close();
  ws = await openWorkspace();
  path = join(dir, `replica-${++serial}`, 'default.db');
});
afterAll(() => ws?.close());

function client(): ApiClient {
  return new ApiClient({ baseUrl: BASE_URL, apiKey: ws.apiKey, transport: ws.transport, userAgent: 'crm-test', sleep: async () => {} });
}

/** A client whose answers are held back until open() is called: a sync that has asked (asked() > 0) and waits for its pages. */
function heldClient(): { client: ApiClient; asked: () => number; open: () => void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let asked = 0;
  const held = new ApiClient({
    baseUrl: BASE_URL,
    apiKey: ws.apiKey,
    userAgent: 'crm-test',
    sleep: async () => {},
    transport: async (request) => {
      asked++;
      const answer = await ws.transport(request);
      await gate;
      return answer;
    },
  });
  return { client: held, asked: () => asked, open };
}

async function syncOnce(options: Partial<SyncOptions> = {}): Promise<{ reports: TableReport[]; failure?: unknown; replica: Replica }> {
  const replica = Replica.openForSync(path, WORKSPACE);
  try {
    const outcome = await sync({ client: client(), replica, tables: DEFAULT_TABLES, mode: 'full', ...options });
    return { ...outcome, replica };
  } finally {
    replica.close();
  }
}

function read<T = Record<string, unknown>>(sql: string, ...params: Array<string | number>): T[] {
  const replica = Replica.openForReading(path)!;
  try {
    return replica.db.prepare(sql).all(...params) as T[];
  } finally {
    replica.close();
  }
}

function listAll(resource: string): Array<Record<string, any>> {
  const records: Array<Record<string, any>> = [];
  for (let offset = 0; ; offset += 50) {
    const page = ws.api('GET', `/${resource}?limit=50&offset=${offset}`).data[resource.split('/').pop()!.replace(/^stages$/, 'stages')] as Array<Record<string, any>>;
    records.push(...page);
    if (page.length < 50) return records;
  }
}

const byResource = (reports: TableReport[]) => Object.fromEntries(reports.map(({ resource, added, changed, removed }) => [resource, { added, changed, removed }]));

function withEvents(): { replica: Replica; events: (resource: string) => ReturnType<typeof changesAfter> } {
  const replica = Replica.openForReading(path)!;
  return { replica, events: (resource) => changesAfter(replica, resource, 0) };
}

describe('a first sync', () => {
  it('holds every record the service lists, in typed columns and whole, and logs no event (it is the baseline)', async () => {
    const { reports, failure } = await syncOnce();
    expect(failure).toBeUndefined();
    const contacts = listAll('contacts');
    expect(reports.find((report) => report.resource === 'contacts')).toMatchObject({ mode: 'first', added: contacts.length, changed: 0, removed: 0, records: contacts.length });
    expect(read('SELECT id FROM contacts ORDER BY id').map((row) => row.id)).toEqual(contacts.map((contact) => contact.id).sort());
    const [deal] = listAll('deals');
    const [row] = read('SELECT amount, typeof(amount) AS type, stage, _record FROM deals WHERE id = ?', deal!.id);
    expect(row).toMatchObject({ amount: deal!.amount, stage: deal!.stage });
    expect(JSON.parse(String(row!._record))).toEqual(deal);
    expect(read("SELECT is_closed FROM stages WHERE id = 'closed_won'")).toEqual([{ is_closed: 1 }]);
    const [sequence] = read<{ steps: string }>('SELECT steps FROM sequences LIMIT 1');
    expect(Array.isArray(JSON.parse(sequence!.steps))).toBe(true);
    expect(read('SELECT count(*) AS n FROM changes')).toEqual([{ n: 0 }]);
    // Every default table was synced, enrolments under each sequence; notes only when asked for.
    expect(reports.map((report) => report.resource)).toEqual(DEFAULT_TABLES);
    expect(reports.find((report) => report.resource === 'enrollments')!.records).toBeGreaterThan(0);
    expect(ws.requests(/notes/)).toEqual([]);
  });

  it('keeps fields the spec does not show, whole, in _record', async () => {
    const created = ws.api('POST', '/contacts', { name: 'Kept Whole', email: 'kept@example.com', tier: 'gold', custom: { source: 'partner', score: 7 } }).data;
    expect(created.tier).toBe('gold');
    await syncOnce();
    expect(read("SELECT json_extract(_record, '$.tier') AS tier, json_extract(_record, '$.custom.source') AS source FROM contacts WHERE id = ?", created.id)).toEqual([{ tier: 'gold', source: 'partner' }]);
  });

  it('writes a file only its owner can read, in a directory only its owner can enter', async () => {
    await syncOnce();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    const replica = Replica.openForSync(path, WORKSPACE);
    try {
      // While it is open in WAL mode SQLite keeps -wal and -shm beside it, with the database's mode.
      for (const file of replicaFiles(path).slice(1)) expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      replica.close();
    }
  });

  it('refuses to mix another workspace into it', async () => {
    await syncOnce();
    expect(() => Replica.openForSync(path, { ...WORKSPACE, baseUrl: 'https://other.example.com/api/v1' })).toThrow(MirrorError);
    expect(() => Replica.openForSync(path, { ...WORKSPACE, baseUrl: 'https://other.example.com/api/v1' })).toThrow(/holds http:\/\/127\.0\.0\.1:9\/api\/v1, not https:\/\/other/);
  });

  it('refuses another key of the same base URL (another workspace of the service), and keeps no key in the file', async () => {
    await syncOnce();
    const other = { ...WORKSPACE, key: keyFingerprint(BASE_URL, 'another key') };
    expect(() => Replica.openForSync(path, other)).toThrow('holds the records another API key of http://127.0.0.1:9/api/v1 reads');
    const replica = Replica.openForReading(path)!;
    try {
      expect(replica.info().key).toBe(WORKSPACE.key);
      expect(JSON.stringify(replica.db.prepare('SELECT * FROM _meta').all())).not.toContain('the key');
    } finally {
      replica.close();
    }
  });

  it('empties a replica of an older crm (no key recorded): its next sync is a first one, without change events, under a new id', async () => {
    await syncOnce();
    const before = Replica.openForReading(path)!;
    const { id } = before.info();
    before.close();
    const old = openDatabase(path);
    old.exec("DELETE FROM _meta WHERE key = 'workspace_key'; INSERT INTO contacts (id, _record, _synced_at) VALUES ('con_elsewhere', '{\"id\":\"con_elsewhere\"}', '2026-01-01T00:00:00Z'); INSERT INTO changes (event, resource, id, record, detected_at) VALUES ('created', 'contacts', 'con_elsewhere', '{}', '2026-01-01T00:00:00Z')");
    old.close();
    const { reports, replica } = await syncOnce();
    expect(reports.every((report) => report.mode === 'first')).toBe(true);
    const reopened = Replica.openForReading(path)!;
    try {
      expect(reopened.info()).toMatchObject({ key: WORKSPACE.key });
      expect(reopened.info().id).not.toBe(id);
      expect(latestSeq(reopened)).toBe(0);
      expect(reopened.db.prepare("SELECT id FROM contacts WHERE id = 'con_elsewhere'").get()).toBeUndefined();
    } finally {
      reopened.close();
    }
    expect(replica.emptied).toBe(true);
  });
});

/** Changes of every kind in the service, and what a sync should then report. */
function changeTheService() {
  const [deal, other] = listAll('deals').filter((candidate) => candidate.status === 'open');
  const [first, gone] = listAll('contacts');
  const created = ws.api('POST', '/contacts', { name: 'New Person', email: 'new.person@example.com' }).data;
  expect(ws.api('PATCH', `/contacts/${first!.id}`, { title: 'Chief Replica Officer' }).status).toBe(200);
  expect(ws.api('DELETE', `/contacts/${gone!.id}`).status).toBe(200);
  expect(ws.api('POST', `/deals/${deal!.id}/stage`, { stage: 'closed_won' }).status).toBe(200);
  expect(ws.api('PATCH', `/deals/${other!.id}`, { amount: 123456 }).status).toBe(200);
  return { created, updated: first!, gone: gone!, moved: deal!, repriced: other! };
}

describe('a second sync', () => {
  it('reports exactly the changes made since, and logs each once with the fields that changed', async () => {
    await syncOnce();
    const change = changeTheService();
    const { reports } = await syncOnce();
    const counts = byResource(reports);
    expect(counts.contacts).toEqual({ added: 1, changed: 1, removed: 1 });
    expect(counts.deals).toEqual({ added: 0, changed: 2, removed: 0 });
    for (const resource of ['accounts', 'sequences', 'tasks', 'stages']) expect(counts[resource]).toEqual({ added: 0, changed: 0, removed: 0 });
    // The contact deleted was enrolled or not; either way its enrolments went with it.
    const { replica, events } = withEvents();
    try {
      const contactEvents = events('contacts');
      expect(contactEvents.map((event) => [event.event, event.id])).toEqual([
        ['created', change.created.id],
        ['updated', change.updated.id],
        ['deleted', change.gone.id],
      ]);
      expect(contactEvents[1]!.changes!.title).toEqual({ before: change.updated.title ?? null, after: 'Chief Replica Officer' });
      expect(contactEvents[2]!.record).toMatchObject({ id: change.gone.id, email: change.gone.email });
      const dealEvents = events('deals');
      const moved = dealEvents.find((event) => event.id === change.moved.id)!;
      expect(moved.changes!.stage).toEqual({ before: change.moved.stage, after: 'closed_won' });
      expect(moved.changes!.status).toEqual({ before: 'open', after: 'won' });
      expect(dealEvents.find((event) => event.id === change.repriced.id)!.changes!.amount).toEqual({ before: change.repriced.amount, after: 123456 });
      expect(dealEvents).toHaveLength(2);
      expect(new Set([...contactEvents, ...dealEvents].map((event) => event.event_id)).size).toBe(5);
    } finally {
      replica.close();
    }
    expect(read('SELECT count(*) AS n FROM contacts WHERE id = ?', change.gone.id)).toEqual([{ n: 0 }]);
    expect(read('SELECT stage, status FROM deals WHERE id = ?', change.moved.id)).toEqual([{ stage: 'closed_won', status: 'won' }]);
    expect(read('SELECT title FROM contacts WHERE id = ?', change.updated.id)).toEqual([{ title: 'Chief Replica Officer' }]);
  });

  it('with nothing changed, reports nothing and logs nothing; a record whose keys came in another order is no change', async () => {
    await syncOnce();
    const replica = Replica.openForSync(path, WORKSPACE);
    // As if the service had sent this record's members in another order.
    const [row] = replica.db.prepare('SELECT id, _record FROM accounts LIMIT 1').all() as Array<{ id: string; _record: string }>;
    const reordered = Object.fromEntries(Object.entries(JSON.parse(row!._record)).reverse());
    replica.db.prepare('UPDATE accounts SET _record = ? WHERE id = ?').run(JSON.stringify(reordered), row!.id);
    replica.close();
    const { reports } = await syncOnce();
    expect(reports.every((report) => report.added + report.changed + report.removed === 0)).toBe(true);
    expect(read('SELECT count(*) AS n FROM changes')).toEqual([{ n: 0 }]);
  });
});

describe('crm sync --new', () => {
  it('takes only the records created since, in a few requests, oldest first, and sees no update', async () => {
    await syncOnce();
    const created: string[] = [];
    for (let index = 0; index < 100; index++) created.push(ws.api('POST', '/contacts', { name: `New ${index}`, email: `new-${index}@example.com` }).data.id);
    const [someone] = listAll('contacts').slice(-1);
    ws.api('PATCH', `/contacts/${someone!.id}`, { title: 'Unseen by --new' });
    ws.log.length = 0;
    const { reports } = await syncOnce({ tables: ['contacts'], mode: 'new' });
    expect(reports).toEqual([expect.objectContaining({ resource: 'contacts', mode: 'new', added: 100, changed: 0, removed: 0 })]);
    const requests = ws.requests(/GET \/api\/v1\/contacts/).length;
    // The bound: 3 + 100 / 50.
    expect(requests).toBeLessThanOrEqual(5);
    expect(reports[0]!.requests).toBe(requests);
    const { replica, events } = withEvents();
    try {
      expect(events('contacts').map((event) => event.id)).toEqual(created);
    } finally {
      replica.close();
    }
    expect(read('SELECT title FROM contacts WHERE id = ?', someone!.id)).toEqual([{ title: someone!.title ?? null }]);
  });

  it('reads a long run of new records on with several pages in flight, each record once, oldest first', async () => {
    await syncOnce();
    const created: string[] = [];
    for (let index = 0; index < 300; index++) created.push(ws.api('POST', '/contacts', { name: `Burst ${index}`, email: `burst-${index}@example.com` }).data.id);
    ws.log.length = 0;
    const { reports } = await syncOnce({ tables: ['contacts'], mode: 'new' });
    expect(reports[0]).toMatchObject({ added: 300, changed: 0, removed: 0 });
    // One page at a time for the first 196 records, then several in flight from where that walk stood:
    // the pages for the other 104, and at most a round of pages in flight past the first record held.
    const offsets = ws.requests(/GET \/api\/v1\/contacts/).map((request) => Number(new URL(request.url, 'http://x').searchParams.get('offset')));
    expect(offsets.slice(0, 4)).toEqual([0, 48, 96, 144]);
    expect(offsets.length).toBeLessThanOrEqual(4 + 3 + PAGES_IN_FLIGHT);
    expect(reports[0]!.requests).toBe(offsets.length);
    const { replica, events } = withEvents();
    try {
      expect(events('contacts').map((event) => event.id)).toEqual(created);
    } finally {
      replica.close();
    }
  });

  it('with nothing new asks for one page', async () => {
    await syncOnce();
    ws.log.length = 0;
    const { reports } = await syncOnce({ tables: ['contacts', 'deals'], mode: 'new' });
    expect(reports.map((report) => [report.resource, report.added, report.requests])).toEqual([
      ['contacts', 0, 1],
      ['deals', 0, 1],
    ]);
    expect(ws.log).toHaveLength(2);
  });
});

describe('crm sync --new: where it stops (issue 17: a run of records held, by id and creation time, as crm watch)', () => {
  let list: ScriptedList;
  const scripted = (mode: SyncOptions['mode']) =>
    syncOnce({ client: new ApiClient({ baseUrl: BASE_URL, apiKey: 'k', transport: list.transport, userAgent: 'crm-test', sleep: async () => {} }), tables: ['contacts'], mode });
  /** What a --new sync added, by id, oldest first (from its change log); the report checked too. */
  async function syncNew(): Promise<Array<[string, string, string]>> {
    const seq = read<{ seq: number }>('SELECT coalesce(max(seq), 0) AS seq FROM changes')[0]!.seq;
    const { reports, failure } = await scripted('new');
    expect(failure).toBeUndefined();
    const events = read<{ event: string; id: string; record: string }>('SELECT event, id, record FROM changes WHERE seq > ? ORDER BY seq', seq);
    expect(reports[0]).toMatchObject({ mode: 'new', added: events.filter((event) => event.event === 'created').length, removed: events.filter((event) => event.event === 'deleted').length });
    return events.map((event) => [event.event, event.id, JSON.parse(event.record).created_at]);
  }
  const created = (...ids: string[]) => ids.map((id) => ['created', id, list.contacts().find((contact) => contact.id === id)!.created_at]);

  /** 60 contacts a minute apart (minute 0 to 59), synced whole. */
  beforeEach(async () => {
    list = scriptedList();
    for (let minute = 0; minute < 60; minute++) list.create(minute);
    expect((await scripted('full')).reports[0]).toMatchObject({ mode: 'first', added: 60 });
  });

  it('a record with a future created_at does not hide the records after it, in this sync or the next (it hid every one)', async () => {
    const future = list.create(60 * 24 * 365 * 50); // fifty years on
    expect(await syncNew()).toEqual(created(future));
    const later = [list.create(61), list.create(62)];
    expect(await syncNew()).toEqual(created(...later));
    const latest = list.create(63);
    expect(await syncNew()).toEqual(created(latest));
  });

  it('a record from a server whose clock is minutes behind is found below the records held (it was taken as old)', async () => {
    const held = [list.create(60), list.create(61), list.create(62)];
    expect(await syncNew()).toEqual(created(...held));
    // Created after those three, on a server 5 minutes behind: listed below them and three more.
    const skewed = list.create(57.5);
    const now = list.create(63);
    expect(await syncNew()).toEqual(created(skewed, now));
    expect(await syncNew()).toEqual([]);
  });

  it('a new record given the id of a deleted one is new: the one held is deleted, with --new and with a full sync (it was taken as held)', async () => {
    const first = list.create(60);
    expect(await syncNew()).toEqual(created(first));
    list.remove(first);
    list.create(61, first);
    expect(await syncNew()).toEqual([['deleted', first, scriptedAt(60)], ...created(first)]);
    expect(read('SELECT id, created_at FROM contacts WHERE id = ?', first)).toEqual([{ id: first, created_at: scriptedAt(61) }]);
    const later = list.create(62);
    expect(await syncNew()).toEqual(created(later));
    // A full sync tells it so too: not an update of the record held.
    list.remove(first);
    list.create(63, first);
    const seq = read<{ seq: number }>('SELECT max(seq) AS seq FROM changes')[0]!.seq;
    expect((await scripted('full')).reports[0]).toMatchObject({ mode: 'full', added: 1, changed: 0, removed: 1 });
    expect(read('SELECT event, id FROM changes WHERE seq > ? ORDER BY seq', seq)).toEqual([{ event: 'deleted', id: first }, { event: 'created', id: first }]);
  });

  it('reads past up to 39 records held to a new one, and stops at 40 in a row: a poll with nothing new is one request', async () => {
    let requests = list.requests;
    expect(await syncNew()).toEqual([]);
    expect(list.requests - requests).toBe(1);
    const behind = list.create(20.5); // 39 records below the head
    requests = list.requests;
    expect(await syncNew()).toEqual(created(behind));
    expect(list.requests - requests).toBe(2);
    list.create(18.5); // 41 records below: past a run of 40 held
    expect(await syncNew()).toEqual([]);
  });
});

describe('an interrupted sync', () => {
  it('leaves the replica as the last sync left it, and the next sync loses nothing', async () => {
    await syncOnce();
    const change = changeTheService();
    // Stopped while deals are read: contacts were committed, deals were not.
    const controller = new AbortController();
    const first = await syncOnce({
      signal: controller.signal,
      onProgress: ({ resource, done }) => {
        if (resource === 'deals' && done === 5) controller.abort(new Error('interrupted'));
      },
    });
    expect(first.failure).toEqual(new Error('interrupted'));
    expect(first.reports.map((report) => report.resource)).toEqual(['contacts', 'accounts']);
    expect(read('SELECT stage FROM deals WHERE id = ?', change.moved.id)).toEqual([{ stage: change.moved.stage }]);
    expect(read("SELECT count(*) AS n FROM changes WHERE resource = 'deals'")).toEqual([{ n: 0 }]);
    const second = await syncOnce();
    expect(byResource(second.reports).deals).toEqual({ added: 0, changed: 2, removed: 0 });
    expect(byResource(second.reports).contacts).toEqual({ added: 0, changed: 0, removed: 0 });
    expect(read("SELECT event, id FROM changes WHERE resource = 'deals' ORDER BY seq").map((row) => row.id).sort()).toEqual([change.moved.id, change.repriced.id].sort());
  });

  it('by a failing page leaves that table as it was; the tables before it are committed', async () => {
    await syncOnce();
    const change = changeTheService();
    ws.fault({ match: /GET \/api\/v1\/deals\?limit=50&offset=0/, status: 401, times: 1 });
    const first = await syncOnce();
    expect(first.failure).toMatchObject({ status: 401 });
    expect(byResource(first.reports)).toEqual({ contacts: { added: 1, changed: 1, removed: 1 }, accounts: { added: 0, changed: 0, removed: 0 } });
    expect(read('SELECT stage FROM deals WHERE id = ?', change.moved.id)).toEqual([{ stage: change.moved.stage }]);
    const second = await syncOnce();
    expect(byResource(second.reports).deals).toEqual({ added: 0, changed: 2, removed: 0 });
  });
});

describe('two syncs at once', () => {
  it('a walk read before another sync applied its table is not applied over it: nothing deleted comes back, each change is logged once (it was)', async () => {
    await syncOnce({ tables: ['contacts'] });
    const [gone] = listAll('contacts');
    // The stale sync reads the whole list now and is answered only once the other sync has committed.
    const { client: stale, asked, open } = heldClient();
    const staleReplica = Replica.openForSync(path, WORKSPACE);
    const warnings: string[] = [];
    const staleSync = sync({ client: stale, replica: staleReplica, tables: ['contacts'], mode: 'full', onWarning: (message) => warnings.push(message) });
    await until(() => asked() > 0, 'the stale sync asks for its first page');
    expect(ws.api('DELETE', `/contacts/${gone!.id}`).status).toBe(200);
    expect(byResource((await syncOnce({ tables: ['contacts'] })).reports).contacts).toEqual({ added: 0, changed: 0, removed: 1 });
    open();
    const outcome = await staleSync;
    staleReplica.close();
    expect(outcome.failure).toBeUndefined();
    expect(byResource(outcome.reports).contacts).toEqual({ added: 0, changed: 0, removed: 0 });
    expect(warnings.join('\n')).toMatch(/another sync/);
    expect(read('SELECT count(*) AS n FROM contacts WHERE id = ?', gone!.id)).toEqual([{ n: 0 }]);
    await syncOnce({ tables: ['contacts'] });
    expect(read("SELECT event FROM changes WHERE resource = 'contacts' AND id = ? ORDER BY seq", gone!.id)).toEqual([{ event: 'deleted' }]);
  });
});

/**
 * Another process takes the replica's write lock (BEGIN IMMEDIATE), writes to it, says so, and
 * commits HOLD_MS later: a second sync at the same moment, as cron and a person start one. A file
 * that is not there yet is created as a sync starts one (WAL, the _meta table), the lock then taken.
 */
const HOLD_MS = 1500;
function holdWriteLock(file: string): Promise<() => Promise<void>> {
  const script = `
    let db;
    try { db = new (require('better-sqlite3'))(process.argv[1]); } catch { db = new (require('node:sqlite').DatabaseSync)(process.argv[1]); }
    db.exec('PRAGMA busy_timeout = 60000');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('CREATE TABLE IF NOT EXISTS _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    db.exec('BEGIN IMMEDIATE');
    db.prepare("INSERT OR REPLACE INTO _meta (key, value) VALUES ('other_writer', ?)").run(String(process.pid));
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${HOLD_MS});
  `;
  const child = spawn(process.execPath, ['-e', script, file], { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] });
  const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve(async () => void expect(await ended).toBe(0)));
    child.on('error', reject);
    void ended.then((code) => reject(new Error(`the lock holder ended (${code}) before it held the lock`)));
  });
}

describe('two syncs at once: each takes the write lock before it reads what it will write over', () => {
  it('a sync creating the replica while another writes it waits for it (BEGIN IMMEDIATE), and does not fail with SQLITE_BUSY(_SNAPSHOT)', async () => {
    mkdirSync(dirname(path), { recursive: true });
    const ended = await holdWriteLock(path);
    // Deferred, its schema step would read, then find the snapshot it read stale once the other commits.
    const replica = Replica.openForSync(path, WORKSPACE);
    replica.close();
    await ended();
    expect(read("SELECT key FROM _meta WHERE key IN ('other_writer', 'base_url', 'schema') ORDER BY key")).toEqual([{ key: 'base_url' }, { key: 'other_writer' }, { key: 'schema' }]);
    expect((await syncOnce({ tables: ['contacts'] })).failure).toBeUndefined();
  });

  it('a sync applying a table while another writes waits for it, and applies (it read nothing the other changed)', async () => {
    await syncOnce({ tables: ['contacts'] });
    const [gone] = listAll('contacts');
    expect(ws.api('DELETE', `/contacts/${gone!.id}`).status).toBe(200);
    // The sync reads its pages, then applies while another process holds the write lock.
    const { client: gated, asked, open } = heldClient();
    const replica = Replica.openForSync(path, WORKSPACE);
    const running = sync({ client: gated, replica, tables: ['contacts'], mode: 'full' });
    await until(() => asked() > 0, 'the sync asks for its first page');
    const ended = await holdWriteLock(path);
    open();
    const outcome = await running;
    replica.close();
    await ended();
    expect(outcome.failure).toBeUndefined();
    expect(byResource(outcome.reports).contacts).toEqual({ added: 0, changed: 0, removed: 1 });
  });
});

describe('lists read per parent', () => {
  it('notes are read only when asked for, one request per contact, and go with their contact', async () => {
    await syncOnce();
    const contacts = listAll('contacts');
    ws.log.length = 0;
    const { reports } = await syncOnce({ tables: ['notes'] });
    expect(ws.requests(/\/notes/)).toHaveLength(contacts.length);
    const withNotes = contacts.find((contact) => ws.api('GET', `/contacts/${contact.id}/notes`).data.notes.length > 0)!;
    const held = read<{ n: number }>('SELECT count(*) AS n FROM notes WHERE contact_id = ?', withNotes.id)[0]!.n;
    expect(held).toBe(ws.api('GET', `/contacts/${withNotes.id}/notes?limit=50`).data.notes.length);
    expect(reports[0]).toMatchObject({ resource: 'notes', mode: 'first', requests: contacts.length });
    ws.api('DELETE', `/contacts/${withNotes.id}`);
    const second = await syncOnce({ tables: ['contacts', 'notes'] });
    expect(byResource(second.reports).notes).toEqual({ added: 0, changed: 0, removed: held });
  });

  it('enrolments are keyed by sequence and contact', async () => {
    await syncOnce();
    const [sequence] = listAll('sequences').filter((candidate) => candidate.status === 'active');
    const enrolled = new Set(ws.api('GET', `/sequences/${sequence!.id}/contacts?limit=50`).data.contacts.map((contact: { id: string }) => contact.id));
    const outsider = listAll('contacts').find((contact) => !enrolled.has(contact.id))!;
    expect(ws.api('POST', `/contacts/${outsider.id}/sequences`, { sequence_id: sequence!.id }).status).toBe(201);
    const { reports } = await syncOnce({ tables: ['enrollments'] });
    expect(byResource(reports).enrollments).toEqual({ added: 1, changed: 0, removed: 0 });
    expect(read('SELECT status FROM enrollments WHERE sequence_id = ? AND contact_id = ?', sequence!.id, outsider.id)).toEqual([{ status: 'active' }]);
    const { replica, events } = withEvents();
    try {
      expect(events('enrollments').map((event) => event.id)).toEqual([`${sequence!.id}/${outsider.id}`]);
      expect(latestSeq(replica)).toBe(1);
    } finally {
      replica.close();
    }
  });
});

describe('the schema', () => {
  it('is rebuilt from what is held when it changes, without asking the service', async () => {
    await syncOnce();
    const before = read('SELECT id, email, status FROM contacts ORDER BY id');
    const replica = Replica.openForSync(path, WORKSPACE);
    replica.db.exec("UPDATE _meta SET value = 'older' WHERE key = 'schema'");
    replica.db.exec('DROP VIEW open_tasks');
    replica.close();
    ws.log.length = 0;
    Replica.openForSync(path, WORKSPACE).close();
    expect(ws.log).toEqual([]);
    expect(read('SELECT id, email, status FROM contacts ORDER BY id')).toEqual(before);
    expect(read('SELECT count(*) AS n FROM open_tasks')[0]!.n).toBeGreaterThan(0);
  });
});
