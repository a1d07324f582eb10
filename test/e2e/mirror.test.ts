// crm sync in a process: Ctrl-C (SIGINT) and SIGKILL while a table is read leave the replica as the
// last sync left it (the tables committed before stay), and the next sync finds every change, nothing
// lost (over the network transport, against the test server).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
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
