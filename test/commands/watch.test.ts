// crm watch, in-process against the sandbox's handler: polls, bursts, state, failures, reactions.
// SIGTERM is emitted on the watch's own signals (RunOptions.signals: it reaches that watch alone); Ctrl-C, which
// the runner handles by ending the process, is tested on a real process in test/e2e/scale.test.ts.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { homeEnv, openWorkspace, recordedSleep, run, useWorkspace, virtualClock, BASE_URL, type RunOptions } from '../helpers/inprocess.js';
import { scriptedList } from '../helpers/scripted-list.js';
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

/** The watch's clock in these tests: every wait (the interval, backoff) a few milliseconds of real time. */
const quick = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

/** crm watch ARGV, run to its end. */
const watch = (argv: string[], options: RunOptions = {}) => run(['watch', ...argv], { ws, sleep: quick, ...options });

/** Starts a watch that runs until a signal; `live` shows its output as it comes. */
function startWatch(argv: string[], options: Omit<RunOptions, 'live' | 'signals'> = {}) {
  const live = { stdout: '', stderr: '' };
  const signals = new EventEmitter();
  const finished = watch(argv, { ...options, live, signals });
  return { live, finished, signals, stop: async () => (signals.emit('SIGTERM'), finished) };
}

/** Whether a process is alive. */
const isRunning = (pid: number) => {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
};

/** The ids of the records a state file remembers, in the order handled. */
const remembered = (state: string): string[] => JSON.parse(readFileSync(state, 'utf8')).handled.map((record: { id: string }) => record.id);

describe('crm watch: polling', () => {
  it('sets a baseline first, then emits each new record once, oldest first, as NDJSON in a pipe', async () => {
    const watching = startWatch(['contacts', '--interval', '1s']);
    await until(() => polls() >= 2, 'the baseline');
    // The baseline: the first 100 records, in two pages.
    expect(ws.requests().slice(0, 2).map((request) => request.url)).toEqual(['/api/v1/contacts?limit=50&offset=0', '/api/v1/contacts?limit=50&offset=48']);
    const first = createContacts(2);
    await until(() => ids(watching.live.stdout).length === 2, 'two records');
    const second = createContacts(3);
    await until(() => ids(watching.live.stdout).length === 5, 'five records');
    const before = polls();
    await until(() => polls() >= before + 3, 'three more polls');
    // An idle poll is one request: a run of handled records within the first page ends it.
    expect(ws.requests().slice(-3).map((request) => request.url)).toEqual(Array(3).fill('/api/v1/contacts?limit=50&offset=0'));
    const result = await watching.stop();
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual([...first, ...second]);
    expect(result.stderr).toBe('');
  });

  it('emits a burst larger than a page whole, oldest first, with a poll that pages on', async () => {
    const state = stateFile();
    expect((await watch(['contacts', '--once', '--state', state])).stdout).toBe('');
    const burst = createContacts(120, 'burst');
    ws.log.length = 0;
    const result = await watch(['contacts', '--once', '--state', state]);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(burst);
    // 120 new records, then 40 handled in a row end the poll.
    expect(ws.requests().map((request) => request.url)).toEqual([
      '/api/v1/contacts?limit=50&offset=0',
      '/api/v1/contacts?limit=50&offset=48',
      '/api/v1/contacts?limit=50&offset=96',
      '/api/v1/contacts?limit=50&offset=144',
    ]);
  });

  it('emits a burst of 150 whole while an old contact is deleted before each page (it emitted 50)', async () => {
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    const burst = createContacts(150, 'burst-churn');
    const old = remembered(state);
    const transport: Transport = async (request) => {
      if (request.method === 'GET') expect(ws.api('DELETE', `/contacts/${old.pop()}`).status).toBe(200);
      return ws.transport(request);
    };
    const result = await watch(['contacts', '--once', '--state', state], { ws: { ...ws, transport } });
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(burst);
  });

  it('--state: a restart neither repeats nor misses a record; the file is written whole', async () => {
    const state = stateFile();
    const once = () => watch(['contacts', '--once', '--state', state]);
    expect((await once()).stdout).toBe('');
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    expect(saved).toMatchObject({ version: 2, resource: 'contacts', base_url: BASE_URL });
    expect(saved.handled).toHaveLength(100);
    expect(saved.handled[0]).toEqual({ id: expect.any(String), created_at: expect.stringMatching(/^\d{4}-/) });
    const [a] = createContacts(1);
    expect(ids((await once()).stdout)).toEqual([a]);
    expect(ids((await once()).stdout)).toEqual([]);
    const [b, c] = createContacts(2);
    expect(ids((await once()).stdout)).toEqual([b, c]);
    expect(remembered(state).slice(-3)).toEqual([a, b, c]);
    expect(readdirSync(join(state, '..'))).toEqual(['state.json']); // no temporary file or lock left behind
  });

  it('finds where the new records end even when every remembered record was deleted', async () => {
    // The baseline's records created a little after all others: the records below them are older
    // than every one remembered (a record created in the same millisecond might be new: it would come).
    await new Promise((resolve) => setTimeout(resolve, 5));
    createContacts(100, 'baseline');
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    for (const id of remembered(state)) expect(ws.api('DELETE', `/contacts/${id}`).status).toBe(200);
    const fresh = createContacts(2);
    const result = await watch(['contacts', '--once', '--state', state]);
    expect(ids(result.stdout)).toEqual(fresh);
  });

  it('--since-start: the first poll emits every existing record, oldest first', async () => {
    const all = ws.api('GET', '/deals?limit=50').data.deals.map((deal: { id: string }) => deal.id);
    const result = await watch(['deals', '--once', '--since-start']);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual([...all].reverse());
  });

  it('prints a table line for each record on a terminal, under one header', async () => {
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    createContacts(2, 'table');
    const result = await watch(['contacts', '--once', '--state', state, '--no-color'], { tty: { stdout: true, columns: 140 }, now: Date.now() });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID\s+NAME\s+EMAIL\s+STATUS\s+SCORE\s+COMPANY\s+CREATED_AT$/);
    for (const line of lines.slice(1)) expect(line).toMatch(/^con_\w+\s+Watch Person \d+\s+table-\S+\s+lead\s+just now$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(140);
  });
});

