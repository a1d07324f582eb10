// crm sync, crm query and crm watch --changes, in-process against the sandbox's handler (issue 24):
// a sync; changes in the sandbox (create, update, soft delete, stage move); a second sync reporting
// exactly those; --changes emitting exactly those, once; a write refused with exit 2 and nothing
// changed; a sync interrupted then resumed with nothing lost; the replica's file mode.
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, homeEnv, json, openWorkspace, run, scriptedPrompter, useWorkspace, type RunOptions } from '../helpers/inprocess.js';
import { openDatabase } from '../../src/sqlite/database.js';
import { until } from '../helpers/wait.js';

const ws = useWorkspace();

/** A user of their own (home, config, data) on the shared sandbox. */
function user(extra: NodeJS.ProcessEnv = {}) {
  const home = mkdtempSync(join(tmpdir(), 'crm-mirror-home-'));
  const env = { ...homeEnv(home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, PATH: process.env.PATH, ...extra };
  const crm = (argv: string[], options: Omit<RunOptions, 'ws' | 'env'> = {}) => run(argv, { ws, env, ...options });
  return { home, env, crm, replica: join(home, '.local', 'share', 'crm', 'replicas', 'sandbox.db') };
}

function listAll(resource: string): Array<Record<string, any>> {
  const records: Array<Record<string, any>> = [];
  for (let offset = 0; ; offset += 50) {
    const page = ws.api('GET', `/${resource}?limit=50&offset=${offset}`).data[resource] as Array<Record<string, any>>;
    records.push(...page);
    if (page.length < 50) return records;
  }
}

let serial = 0;
/** One change of each kind in the service: a contact created, one updated, one soft-deleted, a deal moved to closed_won. */
function changeTheService() {
  const n = ++serial;
  const contacts = listAll('contacts');
  const [deal] = listAll('deals').filter((candidate) => candidate.status === 'open');
  const created = ws.api('POST', '/contacts', { name: `Replica Person ${n}`, email: `replica-${n}-${process.pid}@example.com` }).data;
  const updated = contacts[0]!;
  const gone = contacts[1]!;
  expect(ws.api('PATCH', `/contacts/${updated.id}`, { title: `Head of Replicas ${n}` }).status).toBe(200);
  expect(ws.api('DELETE', `/contacts/${gone.id}`).status).toBe(200);
  expect(ws.api('POST', `/deals/${deal!.id}/stage`, { stage: 'closed_won' }).status).toBe(200);
  return { created, updated, gone, moved: deal!, title: `Head of Replicas ${n}` };
}

const rows = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
const counts = (report: Array<Record<string, any>>) => Object.fromEntries(report.map((row) => [row.resource, [row.added, row.changed, row.removed]]));

describe('crm sync', () => {
  it('makes the replica, owner-only, and reports every table; a second sync reports exactly what changed', async () => {
    const { crm, replica } = user();
    const first = await crm(['sync', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const report = json(first);
    expect(report.map((row: { resource: string }) => row.resource)).toEqual(['contacts', 'accounts', 'deals', 'sequences', 'tasks', 'stages', 'enrollments']);
    expect(report.find((row: { resource: string }) => row.resource === 'contacts')).toMatchObject({ mode: 'first', added: listAll('contacts').length, error: null });
    expect(statSync(replica).mode & 0o777).toBe(0o600);
    expect(statSync(join(replica, '..')).mode & 0o777).toBe(0o700);

    const change = changeTheService();
    const second = await crm(['sync', '-o', 'ndjson']);
    expect(second.code, second.stderr).toBe(0);
    expect(counts(rows(second.stdout))).toEqual({
      contacts: [1, 1, 1],
      accounts: [0, 0, 0],
      deals: [0, 1, 0],
      sequences: [0, 0, 0],
      tasks: [0, 0, 0],
      stages: [0, 0, 0],
      // The contact deleted takes its enrolments with it.
      enrollments: [0, 0, rows(second.stdout).find((row) => row.resource === 'enrollments').removed],
    });
    const held = await crm(['query', `SELECT title FROM contacts WHERE id = '${change.updated.id}'`, '-o', 'json']);
    expect(json(held)).toEqual([{ title: change.title }]);
    expect(held.stderr).toMatch(/^Data as of just now \(\d{4}-\d\d-\d\dT/);
  });

  it('--new takes only the new records; --status says what is held; --forget deletes it', async () => {
    const { crm, replica } = user();
    await crm(['sync']);
    const created = ws.api('POST', '/contacts', { name: 'Only New', email: `only-new-${process.pid}@example.com` }).data;
    ws.log.length = 0;
    const fresh = await crm(['sync', 'contacts', '--new', '--json']);
    expect(json(fresh)).toEqual([expect.objectContaining({ resource: 'contacts', mode: 'new', added: 1, changed: 0, removed: 0, requests: 1 })]);
    expect(ws.requests()).toHaveLength(1);
    const status = await crm(['sync', '--status', '--json']);
    const contacts = json(status).find((row: { resource: string }) => row.resource === 'contacts');
    expect(contacts).toMatchObject({ records: listAll('contacts').length, synced_at: expect.any(String), new_synced_at: expect.any(String) });
    expect(json(await crm(['query', `SELECT id FROM contacts WHERE id = '${created.id}'`, '--json']))).toEqual([{ id: created.id }]);
    const forgotten = await crm(['sync', '--forget', '--json']);
    expect(json(forgotten)).toEqual({ profile: 'sandbox', path: replica, deleted: true });
    const none = await crm(['query', 'SELECT 1']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('crm: there is no replica of profile "sandbox" yet\nhint: make it with `crm sync` (or `crm query --fresh ...`)\n');
  });

  it('draws a progress bar at a terminal, and sums up on stderr', async () => {
    const { crm } = user();
    const result = await crm(['sync', 'contacts'], { tty: { stderr: true } });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\r\x1b\[2Kcontacts [█░]+ \d+\/\d+/);
    expect(result.stderr).toMatch(/Synced 1 table in \d+\.\ds: \d+ added, 0 changed, 0 removed \(\d+ requests\)\n$/);
  });

  it('notes are synced when named, a request per contact, said in the report', async () => {
    const { crm } = user();
    await crm(['sync']);
    ws.log.length = 0;
    const result = await crm(['sync', 'notes', '--json']);
    const contacts = listAll('contacts').length;
    expect(json(result)).toEqual([expect.objectContaining({ resource: 'notes', mode: 'first', requests: contacts })]);
    expect(ws.requests(/\/notes/)).toHaveLength(contacts);
  });

  it.each([
    [['sync', 'people'], 'unknown table "people" (tables: contacts, accounts, deals, sequences, tasks, stages, enrollments, notes)'],
    [['sync', '--new', '--full'], '--new and --full ask for different syncs'],
    [['sync', '--status', 'deals'], '--status takes no table and no other flag of crm sync'],
    [['sync', '--dry-run'], 'crm sync reads every list it syncs; --dry-run does not apply'],
    [['query'], 'missing SQL'],
    [['query', 'SELECT 1', '--file', 'q.sql'], 'give the query as an argument or with --file, not both'],
    [['query', '--schema', 'SELECT 1'], '--schema takes no query and no --file or --fresh'],
  ])('refuses %j with exit 2 before sending anything', async (argv, message) => {
    const { crm } = user();
    const result = await crm(argv);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`crm: ${message}`);
    expect(ws.requests()).toEqual([]);
  });
});

/** Makes FILE (or folder) unwritable, also to root, whom modes do not stop: chattr +i as root, else mode 0555. Undoes it; undefined when it could not. */
function unwritable(file: string): (() => void) | undefined {
  const root = process.getuid?.() === 0;
  const mode = statSync(file).mode & 0o777;
  try {
    if (root) execFileSync('chattr', ['+i', file], { stdio: 'ignore' });
    else chmodSync(file, 0o555);
  } catch {
    return undefined;
  }
  const undo = () => (root ? execFileSync('chattr', ['-i', file], { stdio: 'ignore' }) : chmodSync(file, mode));
  try {
    accessSync(file, constants.W_OK);
  } catch {
    return undo;
  }
  undo();
  return undefined;
}

describe('a replica crm cannot write', () => {
  it.for([
    ['the file', (replica: string) => replica, (replica: string) => `the replica ${replica}`],
    ['its folder', (replica: string) => dirname(replica), (replica: string) => `the replica's folder ${dirname(replica)}`],
  ] as const)('(%s): sync is refused in one line naming it, exit 1, nothing sent; query reads the file, or says why it cannot (sync read every list, then failed with "attempt to write a readonly database"; query with "unable to open database file")', async ([what, target, named], context) => {
    const { crm, replica } = user();
    expect((await crm(['sync', 'contacts'])).code).toBe(0);
    const undo = unwritable(target(replica));
    if (!undo) return context.skip();
    try {
      ws.log.length = 0;
      const result = await crm(['sync', 'contacts']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^crm: cannot write ${named(replica).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (permission denied|operation not permitted)\nhint: \`crm query\` still reads it; `));
      expect(ws.requests()).toEqual([]);
      const query = await crm(['query', 'SELECT count(*) AS n FROM contacts', '--json']);
      if (what === 'the file') {
        expect(query.code, query.stderr).toBe(0);
        expect(json(query)[0].n).toBeGreaterThan(0);
      } else {
        // A replica in WAL mode is read through its -shm file, made beside it: a folder that cannot be written is named.
        expect(query.code).toBe(1);
        expect(query.stderr.split('\n')[0]).toBe(`crm: cannot read the replica ${replica}: SQLite needs to make its -shm file in ${dirname(replica)}, which crm cannot write`);
        // Nor can it be forgotten: one line, not Node's "EACCES: permission denied, unlink ...".
        const forget = await crm(['sync', '--forget']);
        expect(forget.code).toBe(1);
        expect(forget.stderr).toMatch(/^crm: cannot delete the replica .+: (permission denied|operation not permitted)\nhint: /);
      }
    } finally {
      undo();
    }
  });
});

describe('an empty replica file (another crm making it now, or one killed while it made it)', () => {
  it('is no replica yet: query says so, sync makes it (both were "not a replica of crm", exit 2, for every sync after)', async () => {
    const { crm, replica } = user();
    mkdirSync(dirname(replica), { recursive: true, mode: 0o700 });
    writeFileSync(replica, '', { mode: 0o600 });
    const query = await crm(['query', 'SELECT 1 AS one']);
    expect(query.code).toBe(2);
    expect(query.stderr).toMatch(/^crm: there is no replica of profile "sandbox" yet\n/);
    const synced = await crm(['sync', 'stages']);
    expect(synced.code, synced.stderr).toBe(0);
    expect(json(await crm(['query', 'SELECT count(*) AS n FROM stages', '--json']))[0].n).toBeGreaterThan(0);
  });
});

describe('a directory where the replica should be', () => {
  it('query, sync and sync --status name it in one line, exit 1 (each said "crm: disk I/O error")', async () => {
    const { crm, replica } = user();
    mkdirSync(replica, { recursive: true });
    for (const argv of [['query', 'SELECT 1 AS one'], ['sync', 'stages'], ['sync', '--status']]) {
      const result = await crm(argv);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`crm: cannot read the replica ${replica}: it is a directory\nhint: remove that directory; the next \`crm sync\` makes the replica there\n`);
    }
  });
});

describe('a damaged replica', () => {
  it.each([
    ['is no database', (file: string) => writeFileSync(file, 'not a database at all '.repeat(500))],
    ['is cut short', (file: string) => writeFileSync(file, readFileSync(file).subarray(0, 20_000))],
  ])('that %s: query and sync name it and say how to start again, exit 2, nothing sent (it was "file is not a database", exit 1)', async (_, damage) => {
    const { crm, replica } = user();
    expect((await crm(['sync', 'contacts'])).code).toBe(0);
    damage(replica);
    for (const argv of [['query', 'SELECT count(*) FROM contacts'], ['sync']]) {
      ws.log.length = 0;
      const result = await crm(argv);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.split('\n')[0]).toMatch(new RegExp(`^crm: the replica ${replica.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(.+\\)$`));
      expect(result.stderr).toContain('crm sync --forget');
      expect(ws.requests()).toEqual([]);
    }
  });

  it('damaged inside a table (its header and schema whole): query and sync name it when they reach the damage, exit 2 (it was "SQL: database disk image is malformed", the query blamed, and for sync no file named)', async () => {
    const { crm, replica } = user();
    expect((await crm(['sync', 'contacts'])).code).toBe(0);
    const db = openDatabase(replica, { readOnly: true });
    const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'contacts'").get() as { rootpage: number };
    const { page_size: pageSize } = db.prepare('PRAGMA page_size').get() as { page_size: number };
    db.close();
    // The first byte of a b-tree page says its kind: 0xff is none.
    const bytes = readFileSync(replica);
    bytes[(rootpage - 1) * pageSize] = 0xff;
    writeFileSync(replica, bytes);
    for (const argv of [['query', 'SELECT sum(length(_record)) FROM contacts'], ['sync', 'contacts']]) {
      const result = await crm(argv);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^crm: the replica ${replica.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(.+\\)`, 'm'));
      expect(result.stderr).toContain('hint: delete it with `crm sync --forget` and sync again');
    }
  });
});

describe('a table the key may not read', () => {
  it('is reported with its error, the other tables are synced, and the exit code is 7', async () => {
    const { crm } = user();
    ws.fault({ match: /^GET \/api\/v1\/deals\?/, status: 403, body: JSON.stringify({ data: null, error: 'Missing scope deals:read' }) });
    const result = await crm(['sync', '--json']);
    expect(result.code).toBe(7);
    const report = json(result);
    expect(report.find((row: { resource: string }) => row.resource === 'deals')).toMatchObject({ error: 'Missing scope deals:read', added: 0 });
    expect(report.filter((row: { error: unknown }) => row.error === null).map((row: { resource: string }) => row.resource)).toEqual(['contacts', 'accounts', 'sequences', 'tasks', 'stages', 'enrollments']);
    expect(result.stderr.split('\n')[0]).toBe('crm: 1 of 7 tables were not synced: deals (Missing scope deals:read)');
  });
});

describe('an interrupted sync', () => {
  it('leaves the replica as the last sync left it; the next sync reports everything, nothing lost', async () => {
    const { crm } = user();
    await crm(['sync']);
    const change = changeTheService();
    // The deals' walk fails (a key revoked mid-way): contacts and accounts were committed, deals were not.
    ws.fault({ match: /^GET \/api\/v1\/deals\?/, status: 401, times: 1 });
    const broken = await crm(['sync', '--json']);
    expect(broken.code).toBe(3);
    expect(counts(json(broken))).toEqual({ contacts: [1, 1, 1], accounts: [0, 0, 0] });
    expect(broken.stderr).toContain('(synced: contacts, accounts; left as the last sync left them: deals, sequences, tasks, stages, enrollments)');
    const stage = await crm(['query', `SELECT stage FROM deals WHERE id = '${change.moved.id}'`, '--json']);
    expect(json(stage)).toEqual([{ stage: change.moved.stage }]);
    const resumed = await crm(['sync', '--json']);
    expect(resumed.code).toBe(0);
    expect(counts(json(resumed)).deals).toEqual([0, 1, 0]);
    expect(counts(json(resumed)).contacts).toEqual([0, 0, 0]);
  });
});

describe('crm query', () => {
  it("says how old the data is on the command's clock, the one the sync recorded it with (both read the machine's clock, whatever clock the command was given)", async () => {
    const { crm } = user();
    const syncedAt = Date.parse('2030-01-02T03:04:05.000Z');
    expect((await crm(['sync', 'contacts'], { now: syncedAt })).code).toBe(0);
    const asked = await crm(['query', 'SELECT 1 AS one', '--json'], { now: syncedAt + 3 * 3_600_000 });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).toBe('Data as of 3 hours ago (2030-01-02T03:04:05.000Z)\n');
  });

  it('refuses a write with exit 2, and nothing changes', async () => {
    const { crm, replica } = user();
    await crm(['sync', 'contacts']);
    const before = statSync(replica).mtimeMs;
    const count = json(await crm(['query', 'SELECT count(*) AS n FROM contacts', '--json']));
    ws.log.length = 0;
    for (const sql of ['DELETE FROM contacts', "UPDATE contacts SET _record = '{}'", 'WITH x AS (SELECT 1) DELETE FROM contacts', 'DROP TABLE contacts']) {
      const refused = await crm(['query', sql]);
      expect(refused.code, sql).toBe(2);
      expect(refused.stderr).toMatch(/^crm: the replica is read-only: /);
    }
    expect(json(await crm(['query', 'SELECT count(*) AS n FROM contacts', '--json']))).toEqual(count);
    expect(statSync(replica).mtimeMs).toBe(before);
    expect(ws.requests()).toEqual([]);
  });

  it('prints through the one printer (tsv, csv, ndjson, --fields, a table on a terminal), from an argument, a file or stdin', async () => {
    const { crm, home } = user();
    await crm(['sync']);
    const sql = 'SELECT name, probability FROM stages ORDER BY position';
    const stages = (ws.api('GET', '/pipeline/stages').data.stages as Array<Record<string, any>>).sort((a, b) => a.position - b.position);
    expect((await crm(['query', sql])).stdout).toBe(stages.map((stage) => `${stage.name}\t${stage.probability}\n`).join(''));
    expect((await crm(['query', sql, '-o', 'csv'])).stdout.split('\r\n')[0]).toBe('name,probability');
    expect((await crm(['query', 'SELECT name, probability FROM stages WHERE 0', '-o', 'csv'])).stdout).toBe('name,probability\r\n');
    expect(rows((await crm(['query', sql, '-o', 'ndjson', '--fields', 'name'])).stdout)).toEqual(stages.map((stage) => ({ name: stage.name })));
    const file = join(home, 'q.sql');
    writeFileSync(file, `${sql};\n`);
    expect((await crm(['query', '--file', file, '--json'])).stdout).toBe((await crm(['query', '-', '--json'], { stdin: sql })).stdout);
    const table = await crm(['query', sql, '--no-color'], { tty: { stdout: true, stderr: true } });
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+PROBABILITY/);
  });

  it('says where an SQL error is, in one line, exit 2', async () => {
    const { crm } = user();
    await crm(['sync', 'contacts']);
    const result = await crm(['query', 'SELECT * FORM contacts']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('crm: SQL: near "FORM": syntax error (line 1, column 10)\n');
    const json = await crm(['query', 'SELECT nmae FROM contacts', '--json']);
    expect(JSON.parse(json.stderr.split('\n').at(-2)!)).toEqual({ error: { message: 'SQL: no such column: nmae (line 1, column 8)', status: null, code: 'sql_error', exit_code: 2, hint: '`crm query --schema` lists the tables, views and columns' } });
  });

  it('a mistake in the SQL is named before the missing replica, and before --fresh syncs: exit 2, nothing sent', async () => {
    const { crm, replica } = user();
    for (const [argv, message] of [
      [['query', 'SELECT * FORM contacts'], 'crm: SQL: near "FORM": syntax error (line 1, column 10)'],
      [['query', '--fresh', 'SELECT * FORM contacts'], 'crm: SQL: near "FORM": syntax error (line 1, column 10)'],
      [['query', 'SELECT nmae FROM contacts'], 'crm: SQL: no such column: nmae (line 1, column 8)'],
      [['query', '--fresh', 'DELETE FROM contacts'], 'crm: the replica is read-only: DELETE statements are refused (only `crm sync` changes it)'],
      [['query', 'WITH x AS (SELECT 1) DELETE FROM contacts'], 'crm: the replica is read-only: this statement would write (only `crm sync` changes it)'],
    ] as const) {
      const result = await crm([...argv]);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(message);
    }
    expect(ws.requests()).toEqual([]);
    expect(existsSync(replica)).toBe(false);
    // The SQL right, the replica is what is missing.
    expect((await crm(['query', 'SELECT name FROM contacts'])).stderr.split('\n')[0]).toBe('crm: there is no replica of profile "sandbox" yet');
  });

  it('--fresh syncs first; the views answer the daily questions; --schema lists every column', async () => {
    const { crm } = user();
    const weighted = await crm(['query', '--fresh', 'SELECT count(*) AS deals, round(sum(weighted_value)) AS weighted FROM deals_with_stage', '--json']);
    expect(weighted.code, weighted.stderr).toBe(0);
    const deals = listAll('deals');
    const stages = new Map((ws.api('GET', '/pipeline/stages').data.stages as Array<Record<string, any>>).map((stage) => [stage.id, stage.probability]));
    expect(json(weighted)).toEqual([{ deals: deals.length, weighted: Math.round(deals.reduce((sum, deal) => sum + (deal.amount * stages.get(deal.stage)) / 100, 0)) }]);
    const open = json(await crm(['query', 'SELECT id, contact_name FROM open_tasks WHERE contact_id IS NOT NULL LIMIT 1', '--json']))[0];
    const task = ws.api('GET', `/tasks/${open.id}`).data;
    expect(open.contact_name).toBe(ws.api('GET', `/contacts/${task.contact_id}`).data.name);
    const schema = json(await crm(['query', '--schema', '--json']));
    expect(schema).toContainEqual({ table: 'deals', column: 'amount', type: 'REAL', description: 'deal value' });
    expect(schema).toContainEqual({ table: 'contacts', column: '_record', type: 'TEXT', description: expect.stringMatching(/^the record as the service sent it/) });
    expect(schema).toContainEqual(expect.objectContaining({ table: 'deals_with_stage', column: 'weighted_value' }));
    expect(schema).toContainEqual(expect.objectContaining({ table: 'changes', column: 'changes' }));
  });
});

describe('crm watch --changes', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  it('emits exactly the changes between syncs, each once, oldest first; a restart repeats none', async () => {
    const { crm, home } = user();
    const state = join(home, 'changes.json');
    const baseline = await crm(['watch', 'contacts', '--changes', '--once', '--state', state]);
    expect(baseline.code, baseline.stderr).toBe(0);
    expect(baseline.stdout).toBe('');
    const change = changeTheService();
    const first = await crm(['watch', 'contacts', '--changes', '--once', '--state', state]);
    expect(first.code, first.stderr).toBe(0);
    const events = rows(first.stdout);
    expect(events.map((event) => [event.event, event.id])).toEqual([
      ['created', change.created.id],
      ['updated', change.updated.id],
      ['deleted', change.gone.id],
    ]);
    expect(events[1].changes.title).toEqual({ before: change.updated.title ?? null, after: change.title });
    expect(events[1].changed).toContain('title');
    expect(events[2].record).toMatchObject({ id: change.gone.id, email: change.gone.email });
    const again = await crm(['watch', 'contacts', '--changes', '--once', '--state', state]);
    expect(again.stdout).toBe('');
    // The deals' watch sees the stage move, as the event RevOps asks for.
    const deals = await crm(['watch', 'deals', '--changes', '--once', '--since-start']);
    expect(rows(deals.stdout)).toEqual([]);
  });

  it('a stage move is an updated event with the stage before and after; an event whose forward failed is delivered again', async () => {
    const { crm, home } = user();
    const state = join(home, 'deals.json');
    await crm(['watch', 'deals', '--changes', '--once', '--state', state]);
    const change = changeTheService();
    const statuses = [500, 500, 500, 500];
    const deliveries: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body });
        res.writeHead(statuses.shift() ?? 200).end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
    const failed = await crm(['watch', 'deals', '--changes', '--once', '--state', state, '--forward-to', url]);
    expect(failed.code).toBe(6);
    const delivered = await crm(['watch', 'deals', '--changes', '--once', '--state', state, '--forward-to', url]);
    expect(delivered.code, delivered.stderr).toBe(0);
    const [event] = rows(delivered.stdout);
    expect(event).toMatchObject({ event: 'updated', id: change.moved.id, changes: { stage: { before: change.moved.stage, after: 'closed_won' }, status: { before: 'open', after: 'won' } } });
    const accepted = deliveries.at(-1)!;
    expect(JSON.parse(accepted.body)).toEqual(event);
    expect(accepted.headers['x-crm-event-type']).toBe('deal.updated');
    // The same event id at every attempt, in both runs: the receiver drops repeats.
    expect(new Set(deliveries.map((delivery) => delivery.headers['x-crm-event-id']))).toEqual(new Set([event.event_id]));
    expect(JSON.parse(readFileSync(state, 'utf8')).seq).toBe(event.seq);
    expect((await crm(['watch', 'deals', '--changes', '--once', '--state', state, '--forward-to', url])).stdout).toBe('');
  });

  it('--exec gets the event on stdin, and what it is in its environment', async () => {
    const { crm, home } = user();
    const state = join(home, 'exec.json');
    await crm(['watch', 'contacts', '--changes', '--once', '--state', state]);
    const change = changeTheService();
    const out = join(home, 'events');
    const result = await crm(['watch', 'contacts', '--changes', '--once', '--state', state, '--exec', `echo "$CRM_EVENT $CRM_RECORD_ID $CRM_EVENT_ID" >> ${out}`]);
    expect(result.code, result.stderr).toBe(0);
    const ids = rows(result.stdout).map((event) => event.event_id);
    expect(readFileSync(out, 'utf8')).toBe(
      [`created ${change.created.id} ${ids[0]}`, `updated ${change.updated.id} ${ids[1]}`, `deleted ${change.gone.id} ${ids[2]}`].map((line) => `${line}\n`).join(''),
    );
  });

  it('two watches on one --state: the second exits 2 naming the process that holds it, sending nothing; the lock is given back (both ran)', async () => {
    const { crm, home } = user();
    const state = join(home, 'shared.json');
    // The first waits out its hour between polls until SIGTERM, on its own signals.
    const signals = new EventEmitter();
    const first = crm(['watch', 'contacts', '--changes', '--interval', '1h', '--state', state], { live: { stdout: '', stderr: '' }, signals });
    await until(() => existsSync(state), 'the baseline');
    try {
      const before = readFileSync(state, 'utf8');
      ws.log.length = 0;
      const second = await crm(['watch', 'contacts', '--changes', '--once', '--state', state]);
      expect(second.code).toBe(2);
      expect(second.stderr).toBe(`crm: --state ${state} is in use by another crm watch (process ${process.pid})\nhint: give each watch a state file of its own; if no watch is running, delete ${state}.lock\n`);
      expect(ws.requests()).toEqual([]);
      expect(readFileSync(state, 'utf8')).toBe(before);
    } finally {
      signals.emit('SIGTERM');
    }
    expect((await first).code).toBe(0);
    expect(existsSync(`${state}.lock`)).toBe(false);
    const change = changeTheService();
    const next = await crm(['watch', 'contacts', '--changes', '--once', '--state', state]);
    expect(next.code, next.stderr).toBe(0);
    expect(rows(next.stdout).map((event) => [event.event, event.id])).toEqual([
      ['created', change.created.id],
      ['updated', change.updated.id],
      ['deleted', change.gone.id],
    ]);
  });

  it('a replica forgotten and made again while the watch runs stops it with exit 2 (it went on, and passed over the new replica\'s events, numbered from 1 again)', async () => {
    const { crm, home } = user();
    const state = join(home, 'remade.json');
    const live = { stdout: '', stderr: '' };
    const signals = new EventEmitter();
    const watch = crm(['watch', 'contacts', '--changes', '--interval', '1s', '--state', state], { live, signals });
    let ended: Awaited<typeof watch> | undefined;
    void watch.then((result) => (ended = result));
    try {
      await until(() => existsSync(state), 'the baseline');
      changeTheService();
      await until(() => rows(live.stdout).length === 3, 'the three events');
      expect(JSON.parse(readFileSync(state, 'utf8')).seq).toBeGreaterThanOrEqual(3);
      expect((await crm(['sync', '--forget'])).code).toBe(0);
      expect((await crm(['sync', 'contacts'])).code).toBe(0);
      const change = changeTheService();
      await until(() => ended !== undefined, 'the watch to stop');
      expect(ended!.code).toBe(2);
      expect(ended!.stderr).toContain(`crm: --state ${state} follows a replica that is gone (forgotten since, or made anew)`);
      // None of the new replica's events was taken for handled: a new watch of it from its start sees them.
      const next = await crm(['watch', 'contacts', '--changes', '--once', '--since-start']);
      expect(rows(next.stdout).map((event) => [event.event, event.id])).toEqual([
        ['created', change.created.id],
        ['updated', change.updated.id],
        ['deleted', change.gone.id],
      ]);
    } finally {
      if (ended === undefined) signals.emit('SIGTERM');
      await watch;
    }
  });

  it('refuses a state file of a plain watch, and --score', async () => {
    const { crm, home } = user();
    const state = join(home, 'plain.json');
    await crm(['watch', 'contacts', '--once', '--state', state]);
    ws.log.length = 0;
    const mixed = await crm(['watch', 'contacts', '--changes', '--once', '--state', state]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('is not a state file of crm watch --changes');
    const scored = await crm(['watch', 'contacts', '--changes', '--score']);
    expect(scored.code).toBe(2);
    expect(ws.requests()).toEqual([]);
  });
});

describe('a replica is of one workspace: the base URL and the key that reads it', () => {
  it('another key of the same base URL (another workspace) in the same profile: crm query refuses with nothing sent; crm sync reads a few held records with it (none there), refuses, and writes nothing', async () => {
    // Staging: another server behind the same base URL, read with a key of its own.
    const staging = await openWorkspace();
    try {
      const stagingKey = 'stg_live_0123456789abcdef0123456789abcdef';
      const only = staging.api('POST', '/contacts', { name: 'Only In Staging', email: `only-staging-${process.pid}@example.com` }).data;
      const stagingWs = { ...staging, apiKey: stagingKey, transport: (request: Parameters<typeof staging.transport>[0]) => staging.transport({ ...request, headers: { ...request.headers, 'X-Service-API-Key': request.headers['X-Service-API-Key'] === stagingKey ? staging.apiKey : 'wrong' } }) };
      const { crm, env } = user();
      // The newest contacts held, which a sync with another key asks for, are this workspace's own (staging began as a copy of its seed).
      for (const n of [1, 2, 3]) ws.api('POST', '/contacts', { name: `Only In Production ${n}`, email: `only-production-${n}-${process.pid}@example.com` });
      expect((await crm(['sync', 'contacts'])).code).toBe(0);
      const asStaging = (argv: string[]) => run(argv, { ws: stagingWs, env: { ...env, CRM_API_KEY: stagingKey } });
      // The key reads staging: it is the workspace staging's records come from.
      expect((await asStaging(['contacts', 'view', only.id, '--json'])).stdout).toContain('"name": "Only In Staging"');
      staging.log.length = 0;
      const query = await asStaging(['query', 'SELECT count(*) AS n FROM contacts', '--json']);
      expect(query.code).toBe(2);
      expect(query.stdout).toBe('');
      expect(query.stderr.split('\n')[0]).toMatch(/^crm: the replica at .*sandbox\.db holds the records another API key of http:\/\/127\.0\.0\.1:9\/api\/v1 reads \(another workspace, or this one before its key was replaced\)$/);
      expect(query.stderr.split('\n')[1]).toBe('hint: a replaced key: `crm sync` keeps the replica once the key reads its records; one replica per profile: use a profile for each workspace, or `crm sync --forget` this one first');
      expect(staging.requests()).toEqual([]);
      const synced = await asStaging(['sync', 'contacts']);
      expect(synced.code).toBe(2);
      expect(synced.stderr.split('\n')[0]).toMatch(/^crm: the replica at .* holds the records another API key of /);
      // The proof: the three newest contacts held, asked for by id; staging has none of them.
      const held = listAll('contacts').slice(0, 3).map((contact) => `GET /api/v1/contacts/${contact.id}`);
      expect(staging.requests().map((request) => `${request.method} ${request.url}`)).toEqual(held);
      expect(query.stderr + synced.stderr).not.toContain(stagingKey);
      // Its own profile's key still reads it.
      expect((await crm(['query', 'SELECT count(*) AS n FROM contacts'])).code).toBe(0);
    } finally {
      staging.close();
    }
  });

  it('a replaced key of the same workspace: crm sync reads three held records the same with it, keeps the replica for it (change events go on), and the old key is then refused', async () => {
    const { crm, env } = user();
    const replacedKey = 'sbx_live_rotated0123456789abcdef0123456789';
    // The same workspace, which now takes the new key only.
    const rotated = { ...ws, apiKey: replacedKey, transport: (request: Parameters<typeof ws.transport>[0]) => ws.transport({ ...request, headers: { ...request.headers, 'X-Service-API-Key': request.headers['X-Service-API-Key'] === replacedKey ? ws.apiKey : 'wrong' } }) };
    const withNewKey = (argv: string[]) => run(argv, { ws: rotated, env: { ...env, CRM_API_KEY: replacedKey } });
    expect((await crm(['sync', 'contacts'])).code).toBe(0);
    const before = await withNewKey(['query', 'SELECT count(*) AS n FROM contacts']);
    expect(before.code).toBe(2);
    const created = ws.api('POST', '/contacts', { name: 'After The Rotation', email: `rotated-${process.pid}@example.com` }).data;
    ws.log.length = 0;
    const synced = await withNewKey(['sync', 'contacts', '--json']);
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).toContain("The profile's API key was replaced: 3 of the replica's records read the same with the new key, so the replica is kept for it (its change events go on).");
    // Not a first sync: the one contact created since is a change, as with the old key.
    expect(json(synced)).toEqual([expect.objectContaining({ resource: 'contacts', mode: 'full', added: 1, changed: 0, removed: 0 })]);
    const proof = ws.requests().slice(0, 3);
    expect(proof.map((request) => request.method)).toEqual(['GET', 'GET', 'GET']);
    expect(proof.every((request) => /^\/api\/v1\/contacts\/[^/?]+$/.test(request.url) && !request.url.endsWith(created.id))).toBe(true);
    expect(synced.stderr).not.toContain(replacedKey);
    const after = await withNewKey(['query', 'SELECT name FROM contacts WHERE id = ?'.replace('?', `'${created.id}'`), '--json']);
    expect(after.code, after.stderr).toBe(0);
    expect(json(after)).toEqual([{ name: 'After The Rotation' }]);
    // The key it replaced reads it no more.
    expect((await crm(['query', 'SELECT count(*) AS n FROM contacts'])).code).toBe(2);
  });

  it('a replaced key that reads none of the held records the same (one differs): refused, the replica kept for the old key', async () => {
    const { crm, env } = user();
    const otherKey = 'sbx_live_counterfeit0123456789abcdef012345';
    expect((await crm(['sync', 'contacts'])).code).toBe(0);
    // A service that answers any id with a record of that id, created at another time.
    const lenient = {
      ...ws,
      apiKey: otherKey,
      transport: async (request: Parameters<typeof ws.transport>[0]) => {
        const answer = await ws.transport({ ...request, headers: { ...request.headers, 'X-Service-API-Key': ws.apiKey } });
        if (!/\/contacts\/[^/?]+$/.test(new URL(request.url).pathname)) return answer;
        const record = JSON.parse(answer.body);
        return { ...answer, body: JSON.stringify({ ...record, data: { ...record.data, created_at: '2020-01-01T00:00:00.000Z' } }) };
      },
    };
    const synced = await run(['sync', 'contacts'], { ws: lenient, env: { ...env, CRM_API_KEY: otherKey } });
    expect(synced.code).toBe(2);
    expect(synced.stderr.split('\n')[0]).toMatch(/^crm: the replica at .* holds the records another API key of /);
    expect((await crm(['query', 'SELECT count(*) AS n FROM contacts'])).code).toBe(0);
  });

  it('a replica of an older crm (no key recorded): crm query refuses until a sync makes it anew for this key', async () => {
    const { crm, replica } = user();
    expect((await crm(['sync', 'stages'])).code).toBe(0);
    const old = openDatabase(replica);
    old.exec("DELETE FROM _meta WHERE key = 'workspace_key'");
    old.close();
    const refused = await crm(['query', 'SELECT count(*) AS n FROM stages']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('crm: the replica of profile "sandbox" was made by an older crm, which did not record the API key its records were read with\nhint: `crm sync` makes it anew for this key (one full sync)\n');
    const synced = await crm(['sync', 'stages', '--json']);
    expect(synced.code).toBe(0);
    expect(json(synced)).toEqual([expect.objectContaining({ resource: 'stages', mode: 'first' })]);
    expect(synced.stderr).toContain('The replica was made by an older crm, which did not record the API key its records were read with: it is made anew for this key');
    expect((await crm(['query', 'SELECT count(*) AS n FROM stages'])).code).toBe(0);
  });
});

describe('leaving a workspace offers to forget its replica', () => {
  it('auth logout: at a terminal it asks; in a script it says where the replica is and how to delete it', async () => {
    const { crm, replica } = user({ CRM_API_KEY: '' });
    // A stored profile for the sandbox's server.
    await crm(['auth', 'login', '--base-url', BASE_URL, '--with-key'], { stdin: ws.apiKey });
    const profileReplica = replica.replace(/sandbox\.db$/, 'default.db');
    expect((await crm(['sync', 'stages'])).code).toBe(0);
    const script = await crm(['auth', 'logout']);
    expect(script.code).toBe(0);
    expect(script.stderr).toContain(`Kept the local replica of profile "default" (${profileReplica}, `);
    expect(script.stderr).toContain('`crm sync --forget --profile default` deletes it.');
    expect(statSync(profileReplica).isFile()).toBe(true);
    await crm(['auth', 'login', '--base-url', BASE_URL, '--with-key'], { stdin: ws.apiKey });
    const prompter = scriptedPrompter([true]);
    const asked = await crm(['auth', 'logout'], { tty: { stdin: true, stdout: true, stderr: true }, prompter });
    expect(asked.code).toBe(0);
    expect(prompter.asked).toEqual([expect.stringMatching(/^Also delete the local replica of profile "default"/)]);
    expect(() => statSync(profileReplica)).toThrow();
  });

  it('profiles remove: in a script the replica stays, and `crm sync --forget --profile NAME` still deletes it', async () => {
    const { crm, replica } = user({ CRM_API_KEY: '' });
    await crm(['auth', 'login', '--profile', 'staging', '--base-url', BASE_URL, '--with-key'], { stdin: ws.apiKey });
    expect((await crm(['sync', 'stages'])).code).toBe(0);
    const removed = await crm(['profiles', 'remove', 'staging', '--json']);
    expect(json(removed)).toEqual({ profile: 'staging', removed: true, active_profile: 'sandbox', replica_deleted: false });
    const path = replica.replace(/sandbox\.db$/, 'staging.db');
    expect(removed.stderr).toContain(`Kept the local replica of profile "staging" (${path}`);
    const forgotten = await crm(['sync', '--forget', '--profile', 'staging', '--json']);
    expect(json(forgotten)).toEqual({ profile: 'staging', path, deleted: true });
  });
});
