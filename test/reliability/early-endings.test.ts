// Commands that end before they are done (src/cli/io.ts). Ctrl-C, as a person at a terminal gives it
// (a pseudo-terminal) or as a signal to a process in a pipeline: at a prompt, during a spinner, during
// a long walk, it exits 130 at once with nothing half-written; config files stay whole whenever a crm
// writing them is interrupted or killed. And a stdout that cannot be written: one line, exit 1.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

describe('SIGINT while a write is under way', () => {
  it('exit 130 at once, saying the POST was sent and may have taken effect', async () => {
    served.server.fault({ match: /^POST/, connection: 'stall' });
    const child = spawn(process.execPath, [CRM_BIN, 'contacts', 'create', '--name', 'Under Way', '--email', 'under-way@example.com'], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    while (served.server.requests(/^POST/).length === 0 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
    const sent = Date.now();
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(Date.now() - sent).toBeLessThan(PROMPTLY_MS);
    expect(stderr).toBe('crm: interrupted\nhint: POST /contacts was sent and may have taken effect: check before running the command again\n');
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
