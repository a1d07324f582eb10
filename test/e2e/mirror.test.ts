// crm sync in a process: Ctrl-C (SIGINT) and SIGKILL while a table is read leave the replica as the
// last sync left it (the tables committed before stay), and the next sync finds every change, nothing
// lost (over the network transport, against the test server). crm query in a process: a statement
// without end is ended by Ctrl-C and SIGTERM, and its output's reader going away ends it.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PATIENCE_MS } from '../helpers/wait.js';
import { CRM_BIN, crm, freshHome, json } from '../helpers/crm.js';
import { api, useTestServer } from '../helpers/server.js';

const live = useTestServer();

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('crm sync in a process', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGKILL', null],
  ] as const)('%s while deals are read: the replica stays whole, and the next sync loses nothing', async (signal, code) => {
    const env = { ...freshHome(), CRM_BASE_URL: live.server.url, CRM_API_KEY: live.server.apiKey };
    expect((await crm(['sync', 'contacts', 'deals'], { env })).code).toBe(0);
    const [deal] = ((await api(live.server, 'GET', '/deals?status=open&limit=1')).data.deals as Array<{ id: string; stage: string }>);
    const created = (await api(live.server, 'POST', '/contacts', { name: `Synced ${signal}`, email: `sync-${signal.toLowerCase()}-${process.pid}@example.com` })).data;
    expect((await api(live.server, 'POST', `/deals/${deal!.id}/stage`, { stage: 'closed_won' })).status).toBe(200);

    // The deals' first page is held, so the signal lands while the table is read.
    live.server.log.length = 0;
    live.server.fault({ match: /^GET \/api\/v1\/deals\?/, delayMs: 5_000 });
    const child = spawn(process.execPath, [CRM_BIN, 'sync', 'contacts', 'deals'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (exitCode, killedBy) => resolve({ code: exitCode, signal: killedBy })));
    await until(() => live.server.requests(/^GET \/api\/v1\/deals\?/).length > 0, 'the deals being read');
    child.kill(signal);
    const ended = await exit;
    expect(ended.code).toBe(code);
    if (signal === 'SIGINT') expect(stderr).toBe('crm: interrupted\n');

    // Contacts were committed before; deals are as the last sync left them.
    const contact = await crm(['query', `SELECT id FROM contacts WHERE id = '${created.id}'`, '--json'], { env });
    expect(json(contact)).toEqual([{ id: created.id }]);
    const held = await crm(['query', `SELECT stage FROM deals WHERE id = '${deal!.id}'`, '--json'], { env });
    expect(json(held)).toEqual([{ stage: deal!.stage }]);

    const resumed = await crm(['sync', 'contacts', 'deals', '--json'], { env });
    expect(resumed.code).toBe(0);
    expect(json(resumed).map((row: Record<string, unknown>) => [row.resource, row.added, row.changed, row.removed])).toEqual([
      ['contacts', 0, 0, 0],
      ['deals', 0, 1, 0],
    ]);
    const events = await crm(['query', "SELECT event, id, json_extract(changes, '$.stage.after') AS stage FROM changes WHERE resource = 'deals'", '--json'], { env });
    expect(json(events)).toEqual([{ event: 'updated', id: deal!.id, stage: 'closed_won' }]);
  }, 30_000);
});

/** A statement whose rows never end, and one that never gives its first row. */
const ENDLESS = 'WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)';

/** crm started with the sandbox's replica synced; its exit, or null when it had not ended after PATIENCE_MS (it is then killed). */
async function endlessQuery(args: string[], env: NodeJS.ProcessEnv, act: (child: ReturnType<typeof spawn>, stderr: () => string) => Promise<void>) {
  // A cap on the heap: before the fix, a query whose output was closed queued its rows in memory until it ran out.
  const child = spawn(process.execPath, ['--max-old-space-size=200', CRM_BIN, 'query', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  try {
    await act(child, () => stderr);
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([exit, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), PATIENCE_MS)))]);
    clearTimeout(timer);
    return { ended, stderr };
  } finally {
    child.kill('SIGKILL');
  }
}

describe('crm query in a process: a statement that never ends', () => {
  it.each([
    ['SIGINT', 'gives no row', `${ENDLESS} SELECT count(*) FROM r`],
    ['SIGTERM', 'gives no row', `${ENDLESS} SELECT count(*) FROM r`],
    ['SIGINT', 'gives rows for ever', `${ENDLESS} SELECT x FROM r`],
  ] as const)('%s ends one that %s at once (it ran on: SQLite held the event loop, and every handler with it)', async (signal, _what, sql) => {
    const env = freshHome();
    expect((await crm(['sync', 'stages'], { env })).code).toBe(0);
    const { ended } = await endlessQuery([sql], env, async (child, stderr) => {
      // The age of the data is said just before the statement runs.
      await until(() => stderr().includes('Data as of'), 'the query to begin');
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.kill(signal);
    });
    // By the signal's default action (the shell's $? 130 or 143); crm's own handler (exit 130) only if it came before the statement.
    expect(ended === null ? 'still running' : ended.signal === signal || ended.code === 130 ? 'ended' : ended).toBe('ended');
  }, 60_000);

  it('whose output is closed (| head -1) ends with exit 0, without queueing its rows in memory (it ran until out of memory, minutes later)', async () => {
    const env = freshHome();
    expect((await crm(['sync', 'stages'], { env })).code).toBe(0);
    const { ended, stderr } = await endlessQuery([`${ENDLESS} SELECT x FROM r`], env, async (child) => {
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      child.stdout!.destroy();
    });
    expect(ended).toEqual({ code: 0, signal: null });
    expect(stderr).not.toMatch(/TypeError|busy|heap/);
  }, 60_000);
});
