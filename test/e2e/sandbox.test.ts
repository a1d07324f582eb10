// The embedded default and `crm sandbox ...`: zero set-up on a fresh home, the one-time notice on a
// terminal, init/status/reset, serve over loopback HTTP. Concurrent crm processes: test/reliability/load.test.ts.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRM_BIN, crm, freshHome, json } from '../helpers/crm.js';
import { crmPty } from '../helpers/pty.js';

const dbPath = (home: NodeJS.ProcessEnv) => join(home.XDG_DATA_HOME!, 'crm', 'sandbox.db');

describe('the embedded default', () => {
  it('a fresh install lists demo contacts at once, through the same core, with nothing configured', async () => {
    const home = freshHome();
    const result = await crm(['contacts', 'list', '--json'], { env: home });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(''); // the notice is for terminals only
    const contacts = json(result);
    expect(contacts).toHaveLength(20);
    expect(contacts[0]).toMatchObject({ id: expect.stringMatching(/^con_/), email: expect.stringContaining('@') });
    expect(existsSync(dbPath(home))).toBe(true);
    const debug = await crm(['contacts', 'list', '--limit', '1', '--debug'], { env: home });
    expect(debug.stderr).toContain('> GET sandbox://local/api/v1/contacts?limit=1');
    expect(debug.stderr).toMatch(/X-Service-API-Key: \*\*\*\*\w{4}/);
  });

  it('writes go to the local database and persist across processes', async () => {
    const home = freshHome();
    const created = await crm(['contacts', 'create', '--name', 'Local Person', '--email', 'local@example.com', '-q'], { env: home });
    expect(created.code).toBe(0);
    const id = created.stdout.trim();
    const got = await crm(['contacts', 'get', id, '--json'], { env: home });
    expect(json(got)).toMatchObject({ id, name: 'Local Person' });
    expect((await crm(['contacts', 'delete', id, '--yes'], { env: home })).code).toBe(0);
    expect((await crm(['contacts', 'get', id], { env: home })).code).toBe(4);
  });

  it('says once on a terminal that this is the local sandbox and how to connect a real workspace', async () => {
    const home = freshHome();
    const first = crmPty(['contacts', 'list', '--limit', '1'], home);
    expect(await first.exit()).toBe(0);
    expect(first.screen()).toContain('Using the local sandbox workspace');
    expect(first.screen()).toContain('crm auth login --base-url');
    const second = crmPty(['contacts', 'list', '--limit', '1'], home);
    expect(await second.exit()).toBe(0);
    expect(second.screen()).not.toContain('Using the local sandbox workspace');
  });

  it('auth status reports the sandbox and its working key', async () => {
    const result = await crm(['auth', 'status', '--json'], { env: freshHome() });
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ profile: 'sandbox', base_url: 'sandbox (local)', key_source: 'sandbox', works: true });
  });
});

describe('crm sandbox init, status, reset', () => {
  it('manages the local database', async () => {
    const home = freshHome();
    const empty = await crm(['sandbox', 'status', '--json'], { env: home });
    expect(json(empty)).toEqual({ path: dbPath(home), exists: false });

    const init = await crm(['sandbox', 'init', '--json'], { env: home });
    expect(init.code).toBe(0);
    const status = json(init);
    expect(status).toMatchObject({ path: dbPath(home), exists: true, sqlite: expect.stringMatching(/^(node:sqlite|better-sqlite3)$/), api_key: expect.stringMatching(/^sbx_test_\w{32}$/) });
    expect(status.contacts).toBeGreaterThanOrEqual(45);
    for (const key of ['accounts', 'deals', 'sequences', 'tasks', 'notes', 'suggestions']) expect(status[key]).toBeGreaterThan(0);

    const again = await crm(['sandbox', 'init', '--json'], { env: home });
    expect(again.stderr).toContain('already exists');
    expect(json(again).api_key).toBe(status.api_key);
    const extra = await crm(['contacts', 'create', '--name', 'Gone Soon', '--email', 'gone-soon@example.com', '-q'], { env: home });
    const forced = await crm(['sandbox', 'init', '--force', '--json'], { env: home });
    // Fresh demo data in place; the local key stays.
    expect(json(forced)).toMatchObject({ api_key: status.api_key, contacts: status.contacts });
    expect((await crm(['contacts', 'get', extra.stdout.trim()], { env: home })).code).toBe(4);

    const refused = await crm(['sandbox', 'reset'], { env: home });
    expect(refused.code).toBe(2);
    await crm(['contacts', 'create', '--name', 'Gone Too', '--email', 'gone-too@example.com'], { env: home });
    const reset = await crm(['sandbox', 'reset', '--yes', '--json'], { env: home });
    expect(reset.code).toBe(0);
    expect(json(reset)).toEqual({ path: dbPath(home), reset: 'reseeded' });
    expect(json(await crm(['sandbox', 'status', '--json'], { env: home }))).toMatchObject({ api_key: status.api_key, contacts: status.contacts });

    const fresh = freshHome();
    const absent = await crm(['sandbox', 'reset', '--yes', '--json'], { env: fresh });
    expect(json(absent)).toEqual({ path: dbPath(fresh), reset: 'absent' });
    expect(existsSync(dbPath(fresh))).toBe(false);
  });
});

describe('crm sandbox serve', () => {
  it('serves the sandbox on 127.0.0.1 for other tools and for crm itself; stops on SIGTERM', async () => {
    const home = freshHome();
    const child = spawn(process.execPath, [CRM_BIN, 'sandbox', 'serve', '--port', '0', '-o', 'ndjson'], { env: home });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const info = await new Promise<{ url: string; api_key: string; port: number }>((resolve) => {
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
        if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0]!));
      });
    });
    try {
      expect(info.url).toBe(`http://127.0.0.1:${info.port}/api/v1`);
      const unauthorised = await fetch(`${info.url}/contacts`);
      expect(unauthorised.status).toBe(401);
      expect(await unauthorised.json()).toEqual({ data: null, error: 'Missing API key' });
      const list = await crm(['contacts', 'list', '--limit', '2', '--json'], { env: { ...freshHome(), CRM_BASE_URL: info.url, CRM_API_KEY: info.api_key } });
      expect(list.code).toBe(0);
      expect(json(list)).toHaveLength(2);
      expect(stderr).toContain(`Sandbox serving at ${info.url}`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
  });

  it('a port in use is a usage error suggesting --port 0', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await crm(['sandbox', 'serve', '--port', String(port)], { env: freshHome() });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`crm: port ${port} is in use\nhint: pick another with --port N, or --port 0 for a free one\n`);
    } finally {
      blocker.close();
    }
  });

  it('rejects a bad --port before starting', async () => {
    const result = await crm(['sandbox', 'serve', '--port', '70000'], { env: freshHome() });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: invalid --port "70000" (expected an integer between 0 and 65535)');
  });
});
