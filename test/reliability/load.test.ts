// Load: many crm processes writing the embedded sandbox at once, `crm sandbox serve` under sustained
// load, a reset while it serves, concurrent profile writes. Nothing is lost and nothing fails. The
// fast run (npm test) is small; `npm run test:reliability` runs the sizes of issue 8: 16 processes x
// 100 creates, and 30 s of load on the server.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from 'autocannon';
import { describe, expect, it } from 'vitest';
import { CRM_BIN, crm, freshHome, json } from '../helpers/crm.js';
import { capture, recordFigure } from '../helpers/evidence.js';
import { useServedSandbox } from '../helpers/fault-server.js';
import { startSandboxServe } from '../helpers/server.js';

const FULL = process.env.CRM_RELIABILITY === 'full';
const SIZE = FULL ? { writers: 16, creates: 100, loadSeconds: 30, resetWriters: 8 } : { writers: 4, creates: 5, loadSeconds: 1, resetWriters: 2 };

/** Runs crm `count` times in a row; resolves with the failures (exit code and stderr). */
function writer(env: NodeJS.ProcessEnv, count: number, args: (index: number) => string[]): Promise<string[]> {
  return new Promise((resolve) => {
    const failures: string[] = [];
    const next = (index: number) => {
      if (index >= count) return resolve(failures);
      const child = spawn(process.execPath, [CRM_BIN, ...args(index)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (code) => {
        capture(stderr, env);
        if (code !== 0 || stderr) failures.push(`exit ${code}: ${stderr.trim()}`);
        next(index + 1);
      });
    };
    next(0);
  });
}

const contactCount = async (env: NodeJS.ProcessEnv) => json(await crm(['sandbox', 'status', '--json'], { env })).contacts as number;

async function serve(env: NodeJS.ProcessEnv) {
  const served = await startSandboxServe(env);
  const url = `http://127.0.0.1:${served.port}/api/v1`;
  const headers = { 'x-service-api-key': served.apiKey, 'content-type': 'application/json' };
  return {
    url,
    apiKey: served.apiKey,
    headers,
    async create(email: string): Promise<{ status: number; id?: string }> {
      const response = await fetch(`${url}/contacts`, { method: 'POST', headers, body: JSON.stringify({ name: 'Load', email }) });
      const body = (await response.json()) as { data: { id?: string } | null };
      return { status: response.status, id: body.data?.id };
    },
    /** The ids of every contact, page by page. */
    async ids(): Promise<Set<string>> {
      const ids = new Set<string>();
      for (let offset = 0; ; offset += 50) {
        const response = await fetch(`${url}/contacts?limit=50&offset=${offset}`, { headers });
        const page = ((await response.json()) as { data: { contacts: Array<{ id: string }> } }).data.contacts;
        for (const contact of page) ids.add(contact.id);
        if (page.length < 50) return ids;
      }
    },
    async stop(): Promise<void> {
      const exited = new Promise((resolve) => served.child.on('exit', resolve));
      served.child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('the embedded sandbox', () => {
  it(`${SIZE.writers} crm processes creating ${SIZE.creates} contacts each at once: exactly ${SIZE.writers * SIZE.creates} more, no error`, async () => {
    const env = freshHome();
    await crm(['sandbox', 'init'], { env });
    const before = await contactCount(env);
    const failures = (
      await Promise.all(
        Array.from({ length: SIZE.writers }, (_, w) => writer(env, SIZE.creates, (i) => ['contacts', 'create', '--name', `Writer ${w}-${i}`, '--email', `w${w}-${i}@load.example`, '-q'])),
      )
    ).flat();
    expect(failures).toEqual([]);
    const written = (await contactCount(env)) - before;
    recordFigure('embedded records', SIZE.writers * SIZE.creates);
    recordFigure('embedded writers', SIZE.writers);
    recordFigure('records lost', SIZE.writers * SIZE.creates - written);
    expect(written).toBe(SIZE.writers * SIZE.creates);
    rmSync(env.HOME!, { recursive: true, force: true });
  }, 900_000);
});

describe('crm sandbox serve', () => {
  it(`under ${SIZE.loadSeconds} s of load answers every request without a 5xx and keeps every record`, async () => {
    const env = freshHome();
    const server = await serve(env);
    try {
      const { default: autocannon } = await import('autocannon');
      const created: string[] = [];
      let n = 0;
      const result = await new Promise<Result>((resolve, reject) =>
        autocannon(
          {
            url: server.url,
            connections: 16,
            duration: SIZE.loadSeconds,
            headers: server.headers,
            requests: [
              {
                method: 'POST',
                path: '/api/v1/contacts',
                setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: 'Load', email: `load-${n++}@load.example` }) }),
                onResponse: (status, body) => {
                  if (status === 201) created.push(JSON.parse(body).data.id);
                },
              },
              { method: 'GET', path: '/api/v1/contacts?limit=50' },
            ],
          },
          (error, outcome) => (error ? reject(error) : resolve(outcome)),
        ),
      );
      const statuses = Object.keys(result.statusCodeStats ?? {});
      expect(statuses.filter((status) => status.startsWith('5'))).toEqual([]);
      expect(result.errors).toBe(0);
      expect(result.timeouts).toBe(0);
      expect(result.non2xx).toBe(0);
      expect(created.length).toBeGreaterThan(0);
      // Every record the server confirmed is there (requests still in flight when the load stopped
      // may have added more, unconfirmed).
      const ids = await server.ids();
      const lost = created.filter((id) => !ids.has(id));
      recordFigure('served records', created.length);
      recordFigure('served seconds', SIZE.loadSeconds);
      recordFigure('records lost', lost.length);
      expect(lost).toEqual([]);
    } finally {
      await server.stop();
      rmSync(env.HOME!, { recursive: true, force: true });
    }
  }, 120_000);

  it('a reset while it serves loses nothing the server confirms afterwards', async () => {
    const env = freshHome();
    const server = await serve(env);
    const confirmed: Array<{ id: string; at: number }> = [];
    let resetDone = Infinity;
    let stop = false;
    try {
      // Writers keep creating before, during and after the reset.
      const writers = Array.from({ length: SIZE.resetWriters }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          const { status, id } = await server.create(`reset-${w}-${i}@load.example`);
          expect(status).toBe(201);
          confirmed.push({ id: id!, at: Date.now() });
        }
      });
      while (confirmed.length < 20) await new Promise((resolve) => setTimeout(resolve, 10));
      const reset = await crm(['sandbox', 'reset', '--yes', '--json'], { env });
      resetDone = Date.now();
      expect(reset.code).toBe(0);
      expect(json(reset).reset).toBe('reseeded');
      while (confirmed.filter((record) => record.at > resetDone).length < 20) await new Promise((resolve) => setTimeout(resolve, 10));
      stop = true;
      await Promise.all(writers);
    } finally {
      stop = true;
      await server.stop();
    }
    // Every record confirmed after the reset is in the database the next crm opens; the reset did
    // reset (the first records are gone).
    const listed = await crm(['contacts', 'list', '--all', '-q'], { env });
    const ids = new Set(listed.stdout.split('\n'));
    const missing = confirmed.filter((record) => record.at > resetDone && !ids.has(record.id));
    recordFigure('records lost', missing.length);
    expect(missing).toEqual([]);
    expect(ids.has(confirmed[0]!.id)).toBe(false);
    rmSync(env.HOME!, { recursive: true, force: true });
  }, 120_000);
});

