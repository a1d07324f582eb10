import { openDatabase } from '../../src/sqlite/database.js';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheDir, sandboxPath as defaultSandboxPath } from '../../src/config/paths.js';
import { configPath } from '../../src/config/store.js';
import { openSandbox, resetSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { homeEnv, run } from '../helpers/inprocess.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'crm-sandbox-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function readOnly<T>(path: string, sql: string): T {
  const db = openDatabase(path, { readOnly: true });
  try {
    return db.prepare(sql).get() as T;
  } finally {
    db.close();
  }
}

describe('the database file', () => {
  it.skipIf(process.platform === 'win32')('is created owner-only (0600) in an owner-only (0700) directory, with WAL', async () => {
    const dbPath = join(dir, 'nested', 'crm', 'sandbox.db');
    const sandbox = await openSandbox({ dbPath });
    try {
      sandbox.handle({ method: 'POST', url: '/api/v1/accounts', headers: { 'x-service-api-key': sandbox.apiKey }, body: '{"name":"Mode"}' });
      expect(statSync(dbPath).mode & 0o777).toBe(0o600);
      expect(statSync(`${dbPath}-wal`).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'nested', 'crm')).mode & 0o777).toBe(0o700);
      expect(sandbox.dbPath).toBe(dbPath);
    } finally {
      sandbox.close();
    }
    expect(readOnly<{ journal_mode: string }>(dbPath, 'PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
    expect(readOnly<{ user_version: number }>(dbPath, 'PRAGMA user_version').user_version).toBeGreaterThan(0);
  });

  it('is seeded once with the demo workspace, and keeps its key when reopened', async () => {
    const dbPath = join(dir, 'sandbox.db');
    const first = await openSandbox({ dbPath });
    const counts = first.counts();
    expect(counts).toEqual({ contacts: 50, accounts: 15, deals: 25, sequences: 4, tasks: 40, notes: 60, suggestions: 8 });
    const headers = { 'x-service-api-key': first.apiKey };
    first.handle({ method: 'POST', url: '/api/v1/contacts', headers, body: '{"name":"Kept","email":"kept@example.com"}' });
    first.close();

    const second = await openSandbox({ dbPath });
    try {
      expect(second.apiKey).toBe(first.apiKey);
      expect(second.counts()).toEqual({ ...counts, contacts: 51 });
    } finally {
      second.close();
    }
    const seeded = readOnly<{ emails: number; enrollments: number; activities: number; lists: number; members: number }>(
      dbPath,
      `SELECT (SELECT COUNT(*) FROM emails) AS emails, (SELECT COUNT(*) FROM enrollments) AS enrollments,
        (SELECT COUNT(*) FROM deal_activities) AS activities, (SELECT COUNT(*) FROM lists) AS lists,
        (SELECT COUNT(*) FROM list_members) AS members`,
    );
    expect(seeded.emails).toBeGreaterThanOrEqual(150);
    expect(seeded.enrollments).toBeGreaterThanOrEqual(30);
    expect(seeded.activities).toBeGreaterThanOrEqual(25);
    expect(seeded.lists).toBe(3);
    expect(seeded.members).toBeGreaterThan(10);
  });

  it('seeds the same workspace every time, relative to now', async () => {
    const at = new Date('2031-06-15T12:00:00.000Z');
    const names = async (dbPath: string, now: Date) => {
      const sandbox = await openSandbox({ dbPath, now: () => now });
      try {
        const page = JSON.parse(sandbox.handle({ method: 'GET', url: '/api/v1/deals?limit=50', headers: { 'x-service-api-key': sandbox.apiKey }, body: '' }).body);
        return page.data.deals.map((deal: { id: string; name: string; amount: number; created_at: string }) => [deal.id, deal.name, deal.amount, deal.created_at]);
      } finally {
        sandbox.close();
      }
    };
    const first = await names(join(dir, 'one.db'), at);
    expect(await names(join(dir, 'two.db'), at)).toEqual(first);
    const later = await names(join(dir, 'three.db'), new Date(at.getTime() + 86_400_000));
    expect(later.map((deal: unknown[]) => deal.slice(0, 3))).toEqual(first.map((deal: unknown[]) => deal.slice(0, 3)));
    expect(Date.parse(later[0][3]) - Date.parse(first[0][3])).toBe(86_400_000);
    for (const deal of first) expect(deal[3] <= at.toISOString()).toBe(true);
  });

  it('starts empty with seed: false, pipeline stages included', async () => {
    const sandbox = await openSandbox({ dbPath: join(dir, 'empty.db'), seed: false });
    try {
      expect(sandbox.counts()).toEqual({ contacts: 0, accounts: 0, deals: 0, sequences: 0, tasks: 0, notes: 0, suggestions: 0 });
      const stages = JSON.parse(sandbox.handle({ method: 'GET', url: '/api/v1/pipeline/stages', headers: { 'x-service-api-key': sandbox.apiKey }, body: '' }).body);
      expect(stages.data.total).toBe(6);
      expect(sandbox.catchUpScoringAgent()).toBe(true);
      expect(sandbox.runScoringAgent()).toEqual({ scored: 0, suggestions: 0 });
    } finally {
      sandbox.close();
    }
  });

  it('is reset in place: fresh demo data, the same key, and a connection open across the reset loses nothing', async () => {
    const dbPath = join(dir, 'sandbox.db');
    const create = (sandbox: Sandbox, name: string) =>
      JSON.parse(sandbox.handle({ method: 'POST', url: '/api/v1/accounts', headers: { 'x-service-api-key': sandbox.apiKey }, body: JSON.stringify({ name }) }).body).data.id as string;
    // `crm sandbox serve` holds its connection open while another crm resets the sandbox.
    const serving = await openSandbox({ dbPath });
    const before = create(serving, 'Before the reset');
    expect(await resetSandbox(dbPath)).toBe('reseeded');
    const after = create(serving, 'After the reset');
    serving.close();

    const reopened = await openSandbox({ dbPath });
    try {
      expect(reopened.apiKey).toBe(serving.apiKey);
      expect(reopened.counts().accounts).toBe(16);
      const get = (id: string) => reopened.handle({ method: 'GET', url: `/api/v1/accounts/${id}`, headers: { 'x-service-api-key': reopened.apiKey }, body: '' }).status;
      expect(get(before)).toBe(404);
      expect(get(after)).toBe(200);
    } finally {
      reopened.close();
    }
  });

  it('a database that cannot be opened is deleted by resetSandbox; a missing one is left alone', async () => {
    const dbPath = join(dir, 'sandbox.db');
    expect(await resetSandbox(dbPath)).toBe('absent');
    expect(existsSync(dbPath)).toBe(false);
    writeFileSync(dbPath, 'not a database, '.repeat(512));
    expect(await resetSandbox(dbPath)).toBe('deleted');
    expect(existsSync(dbPath)).toBe(false);
    const fresh = await openSandbox({ dbPath });
    expect(fresh.counts().accounts).toBe(15);
    fresh.close();
  });
});

describe('a directory crm cannot create (a container whose HOME does not exist)', () => {
  it('is one line naming the directory and why, with a hint to set CRM_DATA_DIR; exit 1; --json gives the error object', async () => {
    // A file where a directory should be: refused to every user, root too (EACCES is not).
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, '');
    const env = { ...homeEnv(dir), XDG_DATA_HOME: join(blocker, 'share') };
    const result = await run(['contacts', 'list'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `crm: cannot create the sandbox's directory ${join(blocker, 'share', 'crm')}: a part of the path is a file, not a directory\n` +
        'hint: set CRM_DATA_DIR to a directory crm can write (the sandbox and the replicas of crm sync live there)\n',
    );
    const asJson = await run(['sync', '--json'], { env: { ...env, CRM_DATA_DIR: join(blocker, 'data') } });
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({ code: 'data_dir', exit_code: 1 });
  });

  it('the configuration\'s: crm config set is one line naming it and why, with a hint to set CRM_CONFIG_DIR; exit 1', async () => {
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, '');
    const result = await run(['config', 'set', 'output', 'json'], { env: { ...homeEnv(dir), XDG_CONFIG_HOME: join(blocker, 'config') } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `crm: cannot create the configuration's directory ${join(blocker, 'config', 'crm')}: a part of the path is a file, not a directory\n` +
        'hint: set CRM_CONFIG_DIR to a directory crm can write\n',
    );
  });

  it('a configuration file crm cannot read is worded as every file crm cannot use: the path and why, in one line (not Node\'s "EISDIR: illegal operation on a directory, read")', async () => {
    const config = join(dir, 'config');
    mkdirSync(join(config, 'crm', 'config.json'), { recursive: true });
    const result = await run(['config', 'list'], { env: { ...homeEnv(dir), XDG_CONFIG_HOME: config } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`crm: cannot read ${join(config, 'crm', 'config.json')}: is a directory\n`);
  });
});

describe('sandboxPath', () => {
  it('prefers CRM_DATA_DIR, then XDG_DATA_HOME, then the platform data directory', () => {
    expect(defaultSandboxPath({ CRM_DATA_DIR: '/data/crm', XDG_DATA_HOME: '/xdg' })).toBe(join('/data/crm', 'sandbox.db'));
    expect(defaultSandboxPath({ XDG_DATA_HOME: '/xdg' })).toBe(join('/xdg', 'crm', 'sandbox.db'));
    expect(defaultSandboxPath({ CRM_DATA_DIR: '', XDG_DATA_HOME: '' })).toBe(defaultSandboxPath({}));
    // A relative XDG path is invalid (the XDG spec): ignored, never a folder under the working directory.
    expect(defaultSandboxPath({ XDG_DATA_HOME: 'xdg' })).toBe(defaultSandboxPath({}));
    expect(configPath({ XDG_CONFIG_HOME: 'xdg' })).toBe(configPath({}));
    expect(configPath({ XDG_CONFIG_HOME: '/xdg' })).toBe(join('/xdg', 'crm', 'config.json'));
    expect(cacheDir({ XDG_CACHE_HOME: './xdg' })).toBe(cacheDir({}));
    const expected = {
      darwin: join(homedir(), 'Library', 'Application Support', 'crm', 'sandbox.db'),
      win32: join(homedir(), 'AppData', 'Local', 'crm', 'sandbox.db'),
    }[process.platform as string] ?? join(homedir(), '.local', 'share', 'crm', 'sandbox.db');
    expect(defaultSandboxPath({})).toBe(expected);
    // The environment's HOME, as os.homedir() reads it (not the process's own, which it was).
    if (process.platform !== 'win32') {
      expect(defaultSandboxPath({ HOME: '/home/someone' })).toBe(join('/home/someone', '.local', 'share', 'crm', 'sandbox.db'));
      expect(cacheDir({ HOME: '/home/someone' })).toBe(join('/home/someone', '.cache', 'crm'));
      expect(configPath({ HOME: '' })).toBe(configPath({}));
    }
  });
});
