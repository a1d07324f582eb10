// crm watch, in-process against the sandbox's handler: polls, bursts, state, failures, reactions.
// SIGTERM is delivered with process.emit (only watch listens for it in a test worker); Ctrl-C, which
// the runner handles by ending the process, is tested on a real process in test/e2e/scale.test.ts.
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { homeEnv, run, useWorkspace, BASE_URL, type RunOptions } from '../helpers/inprocess.js';
import { until } from '../helpers/wait.js';

const ws = useWorkspace();

let sequence = 0;
/** New contacts through the service directly, in order; their ids. */
function createContacts(count: number, tag = 'watch'): string[] {
  return Array.from({ length: count }, () => {
    const n = ++sequence;
    const created = ws.api('POST', '/contacts', { name: `Watch Person ${n}`, email: `${tag}-${n}-${process.pid}@example.com` });
    expect(created.status).toBe(201);
    return created.data.id as string;
  });
}

const stateFile = () => join(mkdtempSync(join(tmpdir(), 'crm-watch-')), 'state.json');
const ids = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line).id as string);
const polls = () => ws.requests(/^GET \/api\/v1\/contacts\?/).length;

/** Starts a watch that runs until a signal; `live` shows its output as it comes. */
function startWatch(argv: string[], options: Omit<RunOptions, 'live'> = {}) {
  const live = { stdout: '', stderr: '' };
  const finished = run(['watch', ...argv], { ws, ...options, live });
  return { live, finished, stop: async () => (process.emit('SIGTERM'), finished) };
}

describe('crm watch: polling', () => {
  it('sets a baseline first, then emits each new record once, oldest first, as NDJSON in a pipe', async () => {
    const watch = startWatch(['contacts', '--interval', '20ms']);
    await until(() => polls() >= 1, 'the baseline');
    expect(ws.requests()[0]!.url).toBe('/api/v1/contacts?limit=50');
    const first = createContacts(2);
    await until(() => ids(watch.live.stdout).length === 2, 'two records');
    const second = createContacts(3);
    await until(() => ids(watch.live.stdout).length === 5, 'five records');
    const before = polls();
    await until(() => polls() >= before + 3, 'three more polls');
    const result = await watch.stop();
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual([...first, ...second]);
    expect(result.stderr).toBe('');
  });

  it('emits a burst larger than a page whole, oldest first, with a poll that pages on', async () => {
    const state = stateFile();
    expect((await run(['watch', 'contacts', '--once', '--state', state], { ws })).stdout).toBe('');
    const burst = createContacts(120, 'burst');
    ws.log.length = 0;
    const result = await run(['watch', 'contacts', '--once', '--state', state], { ws });
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(burst);
    expect(ws.requests().map((request) => request.url)).toEqual([
      '/api/v1/contacts?limit=50&offset=0',
      '/api/v1/contacts?limit=50&offset=49',
      '/api/v1/contacts?limit=50&offset=98',
    ]);
  });

  it('--state: a restart neither repeats nor misses a record; the file is written whole', async () => {
    const state = stateFile();
    const once = () => run(['watch', 'contacts', '--once', '--state', state], { ws });
    expect((await once()).stdout).toBe('');
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    expect(saved).toMatchObject({ version: 1, resource: 'contacts', base_url: BASE_URL });
    expect(saved.seen).toHaveLength(50);
    const [a] = createContacts(1);
    expect(ids((await once()).stdout)).toEqual([a]);
    expect(ids((await once()).stdout)).toEqual([]);
    const [b, c] = createContacts(2);
    expect(ids((await once()).stdout)).toEqual([b, c]);
    expect(JSON.parse(readFileSync(state, 'utf8')).seen.slice(0, 3)).toEqual([c, b, a]);
    expect(readdirSync(join(state, '..'))).toEqual(['state.json']); // no temporary file left behind
  });

  it('finds where the new records end even when every remembered record was deleted', async () => {
    const state = stateFile();
    await run(['watch', 'contacts', '--once', '--state', state], { ws });
    const remembered: string[] = JSON.parse(readFileSync(state, 'utf8')).seen;
    for (const id of remembered) expect(ws.api('DELETE', `/contacts/${id}`).status).toBe(200);
    const fresh = createContacts(2);
    const result = await run(['watch', 'contacts', '--once', '--state', state], { ws });
    expect(ids(result.stdout)).toEqual(fresh);
  });

  it('--since-start: the first poll emits every existing record, oldest first', async () => {
    const all = ws.api('GET', '/deals?limit=50').data.deals.map((deal: { id: string }) => deal.id);
    const result = await run(['watch', 'deals', '--once', '--since-start'], { ws });
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual([...all].reverse());
  });

  it('prints a table line for each record on a terminal, under one header', async () => {
    const state = stateFile();
    await run(['watch', 'contacts', '--once', '--state', state], { ws });
    createContacts(2, 'table');
    const result = await run(['watch', 'contacts', '--once', '--state', state, '--no-color'], { ws, tty: { stdout: true, columns: 140 }, now: Date.now() });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID\s+NAME\s+EMAIL\s+STATUS\s+SCORE\s+COMPANY\s+CREATED_AT$/);
    for (const line of lines.slice(1)) expect(line).toMatch(/^con_\w+\s+Watch Person \d+\s+table-\S+\s+lead\s+just now$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(140);
  });
});