describe('crm watch: failures', () => {
  it('backs off with a message when polls fail, then recovers and emits what arrived meanwhile', async () => {
    const watching = startWatch(['contacts', '--interval', '1s']);
    await until(() => polls() >= 2, 'the baseline');
    ws.fault({ match: /^GET \/api\/v1\/contacts/, status: 500, times: 2 });
    const fresh = createContacts(2, 'recover');
    await until(() => ids(watching.live.stdout).length === 2, 'the records after recovery');
    const result = await watching.stop();
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(fresh);
    expect(result.stderr).toBe('crm: warning: injected 500; trying again in 1s (failure 1 of 10)\ncrm: warning: injected 500; trying again in 2s (failure 2 of 10)\n');
  });

  it('a poll refused with a Retry-After longer than the core waits out is tried again no sooner than asked (it polled again a second later, and gave up before the limit ended)', async () => {
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    ws.fault({ match: /^GET \/api\/v1\/contacts/, status: 429, headers: { 'retry-after': '600' }, times: 1 });
    const waits: number[] = [];
    const watching = startWatch(['contacts', '--interval', '1s', '--state', state], { sleep: (ms) => (waits.push(ms), quick()) });
    await until(() => waits.length >= 1, 'the wait after the refusal');
    const [fresh] = createContacts(1, 'rate-limited');
    await until(() => ids(watching.live.stdout).length === 1, 'the record after the wait');
    const result = await watching.stop();
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual([fresh]);
    expect(waits[0]).toBe(600_000);
    expect(result.stderr).toMatch(/; trying again in 600s, as the service asked \(failure 1 of 10\)\n$/);
  });

  it('gives up after --max-failures failures in a row, with the failure’s exit code', async () => {
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    ws.log.length = 0;
    ws.fault({ match: /^GET \/api\/v1\/contacts/, status: 500, times: 3 });
    const service = await watch(['contacts', '--interval', '1s', '--max-failures', '3', '--state', state]);
    expect(service.code).toBe(1);
    expect(service.stderr).toMatch(/\(failure 2 of 3\)\ncrm: giving up after 3 failures in a row: injected 500\n$/);
    expect(ws.requests()).toHaveLength(3);
    // A network failure is exit 6 (the core tried the GET 4 times first).
    ws.fault({ match: /^GET \/api\/v1\/contacts/, network: { code: 'ECONNREFUSED', delivered: false }, times: 4 });
    const network = await watch(['contacts', '--max-failures', '1', '--state', state]);
    expect(network.code).toBe(6);
    expect(network.stderr).toBe('crm: giving up after a failure: injected ECONNREFUSED; tried 4 times\n');
  });

  it('begins no poll once stopped: a SIGTERM during the wait between polls sends nothing more, even from a wait that ends as the signal comes (a request of such a poll outlived the command and spent the next test\'s faults)', async () => {
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    let release: (() => void) | undefined;
    const sleep = () => new Promise<void>((resolve) => (release = resolve));
    const watching = startWatch(['contacts', '--interval', '1s', '--state', state], { sleep });
    await until(() => release !== undefined, 'the wait after the first poll');
    ws.log.length = 0;
    const stopped = watching.stop();
    release!();
    expect((await stopped).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ws.requests()).toEqual([]);
  });

  it('stops on SIGTERM with exit 0, the state saved', async () => {
    const state = stateFile();
    const watching = startWatch(['contacts', '--interval', '1s', '--state', state]);
    await until(() => existsSync(state), 'the baseline');
    const [fresh] = createContacts(1, 'sigterm');
    await until(() => ids(watching.live.stdout).length === 1, 'the new record');
    const result = await watching.stop();
    expect(result.code).toBe(0);
    expect(remembered(state).at(-1)).toBe(fresh);
    expect(existsSync(`${state}.lock`)).toBe(false);
    expect(watching.signals.listenerCount('SIGTERM')).toBe(0);
  });

  it.each([
    [['deals', '--score'], '--score scores contacts; deals cannot be scored'],
    [['contacts', '--secret', 's'], '--secret signs what --forward-to sends; give --forward-to URL too'],
    [['contacts', '--forward-to', 'ftp://example.com/x'], 'invalid --forward-to "ftp://example.com/x" (expected an http:// or https:// URL)'],
    [['contacts', '--once'], '--once without --state has nothing to compare with: every run would only set a new baseline'],
    [['contacts', '--interval', 'soon'], 'invalid --interval "soon" (expected a duration such as 30s, 5m or 1h)'],
    // It polled hundreds of times a second.
    [['contacts', '--interval', '1ms'], 'invalid --interval "1ms" (at least 1s)'],
    [['contacts', '--interval', '0.5'], 'invalid --interval "0.5" (at least 1s)'],
    [['people'], 'invalid RESOURCE "people" (expected one of: contacts, deals, tasks, accounts, sequences)'],
    [['contacts', '--dry-run'], 'watch keeps polling the service; --dry-run does not apply'],
    [['contacts', '--exec-timeout', '1m'], '--exec-timeout limits the command --exec runs; give --exec CMD too'],
    [['contacts', '--exec', 'true', '--exec-timeout', '0s'], 'invalid --exec-timeout "0s" (expected a duration such as 30s, 5m or 1h)'],
    // Worded as every file crm cannot write.
    [['contacts', '--state', '/no/such/dir/state.json'], 'cannot write --state /no/such/dir/state.json: the directory /no/such/dir does not exist'],
  ])('refuses %j with exit 2 before sending anything', async (argv, message) => {
    const result = await watch(argv);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`crm: ${message}`);
    expect(ws.requests()).toEqual([]);
  });

  it('refuses a state file of another watch, or one that is not a state file', async () => {
    const state = stateFile();
    await watch(['deals', '--once', '--state', state]);
    const other = await watch(['contacts', '--once', '--state', state]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`crm: --state ${state} belongs to a watch of deals at ${BASE_URL}`);
    writeFileSync(state, '{"not": "a state"}');
    const garbage = await watch(['deals', '--once', '--state', state]);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain('is not a state file of crm watch');
  });
});

