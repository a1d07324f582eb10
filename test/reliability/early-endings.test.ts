// Commands that end before they are done (src/cli/io.ts). Ctrl-C, as a person at a terminal gives it
// (a pseudo-terminal) or as a signal to a process in a pipeline: at a prompt, during a spinner, during
// a long walk, it exits 130 at once with nothing half-written; config files stay whole whenever a crm
// writing them is interrupted or killed. And a stdout that cannot be written: one line, exit 1.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRM_BIN, crm, freshHome } from '../helpers/crm.js';
import { capture } from '../helpers/evidence.js';
import { useServedSandbox } from '../helpers/fault-server.js';
import { run } from '../helpers/inprocess.js';
import { KEY, crmPty } from '../helpers/pty.js';

const served = useServedSandbox(150);
const env = () => served.env();

/**
 * How long after Ctrl-C the process may take to end: far less than the 30 s timeout that a crm
 * waiting for its stalled request would take, and far more than a busy machine needs to deliver
 * the signal and end a process.
 */
const PROMPTLY_MS = 10_000;

async function exitAfterCtrlC(term: ReturnType<typeof crmPty>): Promise<{ code: number; ms: number }> {
  const pressed = Date.now();
  term.type(KEY.ctrlC);
  const code = await term.exit(10_000);
  return { code, ms: Date.now() - pressed };
}

describe('Ctrl-C at a terminal', () => {
  it('at a confirmation: exit 130, nothing deleted', async () => {
    const contact = served.api('POST', '/contacts', { name: 'Keep', email: 'keep-signal@example.com' }).data;
    const term = crmPty(['contacts', 'delete', contact.id], env());
    await term.waitFor('Delete contact');
    const { code, ms } = await exitAfterCtrlC(term);
    expect(code).toBe(130);
    expect(ms).toBeLessThan(PROMPTLY_MS);
    expect(served.server.requests(/DELETE/)).toHaveLength(0);
  });

  it('during the spinner, against a service that never answers: exit 130 at once, the cursor given back', async () => {
    served.server.fault({ match: /GET/, connection: 'stall' });
    const term = crmPty(['contacts', 'list'], env());
    await term.waitFor('Waiting for the service');
    const { code, ms } = await exitAfterCtrlC(term);
    expect(code).toBe(130);
    expect(ms).toBeLessThan(PROMPTLY_MS);
    expect(term.screen()).toMatch(/\ncrm: interrupted\r?\n/);
    // ora hid the cursor when it started; the last word on the cursor is "show".
    const raw = term.raw();
    expect(raw.lastIndexOf('\u001b[?25h')).toBeGreaterThan(raw.lastIndexOf('\u001b[?25l'));
  });
});