describe('crm watch: failures', () => {
  it('backs off with a message when polls fail, then recovers and emits what arrived meanwhile', async () => {
    const watch = startWatch(['contacts', '--interval', '10ms']);
    await until(() => polls() >= 1, 'the baseline');
    ws.fault({ match: /^GET \/api\/v1\/contacts/, status: 500, times: 2 });
    const fresh = createContacts(2, 'recover');
    await until(() => ids(watch.live.stdout).length === 2, 'the records after recovery');
    const result = await watch.stop();
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(fresh);
    expect(result.stderr).toBe('crm: warning: injected 500; trying again in 10ms (failure 1 of 10)\ncrm: warning: injected 500; trying again in 20ms (failure 2 of 10)\n');
  });

  it('gives up after --max-failures failures in a row, with the failure’s exit code', async () => {
    const state = stateFile();
    await run(['watch', 'contacts', '--once', '--state', state], { ws });
    ws.log.length = 0;
    ws.fault({ match: /^GET \/api\/v1\/contacts/, status: 500, times: 3 });
    const service = await run(['watch', 'contacts', '--interval', '10ms', '--max-failures', '3', '--state', state], { ws });
    expect(service.code).toBe(1);
    expect(service.stderr).toMatch(/\(failure 2 of 3\)\ncrm: giving up after 3 failures in a row: injected 500\n$/);
    expect(ws.requests()).toHaveLength(3);
    // A network failure is exit 6 (the core tried the GET 4 times first).
    ws.fault({ match: /^GET \/api\/v1\/contacts/, network: { code: 'ECONNREFUSED', delivered: false }, times: 4 });
    const network = await run(['watch', 'contacts', '--max-failures', '1', '--state', state], { ws });
    expect(network.code).toBe(6);
    expect(network.stderr).toBe('crm: giving up after a failure: injected ECONNREFUSED\n');
  });

  it('stops on SIGTERM with exit 0, the state saved', async () => {
    const state = stateFile();
    const watch = startWatch(['contacts', '--interval', '10ms', '--state', state]);
    await until(() => existsSync(state), 'the baseline');
    const [fresh] = createContacts(1, 'sigterm');
    await until(() => ids(watch.live.stdout).length === 1, 'the new record');
    const result = await watch.stop();
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(state, 'utf8')).seen[0]).toBe(fresh);
    expect(process.listenerCount('SIGTERM')).toBe(0);
  });

  it.each([
    [['deals', '--score'], '--score scores contacts; deals cannot be scored'],
    [['contacts', '--secret', 's'], '--secret signs what --forward-to sends; give --forward-to URL too'],
    [['contacts', '--forward-to', 'ftp://example.com/x'], 'invalid --forward-to "ftp://example.com/x" (expected an http:// or https:// URL)'],
    [['contacts', '--once'], '--once without --state has nothing to compare with: every run would only set a new baseline'],
    [['contacts', '--interval', 'soon'], 'invalid --interval "soon" (expected a duration such as 30s, 5m or 1h)'],
    [['people'], 'invalid RESOURCE "people" (expected one of: contacts, deals, tasks, accounts, sequences)'],
    [['contacts', '--dry-run'], 'watch keeps polling the service; --dry-run does not apply'],
  ])('refuses %j with exit 2 before sending anything', async (argv, message) => {
    const result = await run(['watch', ...argv], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`crm: ${message}`);
    expect(ws.requests()).toEqual([]);
  });

  it('refuses a state file of another watch, or one that is not a state file', async () => {
    const state = stateFile();
    await run(['watch', 'deals', '--once', '--state', state], { ws });
    const other = await run(['watch', 'contacts', '--once', '--state', state], { ws });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`crm: --state ${state} belongs to a watch of deals at ${BASE_URL}`);
    writeFileSync(state, '{"not": "a state"}');
    const garbage = await run(['watch', 'deals', '--once', '--state', state], { ws });
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain('is not a state file of crm watch');
  });
});