describe('crm watch: where a poll stops (issue 17)', () => {
  /** The scripted list, reached as the workspace. */
  function scriptedService() {
    const list = scriptedList();
    return { ...list, workspace: { ...ws, transport: list.transport } };
  }

  /** 60 contacts a minute apart (minute 0 to 59), then a baseline in STATE. */
  async function baselined(service: ReturnType<typeof scriptedService>, state: string) {
    for (let minute = 0; minute < 60; minute++) service.create(minute);
    expect((await watch(['contacts', '--once', '--state', state], { ws: service.workspace })).code).toBe(0);
  }

  it('a record with a future created_at does not hide the records after it, in this run or the next (it hid every one)', async () => {
    const service = scriptedService();
    const state = stateFile();
    await baselined(service, state);
    const future = service.create(60 * 24 * 365 * 50); // fifty years on
    expect(ids((await watch(['contacts', '--once', '--state', state], { ws: service.workspace })).stdout)).toEqual([future]);
    const later = [service.create(61), service.create(62)];
    expect(ids((await watch(['contacts', '--once', '--state', state], { ws: service.workspace })).stdout)).toEqual(later);
  });

  it('a record from a server whose clock is minutes behind is found below the records handled (it was taken as old)', async () => {
    const service = scriptedService();
    const state = stateFile();
    await baselined(service, state);
    const handled = [service.create(60), service.create(61), service.create(62)];
    expect(ids((await watch(['contacts', '--once', '--state', state], { ws: service.workspace })).stdout)).toEqual(handled);
    // Created after those three, on a server 5 minutes behind: listed below them and three more.
    const skewed = service.create(57.5);
    const now = service.create(63);
    expect(ids((await watch(['contacts', '--once', '--state', state], { ws: service.workspace })).stdout)).toEqual([skewed, now]);
  });

  it('a new record given the id of a deleted one is a new record (it was taken as handled)', async () => {
    const service = scriptedService();
    const state = stateFile();
    await baselined(service, state);
    const [first] = [service.create(60)];
    expect(ids((await watch(['contacts', '--once', '--state', state], { ws: service.workspace })).stdout)).toEqual([first]);
    service.remove(first!);
    service.create(61, first);
    const result = await watch(['contacts', '--once', '--state', state], { ws: service.workspace });
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line))).toMatchObject([{ id: first, created_at: '2025-01-01T13:01:00.000Z' }]);
  });

  it('a state file of an older crm poisoned by a future created_at is repaired on load: later records are emitted, and it is rewritten', async () => {
    const service = scriptedService();
    for (let minute = 0; minute < 60; minute++) service.create(minute);
    const state = stateFile();
    const seen = Array.from({ length: 60 }, (_, index) => `con_${60 - index}`);
    writeFileSync(state, JSON.stringify({ version: 1, resource: 'contacts', base_url: BASE_URL, seen, newest: '2075-01-01T00:00:00.000Z' }));
    const fresh = [service.create(60), service.create(61)];
    const result = await watch(['contacts', '--once', '--state', state], { ws: service.workspace });
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(fresh);
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    expect(saved).toMatchObject({ version: 2, handled: expect.arrayContaining([{ id: fresh[1], created_at: '2025-01-01T13:01:00.000Z' }]) });
    expect(saved.newest).toBeUndefined();
  });
});

