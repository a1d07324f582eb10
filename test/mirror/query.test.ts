// crm query's engine: one statement that reads, on a read-only connection; a write refused before or
// by SQLite, the replica unchanged; SQL errors of one line saying where.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MirrorError } from '../../src/mirror/errors.js';
import { runQuery } from '../../src/mirror/query.js';
import { Replica, keyFingerprint } from '../../src/mirror/replica.js';
import { openDatabase } from '../../src/sqlite/database.js';

const dir = mkdtempSync(join(tmpdir(), 'crm-query-'));
const path = join(dir, 'default.db');
let replica: Replica;

beforeAll(() => {
  Replica.openForSync(path, { baseUrl: 'https://crm.example.com/api/v1', key: keyFingerprint('https://crm.example.com/api/v1', 'key') }).close();
  const db = openDatabase(path);
  db.exec(`INSERT INTO contacts (id, _record, _synced_at) VALUES ('con_1', '{"id":"con_1","name":"Ada","email":"ada@example.com"}', '2026-01-01T00:00:00Z')`);
  db.close();
  replica = Replica.openForReading(path)!;
});
afterAll(() => {
  replica.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = (sql: string) => [...runQuery(replica, sql).rows];
function failure(sql: string): MirrorError {
  try {
    rows(sql);
  } catch (error) {
    expect(error).toBeInstanceOf(MirrorError);
    return error as MirrorError;
  }
  throw new Error(`no failure for ${sql}`);
}

describe('crm query', () => {
  it('a timestamp the service sent as an epoch number (seconds or milliseconds) is ISO 8601 text in its column: it sorts and compares with text ones', () => {
    const file = join(dir, 'epochs.db');
    Replica.openForSync(file, { baseUrl: 'https://crm.example.com/api/v1', key: keyFingerprint('https://crm.example.com/api/v1', 'key') }).close();
    const db = openDatabase(file);
    const insert = db.prepare('INSERT INTO contacts (id, _record, _synced_at) VALUES (?, ?, ?)');
    insert.run('con_s', JSON.stringify({ id: 'con_s', created_at: 1795723200, updated_at: 1795723200.5 }), '2026-11-26T21:00:00Z');
    insert.run('con_ms', JSON.stringify({ id: 'con_ms', created_at: 1795636800123 }), '2026-11-26T21:00:00Z');
    insert.run('con_iso', JSON.stringify({ id: 'con_iso', created_at: '2026-11-26T08:00:00.000Z' }), '2026-11-26T21:00:00Z');
    db.close();
    const epochs = Replica.openForReading(file)!;
    try {
      const read = (sql: string) => [...runQuery(epochs, sql).rows];
      expect(read('SELECT id, created_at, updated_at FROM contacts ORDER BY created_at')).toEqual([
        { id: 'con_ms', created_at: '2026-11-25T20:00:00.123Z', updated_at: null },
        { id: 'con_iso', created_at: '2026-11-26T08:00:00.000Z', updated_at: null },
        { id: 'con_s', created_at: '2026-11-26T20:00:00.000Z', updated_at: '2026-11-26T20:00:00.500Z' },
      ]);
      expect(read("SELECT id FROM contacts WHERE created_at >= '2026-11-26' ORDER BY id")).toEqual([{ id: 'con_iso' }, { id: 'con_s' }]);
    } finally {
      epochs.close();
    }
  });

  it('a due or close date the service sent as an epoch number is ISO 8601 text in its column too: it sorts and compares with dates sent as text', () => {
    const file = join(dir, 'epoch-dates.db');
    Replica.openForSync(file, { baseUrl: 'https://crm.example.com/api/v1', key: keyFingerprint('https://crm.example.com/api/v1', 'key') }).close();
    const db = openDatabase(file);
    const task = db.prepare('INSERT INTO tasks (id, _record, _synced_at) VALUES (?, ?, ?)');
    task.run('task_s', JSON.stringify({ id: 'task_s', due_date: 1795723200 }), '2026-11-26T21:00:00Z');
    task.run('task_ms', JSON.stringify({ id: 'task_ms', due_date: 1795636800123 }), '2026-11-26T21:00:00Z');
    task.run('task_text', JSON.stringify({ id: 'task_text', due_date: '2026-11-26' }), '2026-11-26T21:00:00Z');
    db.prepare('INSERT INTO deals (id, _record, _synced_at) VALUES (?, ?, ?)').run('deal_s', JSON.stringify({ id: 'deal_s', close_date: 1795723200 }), '2026-11-26T21:00:00Z');
    db.close();
    const epochs = Replica.openForReading(file)!;
    try {
      const read = (sql: string) => [...runQuery(epochs, sql).rows];
      expect(read('SELECT id, due_date FROM tasks ORDER BY due_date')).toEqual([
        { id: 'task_ms', due_date: '2026-11-25T20:00:00.123Z' },
        { id: 'task_text', due_date: '2026-11-26' },
        { id: 'task_s', due_date: '2026-11-26T20:00:00.000Z' },
      ]);
      expect(read("SELECT id FROM tasks WHERE due_date >= '2026-11-26' ORDER BY id")).toEqual([{ id: 'task_s' }, { id: 'task_text' }]);
      expect(read('SELECT close_date FROM deals')).toEqual([{ close_date: '2026-11-26T20:00:00.000Z' }]);
    } finally {
      epochs.close();
    }
  });

  it('reads, with the columns named even when no row comes back', () => {
    expect(rows('SELECT id, name, email FROM contacts')).toEqual([{ id: 'con_1', name: 'Ada', email: 'ada@example.com' }]);
    const empty = runQuery(replica, "SELECT id, name AS who FROM contacts WHERE id = 'none';");
    expect([...empty.rows]).toEqual([]);
    // node:sqlite before Node 22.16 cannot name them; every other binding can.
    if (empty.columns.length > 0) expect(empty.columns).toEqual(['id', 'who']);
  });

  it('gives an integer past 2^53 as its exact digits and a blob as hex, on both bindings alike (better-sqlite3 rounded and gave a Buffer; node:sqlite refused the row)', () => {
    expect(rows("SELECT 9223372036854775807 AS big, -9223372036854775808 AS small, 9007199254740993 AS past, 9007199254740991 AS exact, 42 AS n, 1.5 AS r, x'00ff41' AS b, json_extract('{\"id\": 12345678901234567}', '$.id') AS id")).toEqual([
      { big: '9223372036854775807', small: '-9223372036854775808', past: '9007199254740993', exact: 9007199254740991, n: 42, r: 1.5, b: '00FF41', id: '12345678901234567' },
    ]);
  });

  it.each([
    ['INSERT INTO contacts (id, _record, _synced_at) VALUES (1, 2, 3)'],
    ["UPDATE contacts SET _record = '{}'"],
    ['DELETE FROM contacts'],
    ['DROP TABLE contacts'],
    ["WITH gone AS (SELECT id FROM contacts) DELETE FROM contacts WHERE id IN gone"],
    ["ATTACH 'elsewhere.db' AS x"],
    ['PRAGMA user_version = 7'],
    ['PRAGMA journal_mode = DELETE'],
    ['pragma main.journal_mode=memory'],
    ['PRAGMA journal_mode(DELETE)'],
    ['CREATE TEMP TABLE scratch (a)'],
  ])('refuses a write, exit 2, the replica unchanged: %s', (sql) => {
    const before = statSync(path).mtimeMs;
    const error = failure(sql);
    expect(error.usage).toBe(true);
    expect(error.message).toMatch(/^the replica is read-only: /);
    expect(rows('SELECT count(*) AS n FROM contacts')).toEqual([{ n: 1 }]);
    expect(rows('PRAGMA user_version')).toEqual([{ user_version: 0 }]);
    expect(statSync(path).mtimeMs).toBe(before);
  });

  it('creates no file for VACUUM INTO', () => {
    const target = join(dir, 'copy.db');
    expect(failure(`VACUUM INTO '${target}'`).usage).toBe(true);
    expect(existsSync(target)).toBe(false);
  });

  it.each([
    ['SELEC * FROM contacts', 'SQL: near "SELEC": syntax error (line 1, column 1)', 'did you mean SELECT?'],
    ['\n  slect id FROM contacts', 'SQL: near "slect": syntax error (line 2, column 3)', 'did you mean SELECT?'],
    ['SHOW TABLES', 'SQL: near "SHOW": syntax error (line 1, column 1)', '`crm query --schema` lists the tables, views and columns'],
    ['DESCRIBE contacts', 'SQL: near "DESCRIBE": syntax error (line 1, column 1)', '`crm query --schema` lists the tables, views and columns'],
    ['GRANT ALL ON contacts', 'SQL: near "GRANT": syntax error (line 1, column 1)', 'a statement that reads begins with SELECT, WITH, VALUES, EXPLAIN, PRAGMA'],
  ])('a word that begins no statement (%s) is a syntax error with the way out, not a write refused', (sql, message, hint) => {
    const error = failure(sql);
    expect(error.usage).toBe(true);
    expect(error.message).toBe(message);
    expect(error.hint).toBe(hint);
  });

  it('says where a syntax error is in a long generated statement with a few prepares (it tried each place the token occurs: minutes for 20,000)', () => {
    const values = Array.from({ length: 5000 }, (_, index) => index).join(',');
    const sql = `SELECT id FROM contacts WHERE id IN (${values},,1)`;
    const prepare = vi.spyOn(replica.db, 'prepare');
    try {
      expect(failure(sql).message).toBe(`SQL: near ",": syntax error (line 1, column ${sql.indexOf(',,') + 2})`);
      expect(prepare.mock.calls.length).toBeLessThan(50);
    } finally {
      prepare.mockRestore();
    }
  });

  it('says where a syntax error is, in one line', () => {
    expect(failure('SELECT * FORM contacts').message).toBe('SQL: near "FORM": syntax error (line 1, column 10)');
    expect(failure('SELECT id,\n  name\nFROM contacts WHERE id = = 1').message).toBe('SQL: near "=": syntax error (line 3, column 26)');
    expect(failure("SELECT 'unclosed FROM contacts").message).toBe('SQL: unrecognized token: "\'unclosed FROM contacts" (line 1, column 8)');
    expect(failure('SELECT id FROM contacts WHERE').message).toBe('SQL: incomplete input (line 1, column 30)');
  });

  it('says where a name it does not know is, with a hint', () => {
    const column = failure('SELECT id, nmae FROM contacts');
    expect(column.message).toBe('SQL: no such column: nmae (line 1, column 12)');
    expect(column.hint).toMatch(/crm query --schema/);
    expect(failure('SELECT * FROM contact').message).toBe('SQL: no such table: contact (line 1, column 15)');
  });

  it('runs one statement at a time; trailing semicolons and comments are fine', () => {
    expect(rows('SELECT 1 AS one; -- done\n;')).toEqual([{ one: 1 }]);
    expect(rows("SELECT ';' AS semi")).toEqual([{ semi: ';' }]);
    expect(failure('SELECT 1; DELETE FROM contacts').message).toBe('crm query runs one statement; another begins at line 1, column 11');
    expect(failure('  -- nothing\n').message).toBe('the query is empty');
  });

  it('refuses two result columns of one name, which rows would merge', () => {
    const { columns } = runQuery(replica, 'SELECT 1');
    if (columns.length === 0) return;
    expect(failure('SELECT id, id FROM contacts').message).toBe('two result columns are named "id"');
  });

  it('refuses a result column named __proto__, which a row object cannot hold (it printed nothing for it, exit 0)', () => {
    const { columns } = runQuery(replica, 'SELECT 1');
    if (columns.length === 0) return;
    const refused = failure("SELECT json_extract(_record, '$.name') AS __proto__, id FROM contacts");
    expect(refused.message).toBe('a result column is named "__proto__", which no row can hold as a field');
    expect(refused.usage).toBe(true);
  });
});