describe('crm watch: reactions', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  /** A local app that wants webhooks: answers each delivery with the next scripted status (then 200). */
  async function receiver(statuses: number[]) {
    const deliveries: Array<{ headers: IncomingHttpHeaders; body: string; status: number }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const status = statuses.shift() ?? 200;
        deliveries.push({ headers: req.headers, body, status });
        res.writeHead(status).end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks/crm?token=t0ps3cret`, deliveries };
  }

  it('--exec runs the command once per record, in order, with the record on stdin and its id and resource in the environment', async () => {
    const out = mkdtempSync(join(tmpdir(), 'crm-exec-'));
    const state = stateFile();
    const env = { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, PATH: process.env.PATH, OUT: out };
    await run(['watch', 'contacts', '--once', '--state', state], { ws, env });
    const fresh = createContacts(2, 'exec');
    const command = 'cat > "$OUT/$CRM_RECORD_ID.json"; echo "$CRM_RESOURCE $CRM_RECORD_ID" >> "$OUT/order"; echo "to stdout"; exit 3';
    const result = await run(['watch', 'contacts', '--once', '--state', state, '--exec', command], { ws, env });
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(fresh); // the command's own output is not mixed into the data
    expect(readFileSync(join(out, 'order'), 'utf8')).toBe(fresh.map((id) => `contacts ${id}\n`).join(''));
    for (const id of fresh) expect(JSON.parse(readFileSync(join(out, `${id}.json`), 'utf8'))).toMatchObject({ id, name: expect.stringMatching(/^Watch Person/) });
    expect(result.stderr).toBe(fresh.map((id) => `to stdout\ncrm: warning: --exec for contact ${id} exited with code 3\n`).join(''));
    expect(JSON.parse(readFileSync(state, 'utf8')).seen[0]).toBe(fresh[1]);
  });

  it('--forward-to: a receiver that fails, then recovers, gets every record, each accepted once, signed, with a stable event id', async () => {
    const app = await receiver([500, 503, 502, 500, 500]);
    const secret = 'whsec_test';
    const env = { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, CRM_WATCH_SECRET: secret };
    const watch = startWatch(['contacts', '--interval', '10ms', '--forward-to', app.url], { env });
    await until(() => polls() >= 1, 'the baseline');
    const fresh = createContacts(2, 'forward');
    await until(() => app.deliveries.filter((delivery) => delivery.status === 200).length === 2, 'two accepted deliveries');
    const result = await watch.stop();
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(fresh); // printed once, though the first forward was retried
    const accepted = app.deliveries.filter((delivery) => delivery.status === 200);
    expect(accepted.map((delivery) => JSON.parse(delivery.body).id)).toEqual(fresh);
    // Four attempts failed (one poll's worth), the record came again on the next poll, and got through.
    expect(app.deliveries.map((delivery) => delivery.headers['x-crm-delivery-attempt'])).toEqual(['1', '2', '3', '4', '1', '2', '1']);
    expect(new Set(app.deliveries.slice(0, 6).map((delivery) => delivery.headers['x-crm-event-id']))).toEqual(new Set([`contact.created.${fresh[0]}`]));
    for (const delivery of app.deliveries) {
      expect(delivery.headers['content-type']).toBe('application/json');
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(delivery.headers['x-crm-signature']))!;
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest('hex'));
    }
    expect(result.stderr).toContain('crm: warning: could not forward contact');
    expect(result.stderr).toContain('(failure 1 of 10)');
    expect(result.stderr).not.toContain('t0ps3cret'); // the URL's query is never shown
  });

  it('--forward-to: in a successful run each record is sent exactly once', async () => {
    const app = await receiver([]);
    const state = stateFile();
    await run(['watch', 'contacts', '--once', '--state', state], { ws });
    const fresh = createContacts(3, 'once');
    const result = await run(['watch', 'contacts', '--once', '--state', state, '--forward-to', app.url], { ws });
    expect(result.code).toBe(0);
    expect(app.deliveries.map((delivery) => JSON.parse(delivery.body).id)).toEqual(fresh);
    expect(app.deliveries.every((delivery) => delivery.headers['x-crm-signature'] === undefined)).toBe(true);
  });

  it('a record whose delivery failed is not counted as handled: the next run delivers it again (--once exits 6)', async () => {
    const app = await receiver([500, 500, 500, 500]);
    const state = stateFile();
    await run(['watch', 'contacts', '--once', '--state', state], { ws });
    const [fresh] = createContacts(1, 'redeliver');
    const failed = await run(['watch', 'contacts', '--once', '--state', state, '--forward-to', app.url], { ws });
    expect(failed.code).toBe(6);
    expect(failed.stderr).toMatch(/crm: could not forward contact con_\w+ to http:\/\/127\.0\.0\.1:\d+\/hooks\/crm: HTTP 500 \(4 attempts\)\n$/);
    const again = await run(['watch', 'contacts', '--once', '--state', state, '--forward-to', app.url], { ws });
    expect(again.code).toBe(0);
    expect(ids(again.stdout)).toEqual([fresh]);
    expect(app.deliveries.at(-1)).toMatchObject({ status: 200 });
  });

  it('--score scores each new contact and emits it with its score', async () => {
    const state = stateFile();
    await run(['watch', 'contacts', '--once', '--state', state], { ws });
    const fresh = createContacts(2, 'score');
    const result = await run(['watch', 'contacts', '--once', '--state', state, '--score'], { ws });
    expect(result.code).toBe(0);
    const records = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((record) => record.id)).toEqual(fresh);
    for (const record of records) {
      expect(record.score).toEqual(expect.any(Number));
      expect(record.next_best_action).toEqual(expect.any(String));
    }
    expect(ws.requests(/^POST \/api\/v1\/ai\/trigger/).map((request) => JSON.parse(request.body))).toEqual(fresh.map((id) => ({ contact_id: id })));
  });
});