describe('profiles', () => {
  const served = useServedSandbox();

  it('10 concurrent auth login --profile pN all save their profile; concurrent config set loses nothing', async () => {
    const env = freshHome();
    const { url } = served.server;
    const logins = await Promise.all(
      Array.from({ length: 10 }, (_, n) => crm(['auth', 'login', '--profile', `p${n}`, '--base-url', url, '--with-key'], { env, input: served.sandbox.apiKey })),
    );
    expect(logins.map((login) => login.code)).toEqual(Array(10).fill(0));
    // Each profile's own setting, all at once (the fast run leaves this to the logins).
    const setters = FULL ? 10 : 0;
    const settings = await Promise.all(Array.from({ length: setters }, (_, n) => crm(['--profile', `p${n}`, 'config', 'set', 'timeout', String(n + 1)], { env })));
    expect(settings.map((set) => set.code)).toEqual(Array(setters).fill(0));
    const config = JSON.parse(readFileSync(join(env.XDG_CONFIG_HOME!, 'crm', 'config.json'), 'utf8'));
    expect(Object.keys(config.profiles).sort()).toEqual(Array.from({ length: 10 }, (_, n) => `p${n}`).sort());
    for (let n = 0; n < 10; n++) {
      expect(config.profiles[`p${n}`]).toEqual({ base_url: url, api_key: served.sandbox.apiKey, ...(n < setters ? { timeout: n + 1 } : {}) });
    }
    recordFigure('records lost', 10 - Object.keys(config.profiles).length);
    rmSync(env.HOME!, { recursive: true, force: true });
  });
});