describe('SIGINT to a process in a pipeline', () => {
  it('during a long walk: exit 130 at once; what reached stdout is whole records', async () => {
    // Three pages answer, the fourth never does (pages asked for ahead start two records early:
    // offsets 0, 48, 96, 144).
    served.server.fault({ match: /offset=144/, connection: 'stall' });
    const walkEnv = env();
    const child = spawn(process.execPath, [CRM_BIN, 'contacts', 'list', '--all', '-o', 'ndjson'], { env: walkEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Interrupted once the fourth page was asked for and the three before it were written out.
    const written = () => stdout.split('\n').length - 1;
    while (!(served.server.log.some((entry) => entry.url.includes('offset=144')) && written() >= 144) && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
    const sent = Date.now();
    child.kill('SIGINT');
    const code = await closed;
    capture(stdout + stderr, walkEnv);
    expect(code).toBe(130);
    expect(Date.now() - sent).toBeLessThan(PROMPTLY_MS);
    expect(stderr).toBe('crm: interrupted\n');
    const lines = stdout.split('\n');
    expect(lines.pop()).toBe(''); // ends with a whole line
    expect(lines.length).toBeGreaterThanOrEqual(144);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('id');
  });
});

describe('SIGINT and SIGTERM while a write is under way', () => {
  /** The built crm with ARGS, sent SIGNAL once the service has a request matching SENT (stalled): its exit code, stderr, and how long it took to end. */
  async function signalledWhileStalled(args: string[], sent: RegExp, signal: 'SIGINT' | 'SIGTERM') {
    served.server.fault({ match: sent, connection: 'stall' });
    const child = spawn(process.execPath, [CRM_BIN, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    while (served.server.requests(sent).length === 0 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
    const at = Date.now();
    child.kill(signal);
    const code = await closed;
    return { code, stderr, ms: Date.now() - at };
  }
  const MAY_HAVE_TAKEN_EFFECT = 'hint: POST /contacts was sent and may have taken effect: check before running the command again\n';

  it('SIGINT: exit 130 at once, saying the POST was sent and may have taken effect', async () => {
    const { code, stderr, ms } = await signalledWhileStalled(['contacts', 'create', '--name', 'Under Way', '--email', 'under-way@example.com'], /^POST/, 'SIGINT');
    expect(code).toBe(130);
    expect(ms).toBeLessThan(PROMPTLY_MS);
    expect(stderr).toBe(`crm: interrupted\n${MAY_HAVE_TAKEN_EFFECT}`);
  });

  it('SIGTERM (kill, a service manager): the same words and exit 130, never a silent end', async () => {
    const { code, stderr, ms } = await signalledWhileStalled(['contacts', 'create', '--name', 'Terminated', '--email', 'terminated@example.com'], /^POST/, 'SIGTERM');
    expect(code).toBe(130);
    expect(ms).toBeLessThan(PROMPTLY_MS);
    expect(stderr).toBe(`crm: stopped by SIGTERM\n${MAY_HAVE_TAKEN_EFFECT}`);
  });

  it('SIGTERM to an update of one record (a PATCH, which is safe to send again): exit 130, saying it was stopped', async () => {
    const contact = served.api('POST', '/contacts', { name: 'Patched', email: 'patched-term@example.com' }).data;
    const { code, stderr } = await signalledWhileStalled(['contacts', 'update', contact.id, '--company', 'Elsewhere'], /^PATCH/, 'SIGTERM');
    expect(code).toBe(130);
    expect(stderr).toBe('crm: stopped by SIGTERM\n');
  });

  it('a GET under way says nothing more than that it was interrupted', async () => {
    served.server.fault({ match: /^GET/, connection: 'stall' });
    const child = spawn(process.execPath, [CRM_BIN, 'contacts', 'list'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    while (served.server.requests(/^GET/).length === 0 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(stderr).toBe('crm: interrupted\n');
  });
});

describe('SIGINT and SIGTERM during a bulk write: the report accounts for every id', () => {
  /** The built crm with ARGS and INPUT on stdin, sent SIGNAL once the service has a request matching SENT: what it printed, its exit code, and how long it took to end. */
  async function signalledOnceSent(args: string[], input: string, sent: RegExp, signal: 'SIGINT' | 'SIGTERM') {
    const runEnv = env();
    const child = spawn(process.execPath, [CRM_BIN, ...args], { env: runEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    while (served.server.requests(sent).length === 0 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
    const at = Date.now();
    child.kill(signal);
    const code = await closed;
    capture(stdout + stderr, runEnv);
    return { code, stdout, stderr, ms: Date.now() - at };
  }

  /**
   * `crm ARGS -` with IDS on stdin, one request at a time, the third id's request never answered;
   * SIGNAL once that request is sent. Its report (--json, on stdout), stderr, and exit code.
   */
  async function stopped(signal: 'SIGINT' | 'SIGTERM', args: string[], ids: string[], path: (id: string) => RegExp, extra: string[] = []) {
    served.server.fault({ match: path(ids[2]!), connection: 'stall' });
    const { code, stdout, stderr, ms } = await signalledOnceSent([...args, '-', '--concurrency', '1', '--json', ...extra], `${ids.join('\n')}\n`, path(ids[2]!), signal);
    const rows = JSON.parse(stdout) as Array<{ id: string; ok: boolean; result: string; error: string | null }>;
    // Every id once, in the order given; those not sent never reached the service.
    expect(rows.map((row) => row.id)).toEqual(ids);
    for (const row of rows.filter((one) => one.result === 'not_sent')) expect(served.server.requests(path(row.id))).toEqual([]);
    expect(rows.slice(0, 2).map((row) => row.result)).not.toContain('not_sent');
    expect(rows.at(-1)!.result).toBe('not_sent');
    return { code, rows, stderr, ms };
  }

  const tasks = (count: number) => Array.from({ length: count }, (_, n) => served.api('POST', '/tasks', { title: `Signal ${n}` }).data.id as string);
  const completeOf = (id: string) => new RegExp(`^POST /api/v1/tasks/${id}/complete$`);

  it('Ctrl-C (SIGINT) to tasks complete -: at once, exit 130; done, cancelled under way (may have taken effect), not sent', async () => {
    const ids = tasks(8);
    const { code, rows, stderr, ms } = await stopped('SIGINT', ['tasks', 'complete'], ids, completeOf);
    expect(code).toBe(130);
    expect(ms).toBeLessThan(PROMPTLY_MS);
    expect(rows[0]).toMatchObject({ ok: true, result: 'completed' });
    expect(rows[2]).toMatchObject({ ok: false, result: 'cancelled', error: `POST /tasks/${ids[2]}/complete was sent: it may have taken effect on the service` });
    expect(rows.filter((row) => row.ok).every((row) => served.api('GET', `/tasks/${row.id}`).data.status === 'completed')).toBe(true);
    const lines = stderr.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      expect.stringMatching(/^crm: interrupted after 2 of 8 \(2 completed, 1 cancelled, 5 not sent\)$/),
      'hint: the report lists each task; completing one again is harmless',
    ]);
    expect(JSON.parse(lines.at(-1)!).error).toMatchObject({ code: 'interrupted', exit_code: 130 });
  });

  it('SIGTERM to contacts delete - --yes: no other id is started, the one under way ends (here: times out), then the report; exit 130', async () => {
    const ids = Array.from({ length: 8 }, (_, n) => served.api('POST', '/contacts', { name: `Term ${n}`, email: `term-${n}@example.com` }).data.id as string);
    const deleteOf = (id: string) => new RegExp(`^DELETE /api/v1/contacts/${id}$`);
    // The request under way is let finish: a stalled one, once its timeout is up (a DELETE is retried: each attempt stalls too).
    const { code, rows, stderr } = await stopped('SIGTERM', ['contacts', 'delete'], ids, deleteOf, ['--yes', '--timeout', '2']);
    expect(code).toBe(130);
    expect(rows[0]).toMatchObject({ ok: true, result: 'deleted' });
    expect(rows[2]!.result).not.toBe('not_sent');
    expect(rows.filter((row) => row.result === 'not_sent').every((row) => row.error === 'not sent: stopped by SIGTERM')).toBe(true);
    expect(rows.filter((row) => row.result === 'not_sent').every((row) => served.api('GET', `/contacts/${row.id}`).status === 200)).toBe(true);
    expect(stderr.split('\n')[0]).toMatch(/^crm: stopped by SIGTERM after \d of 8 \(.*\d not sent\)$/);
  });

  it('Ctrl-C (SIGINT) to sequences enroll ID -: the batch under way cancelled, the batches after it not sent, each contact a row; exit 130', async () => {
    const sequence = served.api('POST', '/sequences', { name: 'Signalled' }).data.id as string;
    const contacts = (served.api('GET', '/contacts?limit=50').data.contacts as Array<{ id: string }>).concat(served.api('GET', '/contacts?limit=50&offset=50').data.contacts).map((contact) => contact.id);
    const enrol = new RegExp(`^POST /api/v1/sequences/${sequence}/enroll$`);
    served.server.fault({ match: enrol, connection: 'stall' });
    const { code, stdout, stderr } = await signalledOnceSent(['sequences', 'enroll', sequence, '-', '--json'], `${contacts.join('\n')}\n`, enrol, 'SIGINT');
    expect(code).toBe(130);
    const rows = JSON.parse(stdout) as Array<{ id: string; result: string }>;
    expect(rows.map((row) => row.id)).toEqual(contacts);
    expect(rows.map((row) => row.result)).toEqual([...Array<string>(50).fill('cancelled'), ...Array<string>(50).fill('not_sent')]);
    expect(served.server.requests(enrol)).toHaveLength(1);
    expect(stderr.split('\n')[0]).toBe('crm: interrupted after 0 of 100 (50 cancelled, 50 not sent)');
  });
});

describe('config files are never half-written', () => {
  it('a crm interrupted or killed at any moment of a write leaves a whole file, and the next write goes through at once', async () => {
    const home = freshHome();
    const configDir = join(home.XDG_CONFIG_HOME!, 'crm');
    const configFile = join(configDir, 'config.json');
    for (let round = 0; round < (process.env.CRM_RELIABILITY === 'full' ? 24 : 6); round++) {
      const signal = round % 2 === 0 ? 'SIGKILL' : 'SIGINT';
      const child = spawn(process.execPath, [CRM_BIN, 'config', 'set', 'timeout', String(round + 1)], { env: home, stdio: 'ignore' });
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      // Spread over start-up, loading conf, and the write itself.
      setTimeout(() => child.kill(signal), 60 + (round % 12) * 15);
      const code = await closed;
      if (signal === 'SIGINT') expect([0, 130, null]).toContain(code);
      if (existsSync(configFile)) expect(() => JSON.parse(readFileSync(configFile, 'utf8'))).not.toThrow();
    }
    // A lock left by a killed crm is taken over at once: one that was not would make this crm wait
    // for it, give up and fail.
    const last = await crm(['config', 'set', 'output', 'json'], { env: home });
    expect(last.code).toBe(0);
    expect(JSON.parse(readFileSync(configFile, 'utf8')).profiles.sandbox.output).toBe('json');
    expect(readdirSync(configDir).filter((name) => name.endsWith('.lock'))).toEqual([]);
    rmSync(home.HOME!, { recursive: true, force: true });
  });

  it('a lock left by a crm that was killed while writing is taken over at once', async () => {
    const home = freshHome();
    const configDir = join(home.XDG_CONFIG_HOME!, 'crm');
    mkdirSync(configDir, { recursive: true });
    // The pid of a process that has ended, as a killed crm leaves it in its lock.
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.on('exit', resolve));
    writeFileSync(join(configDir, 'config.json.lock'), String(gone.pid));
    // Taken over at once: a lock that was not would make crm wait for it, give up and fail.
    const result = await run(['config', 'set', 'output', 'json'], { env: home });
    expect(result.code).toBe(0);
    expect(readdirSync(configDir)).toEqual(['config.json']);
    rmSync(home.HOME!, { recursive: true, force: true });
  });
});

describe('a lock that names no holder', () => {
  it('an empty lock (a crm killed between creating its lock and writing its pid) 3 s old is taken over at once: it made every config write wait 10 s and fail for 30 s', async () => {
    const home = freshHome();
    const configDir = join(home.XDG_CONFIG_HOME!, 'crm');
    mkdirSync(configDir, { recursive: true });
    const lock = join(configDir, 'config.json.lock');
    writeFileSync(lock, '');
    const threeSecondsAgo = new Date(Date.now() - 3_000);
    utimesSync(lock, threeSecondsAgo, threeSecondsAgo);
    // Not taken over, it is waited on for 10 s and the write fails (exit 1, 'locked by another crm').
    const result = await run(['config', 'set', 'output', 'json'], { env: home });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(readdirSync(configDir)).toEqual(['config.json']);
    rmSync(home.HOME!, { recursive: true, force: true });
  });

  it('crm never leaves its lock empty: it is linked into place whole, and no file of its making stays', async () => {
    const home = freshHome();
    const configDir = join(home.XDG_CONFIG_HOME!, 'crm');
    for (let round = 0; round < 3; round++) expect((await run(['config', 'set', 'timeout', String(round + 5)], { env: home })).code).toBe(0);
    expect(readdirSync(configDir)).toEqual(['config.json']);
    rmSync(home.HOME!, { recursive: true, force: true });
  });
});

describe.runIf(existsSync('/dev/full'))('a stdout that cannot be written (> /dev/full)', () => {
  /** The built crm with stdout on /dev/full (every write fails with ENOSPC). */
  async function toDevFull(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const full = openSync('/dev/full', 'w');
    try {
      const fullEnv = env();
      const child = spawn(process.execPath, [CRM_BIN, ...args], { env: fullEnv, stdio: ['ignore', full, 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      capture(stderr, fullEnv);
      return { code, stderr };
    } finally {
      closeSync(full);
    }
  }
  const LINE = 'crm: cannot write the output: ENOSPC: no space left on device, write\n';

  it.each([
    ['a list', ['contacts', 'list']],
    ['a streamed walk', ['contacts', 'list', '--all', '-o', 'ndjson']],
    ['help', ['--help']],
    ['the version (its fast path)', ['--version']],
  ])('%s: one crm: line and exit 1, no stack trace, no bundled source', async (_, args) => {
    const result = await toDevFull(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(LINE);
  });

  it('with --json, the JSON error too', async () => {
    const result = await toDevFull(['contacts', 'list', '--json']);
    expect(result.code).toBe(1);
    const [line, object] = result.stderr.trim().split('\n');
    expect(`${line}\n`).toBe(LINE);
    expect(JSON.parse(object!)).toEqual({ error: { message: LINE.slice(5, -1), status: null, code: 'output_failed', exit_code: 1 } });
  });
});
