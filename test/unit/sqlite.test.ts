// The local database interface on each SQLite binding this Node can load: the same calls, the same
// answers, the same transactions and locks. A binding this Node cannot load is skipped, saying why
// (node:sqlite before Node 22.13; better-sqlite3 when not installed or built for another Node);
// `.ci/run` runs the suite on Node 20 (better-sqlite3) and Node 24 (both).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSandbox } from '../../src/sandbox/index.js';
import { DRIVERS, SqliteUnavailableError, isBusyError, openDatabase, type Database, type Driver } from '../../src/sqlite/database.js';

const dir = mkdtempSync(join(tmpdir(), 'crm-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Why this Node cannot use the binding, or undefined when it can. */
function unusable(driver: Driver): string | undefined {
  try {
    openDatabase(':memory:', { driver }).close();
    return undefined;
  } catch (error) {
    if (error instanceof SqliteUnavailableError) return error.message;
    throw error;
  }
}

let serial = 0;
const fresh = (driver: Driver, name = 'db') => join(dir, `${driver.replace(':', '-')}-${name}-${++serial}.db`);

describe('the binding crm picks', () => {
  it('is node:sqlite where Node has it built in, else better-sqlite3 (or the one CRM_SQLITE names)', () => {
    const builtIn = process.getBuiltinModule?.('node:sqlite') !== undefined;
    const expected = process.env.CRM_SQLITE || (builtIn ? 'node:sqlite' : 'better-sqlite3');
    const db = openDatabase(':memory:');
    expect(db.driver).toBe(expected);
    db.close();
  });
});

for (const driver of DRIVERS) {
  const reason = unusable(driver);
  describe.skipIf(reason !== undefined)(`on ${driver}${reason ? ` (skipped: ${reason})` : ''}`, () => {
    const open = (path: string, options: Parameters<typeof openDatabase>[1] = {}): Database => openDatabase(path, { ...options, driver });

    it('prepares, runs, gets, lists and iterates, with positional and named values', () => {
      const db = open(fresh(driver));
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL, blob BLOB)');
      const insert = db.prepare('INSERT INTO t (name, score, blob) VALUES (?, ?, ?)');
      expect(insert.run('ada', 1.5, null)).toEqual({ changes: 1, lastInsertRowid: 1 });
      expect(insert.run('bob', null, new Uint8Array([1, 2]))).toEqual({ changes: 1, lastInsertRowid: 2 });
      expect({ ...(db.prepare('SELECT name, score FROM t WHERE name = @name').get({ name: 'ada' }) as object) }).toEqual({ name: 'ada', score: 1.5 });
      expect(db.prepare('SELECT name FROM t WHERE id = ?').get(99)).toBeUndefined();
      expect(db.prepare('SELECT name FROM t ORDER BY id').all().map((row) => (row as { name: string }).name)).toEqual(['ada', 'bob']);
      expect([...db.prepare('SELECT id FROM t ORDER BY id DESC').iterate()].map((row) => (row as { id: number }).id)).toEqual([2, 1]);
      expect(Buffer.from((db.prepare('SELECT blob FROM t WHERE id = 2').get() as { blob: Uint8Array }).blob)).toEqual(Buffer.from([1, 2]));
      db.close();
    });

    it('commits a transaction that returns, rolls back one that throws, and nests as savepoints', () => {
      const db = open(fresh(driver));
      db.exec('CREATE TABLE t (n INTEGER)');
      const add = (n: number) => db.prepare('INSERT INTO t VALUES (?)').run(n);
      const all = () => db.prepare('SELECT n FROM t ORDER BY n').all().map((row) => (row as { n: number }).n);
      expect(db.transaction(() => (add(1), 'kept'), 'immediate')).toBe('kept');
      expect(() =>
        db.transaction(() => {
          add(2);
          throw new Error('undo');
        }),
      ).toThrow('undo');
      db.transaction(() => {
        add(3);
        expect(() =>
          db.transaction(() => {
            add(4);
            throw new Error('inner only');
          }),
        ).toThrow('inner only');
        db.transaction(() => add(5));
      });
      expect(all()).toEqual([1, 3, 5]);
      db.close();
    });

    it('enforces foreign keys, and waits for a lock no longer than the busy timeout', () => {
      const path = fresh(driver);
      const writer = open(path);
      writer.exec('PRAGMA journal_mode = WAL; CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parent INTEGER REFERENCES parent (id))');
      expect(() => writer.prepare('INSERT INTO child VALUES (7)').run()).toThrow(/FOREIGN KEY/);
      const other = open(path, { busyTimeoutMs: 0 });
      writer.transaction(() => {
        let caught: unknown;
        try {
          other.transaction(() => undefined, 'immediate');
        } catch (error) {
          caught = error;
        }
        expect(isBusyError(caught)).toBe(true);
      }, 'immediate');
      expect(other.transaction(() => 'free now', 'immediate')).toBe('free now');
      writer.close();
      other.close();
    });

    it('opens read-only: reads work, writes fail, and a missing file is not created', () => {
      const path = fresh(driver);
      const db = open(path);
      db.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1)');
      db.close();
      const reader = open(path, { readOnly: true });
      expect(reader.readOnly).toBe(true);
      expect(reader.prepare('SELECT COUNT(*) AS n FROM t').get()).toMatchObject({ n: 1 });
      expect(() => reader.exec('INSERT INTO t VALUES (2)')).toThrow(/readonly/);
      reader.close();
      const missing = fresh(driver, 'missing');
      expect(() => open(missing, { readOnly: true })).toThrow();
      expect(() => statSync(missing)).toThrow();
    });

    it('creates an owner-only file when asked', () => {
      const path = join(dir, `private-${++serial}`, 'x.db');
      open(path, { ownerOnly: true }).close();
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    });

    it('runs the sandbox', async () => {
      const sandbox = await openSandbox({ dbPath: fresh(driver, 'sandbox'), driver });
      try {
        expect(sandbox.driver).toBe(driver);
        const created = sandbox.handle({ method: 'POST', url: '/api/v1/contacts', headers: { 'x-service-api-key': sandbox.apiKey }, body: JSON.stringify({ name: 'On ' + driver, email: 'binding@example.com' }) });
        expect(created.status).toBe(201);
        const listed = sandbox.handle({ method: 'GET', url: '/api/v1/contacts?search=binding%40example.com', headers: { 'x-service-api-key': sandbox.apiKey }, body: '' });
        expect(JSON.parse(listed.body).data.total).toBe(1);
        expect(sandbox.counts().contacts).toBe(51);
      } finally {
        sandbox.close();
      }
    });
  });
}