describe('crm watch: its state file', () => {
  it('two watches on one --state: the second exits 2 naming the process that holds it (both delivered every record)', async () => {
    const state = stateFile();
    const first = startWatch(['contacts', '--interval', '1s', '--state', state]);
    await until(() => existsSync(state), 'the baseline');
    const second = await watch(['contacts', '--once', '--state', state]);
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(`crm: --state ${state} is in use by another crm watch (process ${process.pid})\nhint: give each watch a state file of its own; if no watch is running, delete ${state}.lock\n`);
    expect((await first.stop()).code).toBe(0);
    // Released: the next watch may use it.
    expect((await watch(['contacts', '--once', '--state', state])).code).toBe(0);
  });

  it('a state file of another profile is refused, though both profiles have one base URL (workspaces of one service): it was taken as its own', async () => {
    const home = mkdtempSync(join(tmpdir(), 'crm-home-'));
    mkdirSync(join(home, '.config', 'crm'), { recursive: true, mode: 0o700 });
    const profiles = { acme: { base_url: BASE_URL, api_key: ws.apiKey }, globex: { base_url: BASE_URL, api_key: ws.apiKey } };
    // Owner-only, as crm writes it (a key file others can read is warned about).
    writeFileSync(join(home, '.config', 'crm', 'config.json'), JSON.stringify({ active_profile: 'acme', profiles }), { mode: 0o600 });
    const env = homeEnv(home);
    const state = stateFile();
    expect((await watch(['contacts', '--once', '--state', state], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(state, 'utf8')).profile).toBe('acme');
    ws.log.length = 0;
    const other = await watch(['contacts', '--once', '--state', state, '--profile', 'globex'], { env });
    expect(other.code).toBe(2);
    expect(other.stderr.split('\n')[0]).toBe(`crm: --state ${state} belongs to a watch of profile "acme", not "globex"`);
    expect(ws.requests()).toEqual([]);
    // A file of a crm that did not record the profile is taken by the profile that uses it.
    const older = JSON.parse(readFileSync(state, 'utf8'));
    delete older.profile;
    writeFileSync(state, JSON.stringify(older));
    createContacts(1, 'adopted');
    expect((await watch(['contacts', '--once', '--state', state, '--profile', 'globex'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(state, 'utf8')).profile).toBe('globex');
  });

  it('a lock left by a watch that was killed, naming the pid this watch has (a container started again: pid 1 both times), is taken over: it was refused for good', async () => {
    const state = stateFile();
    writeFileSync(`${state}.lock`, `${process.pid} ${hostname()}\n`);
    const result = await watch(['contacts', '--once', '--state', state]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(state)).toBe(true);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('a lock written on another host (a shared home, a container with a new name) is never taken over on a pid check: exit 2 naming the host, and how to remove it', async () => {
    const state = stateFile();
    // A pid that is gone here, and this process's own: neither says anything of a process on another machine.
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.on('exit', resolve));
    for (const pid of [gone.pid!, process.pid]) {
      writeFileSync(`${state}.lock`, `${pid} other-host.example\n`);
      const result = await watch(['contacts', '--once', '--state', state]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `crm: --state ${state} is in use by another crm watch (process ${pid} on other-host.example, which crm cannot check from here)\nhint: give each watch a state file of its own; if no watch is running, delete ${state}.lock\n`,
      );
      expect(readFileSync(`${state}.lock`, 'utf8')).toBe(`${pid} other-host.example\n`);
      expect(existsSync(state)).toBe(false);
    }
  });

  it('a lock of an older crm (a pid alone, no host) is checked on this host: one whose process is gone is taken over', async () => {
    const state = stateFile();
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.on('exit', resolve));
    writeFileSync(`${state}.lock`, String(gone.pid));
    const result = await watch(['contacts', '--once', '--state', state]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });

  it('a --state that can no longer be written stops the watch (exit 1) naming the state file, not a temporary file', async () => {
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    const [fresh] = createContacts(1, 'unwritable');
    // The temporary file it writes before renaming it over the state is a directory: the write fails.
    mkdirSync(`${state}.${process.pid}.tmp`);
    const result = await watch(['contacts', '--interval', '1s', '--state', state]);
    expect(result.code).toBe(1);
    expect(ids(result.stdout)).toEqual([fresh]);
    expect(result.stderr).toBe(`crm: cannot write --state ${state}: is a directory\nhint: the records since the last one saved will be delivered again when the watch is restarted with a writable --state\n`);
  });
});

describe('crm watch: reactions', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  /** A local app that wants webhooks: answers each delivery with the next scripted status, or [status, headers] (then 200). */
  async function receiver(statuses: Array<number | [number, Record<string, string>]>) {
    const deliveries: Array<{ headers: IncomingHttpHeaders; body: string; status: number }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const [status, headers] = [statuses.shift() ?? 200].flat() as [number, Record<string, string>?];
        deliveries.push({ headers: req.headers, body, status });
        res.writeHead(status, headers).end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks/crm?token=t0ps3cret`, deliveries };
  }

  /** A baselined state, two new contacts, and an environment whose $OUT is a directory for the command to write in. */
  async function execSetUp(tag: string) {
    const out = mkdtempSync(join(tmpdir(), 'crm-exec-'));
    const state = stateFile();
    const env = { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, PATH: process.env.PATH, OUT: out };
    await watch(['contacts', '--once', '--state', state], { env });
    return { out, state, env, fresh: createContacts(2, tag) };
  }

  it('--exec runs the command once per record, in order, with the record on stdin and its id and resource in the environment', async () => {
    const { out, state, env, fresh } = await execSetUp('exec');
    const command = 'cat > "$OUT/$CRM_RECORD_ID.json"; echo "$CRM_RESOURCE $CRM_RECORD_ID" >> "$OUT/order"; echo "to stdout"';
    const result = await watch(['contacts', '--once', '--state', state, '--exec', command], { env });
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(fresh); // the command's own output is not mixed into the data
    expect(readFileSync(join(out, 'order'), 'utf8')).toBe(fresh.map((id) => `contacts ${id}\n`).join(''));
    for (const id of fresh) expect(JSON.parse(readFileSync(join(out, `${id}.json`), 'utf8'))).toMatchObject({ id, name: expect.stringMatching(/^Watch Person/) });
    expect(result.stderr).toBe('to stdout\nto stdout\n');
    expect(remembered(state).slice(-2)).toEqual(fresh);
  });

  it('--exec that fails is a failed delivery: the record stays unhandled, --once exits 1, the next poll runs it again (it was marked handled, exit 0)', async () => {
    const { out, state, env, fresh } = await execSetUp('exec-fails');
    // Fails for the first record until the file "ok" exists.
    const command = 'echo "$CRM_RECORD_ID" >> "$OUT/runs"; test -e "$OUT/ok"';
    const failed = await watch(['contacts', '--once', '--state', state, '--exec', command], { env });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(`crm: --exec for contact ${fresh[0]} exited with code 1\n`);
    expect(remembered(state)).not.toContain(fresh[0]);
    // Within one watch, a failed command is retried at the next poll, like a failed forward.
    const watching = startWatch(['contacts', '--interval', '1s', '--state', state, '--exec', command], { env });
    await until(() => readFileSync(join(out, 'runs'), 'utf8').split('\n').length >= 4, 'a retry');
    writeFileSync(join(out, 'ok'), '');
    await until(() => remembered(state).includes(fresh[1]!), 'both records handled');
    const result = await watching.stop();
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(fresh); // printed once each
    expect(result.stderr).toContain(`crm: warning: --exec for contact ${fresh[0]} exited with code 1; trying again in 1s (failure 1 of 10)`);
    const runs = readFileSync(join(out, 'runs'), 'utf8').trim().split('\n');
    expect(runs.filter((id) => id === fresh[1])).toHaveLength(1);
    expect(runs.at(-2)).toBe(fresh[0]);
  });

  it('--exec that hangs is killed after --exec-timeout: a failed delivery, the record run again next time (it held the watch for good)', async () => {
    const { out, state, env, fresh } = await execSetUp('exec-hangs');
    // The shell becomes sleep (exec): the process killed is the one that hangs.
    const hangs = 'echo $$ > "$OUT/pid"; exec sleep 600';
    const hung = await watch(['contacts', '--once', '--state', state, '--exec', hangs, '--exec-timeout', '1s'], { env });
    expect(hung.code).toBe(1);
    expect(hung.stderr).toBe(`crm: --exec for contact ${fresh[0]} did not finish within 1s (--exec-timeout) and was killed\n`);
    const pid = Number(readFileSync(join(out, 'pid'), 'utf8'));
    await until(() => !isRunning(pid), 'the command killed');
    expect(remembered(state)).not.toContain(fresh[0]);
    const again = await watch(['contacts', '--once', '--state', state, '--exec', 'cat > /dev/null', '--exec-timeout', '1m'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(ids(again.stdout)).toEqual(fresh);
  });

  it('--forward-to: a receiver that fails, then recovers, gets every record, each accepted once, signed, with a stable event id', async () => {
    const app = await receiver([500, 503, 502, 500, 500]);
    const secret = 'whsec_test';
    const env = { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, CRM_WATCH_SECRET: secret };
    const watching = startWatch(['contacts', '--interval', '1s', '--forward-to', app.url], { env });
    await until(() => polls() >= 2, 'the baseline');
    const fresh = createContacts(2, 'forward');
    await until(() => app.deliveries.filter((delivery) => delivery.status === 200).length === 2, 'two accepted deliveries');
    const result = await watching.stop();
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

  it("--forward-to: the signature's timestamp is the command's clock (it read the machine's)", async () => {
    const app = await receiver([]);
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    createContacts(1, 'clock');
    const now = Date.parse('2031-05-06T07:08:09.500Z');
    const env = { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, CRM_WATCH_SECRET: 'whsec_clock' };
    const result = await watch(['contacts', '--once', '--state', state, '--forward-to', app.url], { env, now });
    expect(result.code, result.stderr).toBe(0);
    expect(app.deliveries).toHaveLength(1);
    expect(String(app.deliveries[0]!.headers['x-crm-signature'])).toMatch(new RegExp(`^t=${Math.floor(now / 1000)},v1=`));
  });

  it('--forward-to: in a successful run each record is sent exactly once', async () => {
    const app = await receiver([]);
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    const fresh = createContacts(3, 'once');
    const result = await watch(['contacts', '--once', '--state', state, '--forward-to', app.url]);
    expect(result.code).toBe(0);
    expect(app.deliveries.map((delivery) => JSON.parse(delivery.body).id)).toEqual(fresh);
    expect(app.deliveries.every((delivery) => delivery.headers['x-crm-signature'] === undefined)).toBe(true);
  });

  it('a record whose delivery failed is not counted as handled: the next run delivers it again (--once exits 6)', async () => {
    const app = await receiver([500, 500, 500, 500]);
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    const [fresh] = createContacts(1, 'redeliver');
    const failed = await watch(['contacts', '--once', '--state', state, '--forward-to', app.url]);
    expect(failed.code).toBe(6);
    expect(failed.stderr).toMatch(/crm: could not forward contact con_\w+ to http:\/\/127\.0\.0\.1:\d+\/hooks\/crm: HTTP 500 \(4 attempts\)\n$/);
    const again = await watch(['contacts', '--once', '--state', state, '--forward-to', app.url]);
    expect(again.code).toBe(0);
    expect(ids(again.stdout)).toEqual([fresh]);
    expect(app.deliveries.at(-1)).toMatchObject({ status: 200 });
  });

  it('--forward-to: a receiver that answers 429 or 503 with Retry-After is given that long, up to 5 minutes (it was tried again within a second)', async () => {
    const app = await receiver([[429, { 'Retry-After': '7' }], [503, { 'Retry-After': '86400000' }], [429, { 'Retry-After': 'soon' }]]);
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    const [fresh] = createContacts(1, 'retry-after');
    const clock = recordedSleep();
    const result = await watch(['contacts', '--once', '--state', state, '--forward-to', app.url], { sleep: clock.sleep });
    expect(result.code, result.stderr).toBe(0);
    expect(app.deliveries.map((delivery) => delivery.status)).toEqual([429, 503, 429, 200]);
    expect(JSON.parse(app.deliveries[3]!.body).id).toBe(fresh);
    // An unreadable Retry-After is the usual backoff (under 5s).
    expect(clock.waits).toEqual([7000, 300_000, expect.any(Number)]);
    expect(clock.waits[2]).toBeLessThan(5000);
    expect(result.stderr).toContain('HTTP 429; trying again in 7s (as it asked)\n');
    expect(result.stderr).toContain('HTTP 503; trying again in 300s (it asked for 24000h00m: at most 300s is waited)\n');
  });

  it('an id outside Latin-1 is forwarded with a percent-encoded event id; the body keeps the id (it blocked every delivery, exit 6)', async () => {
    const app = await receiver([]);
    const records = [{ id: 'con_ascii-1', name: 'Plain' }, { id: '联系人-1', name: 'Wang' }, { id: 'con_é 100%', name: 'Édith' }];
    ws.fault({ match: /^GET \/api\/v1\/contacts/, status: 200, body: JSON.stringify({ data: { contacts: records, total: 3 }, error: null }) });
    const result = await watch(['contacts', '--once', '--since-start', '--forward-to', app.url]);
    expect(result.code, result.stderr).toBe(0);
    expect(app.deliveries.map((delivery) => JSON.parse(delivery.body).id)).toEqual(records.map((record) => record.id).reverse());
    expect(app.deliveries.map((delivery) => delivery.headers['x-crm-event-id'])).toEqual([
      'contact.created.con_%C3%A9%20100%25',
      'contact.created.%E8%81%94%E7%B3%BB%E4%BA%BA-1',
      'contact.created.con_ascii-1',
    ]);
  });

  it('--exec: an id holding a NUL, which no environment variable can hold, is given percent-encoded; the record keeps it (the command could not start: the record blocked the watch)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'crm-exec-'));
    const env = { ...homeEnv(ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, PATH: process.env.PATH, OUT: out };
    const records = [{ id: 'con_plain', name: 'Plain' }, { id: 'con_a\u0000b%', name: 'Nul' }];
    ws.fault({ match: /^GET \/api\/v1\/contacts/, status: 200, body: JSON.stringify({ data: { contacts: records, total: 2 }, error: null }) });
    const command = 'printf "%s\\n" "$CRM_RECORD_ID" >> "$OUT/ids"; cat >> "$OUT/records"';
    const result = await watch(['contacts', '--once', '--since-start', '--exec', command], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(join(out, 'ids'), 'utf8')).toBe('con_a%00b%25\ncon_plain\n');
    expect(readFileSync(join(out, 'records'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).id)).toEqual(['con_a\u0000b%', 'con_plain']);
  });

  it('--score scores each new contact and emits it with its score', async () => {
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    const fresh = createContacts(2, 'score');
    const result = await watch(['contacts', '--once', '--state', state, '--score']);
    expect(result.code).toBe(0);
    const records = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((record) => record.id)).toEqual(fresh);
    for (const record of records) {
      expect(record.score).toEqual(expect.any(Number));
      expect(record.next_best_action).toEqual(expect.any(String));
    }
    expect(ws.requests(/^POST \/api\/v1\/ai\/trigger/).map((request) => JSON.parse(request.body))).toEqual(fresh.map((id) => ({ contact_id: id })));
  });

  it('--score keeps to 10 scorings a minute on the command\'s clock: the 11th waits out the minute there, saying so, and the service never refuses one', async () => {
    // The command and the sandbox share one virtual clock, which moves only when something waits.
    const clock = virtualClock();
    const scored = await openWorkspace({ now: clock.date });
    try {
      const options: RunOptions = { ws: scored, now: clock.now, sleep: clock.sleep };
      const state = stateFile();
      await run(['watch', 'contacts', '--once', '--state', state], options);
      const fresh = Array.from({ length: 11 }, (_, index) => scored.api('POST', '/contacts', { name: `Scored ${index}`, email: `scored-${index}-${process.pid}@example.com` }).data.id);
      const result = await run(['watch', 'contacts', '--once', '--state', state, '--score'], options);
      expect(result.code, result.stderr).toBe(0);
      expect(ids(result.stdout)).toEqual(fresh);
      expect(result.stderr).toContain('scoring is limited to 10 contacts a minute; scoring the next contact in 60s');
      // One trigger a contact: none refused (a 429 would have been sent again).
      expect(scored.requests(/^POST \/api\/v1\/ai\/trigger/)).toHaveLength(11);
      expect(clock.waits).toEqual([60_000]);
    } finally {
      scored.close();
    }
  });

  it('--score that fails is a failed delivery: the contact is neither emitted nor handled, and the next poll scores it (it was emitted unscored and marked handled)', async () => {
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    const [fresh] = createContacts(1, 'score-fails');
    ws.fault({ match: /^POST \/api\/v1\/ai\/trigger/, status: 500, times: 1 });
    const failed = await watch(['contacts', '--once', '--state', state, '--score']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain(`crm: scoring contact ${fresh} failed: injected 500`);
    const again = await watch(['contacts', '--once', '--state', state, '--score']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim().split('\n').map((line) => JSON.parse(line))).toMatchObject([{ id: fresh, score: expect.any(Number) }]);
  });

  it('--score of a contact deleted since it was listed (404) emits it without a score: no poll could score it', async () => {
    const state = stateFile();
    await watch(['contacts', '--once', '--state', state]);
    const [fresh] = createContacts(1, 'score-gone');
    ws.fault({ match: /^POST \/api\/v1\/ai\/trigger/, status: 404, times: 1 });
    const result = await watch(['contacts', '--once', '--state', state, '--score']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).id)).toEqual([fresh]);
    expect(result.stderr).toContain(`crm: warning: scoring contact ${fresh} failed: injected 404; emitted without a score`);
    const after = await watch(['contacts', '--once', '--state', state, '--score']);
    expect(after.stdout).toBe('');
  });
});
