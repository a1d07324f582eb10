// What only a real process shows for the long-running commands: watch stopped by real signals with
// its state saved, and an import interrupted by SIGINT, killed outright, or left without an answer,
// then resumed without creating any row twice (over the network transport, against the test server).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRM_BIN, crm } from '../helpers/crm.js';
import { api, useTestServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';

const live = useTestServer();

function start(args: string[]): { child: ChildProcess; output: { stdout: string; stderr: string }; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, [CRM_BIN, ...args], { env: live.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, output, exit };
}

const dir = () => mkdtempSync(join(tmpdir(), 'crm-scale-'));
const countWithEmail = async (email: string) =>
  ((await api(live.server, 'GET', `/contacts?search=${encodeURIComponent(email)}&limit=50`)).data.contacts as Array<{ email: string }>).filter((contact) => contact.email === email).length;

describe('crm watch in a process', () => {
  it.each([
    ['SIGTERM', 0],
    ['SIGINT', 130],
  ] as const)('%s ends it cleanly (exit %i) with the state saved and its lock given back', async (signal, code) => {
    const state = join(dir(), 'state.json');
    const watch = start(['watch', 'contacts', '--interval', '1s', '--state', state]);
    await until(() => existsSync(state), 'the baseline');
    const created = (await api(live.server, 'POST', '/contacts', { name: `Signal ${signal}`, email: `signal-${signal.toLowerCase()}-${process.pid}@example.com` })).data;
    await until(() => watch.output.stdout.includes(created.id), 'the new contact');
    watch.child.kill(signal);
    expect(await watch.exit).toEqual({ code, signal: null });
    expect(JSON.parse(watch.output.stdout.trim())).toMatchObject({ id: created.id });
    expect(JSON.parse(readFileSync(state, 'utf8')).handled.at(-1).id).toBe(created.id);
    expect(existsSync(`${state}.lock`)).toBe(false); // the lock is given back
    expect(watch.output.stderr).toBe(signal === 'SIGINT' ? 'crm: interrupted\n' : '');
  });

  it('SIGTERM while --exec runs: the watch ends (exit 0) without waiting for what the command left running, the record unhandled (it waited for as long as that ran)', async () => {
    const where = dir();
    const state = join(where, 'state.json');
    const pidFile = join(where, 'pid');
    expect((await crm(['watch', 'contacts', '--once', '--state', state], { env: live.env })).code).toBe(0);
    const created = (await api(live.server, 'POST', '/contacts', { name: 'Exec Held', email: `exec-held-${process.pid}@example.com` })).data;
    // The shell is killed; the sleep it started keeps the command's output open.
    const watch = start(['watch', 'contacts', '--interval', '1s', '--state', state, '--exec', `sleep 600 & echo $! > '${pidFile}'; wait`]);
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the command to start');
    try {
      watch.child.kill('SIGTERM');
      expect(await watch.exit).toEqual({ code: 0, signal: null });
      expect(JSON.parse(readFileSync(state, 'utf8')).handled.map((record: { id: string }) => record.id)).not.toContain(created.id);
    } finally {
      process.kill(Number(readFileSync(pidFile, 'utf8')));
    }
  });
});

describe('crm contacts import in a process', () => {
  const csv = (tag: string, count: number) => {
    const emails = Array.from({ length: count }, (_, index) => `${tag}-${index}-${process.pid}@example.com`);
    const file = join(dir(), `${tag}.csv`);
    writeFileSync(file, `name,email\n${emails.map((email, index) => `Person ${index},${email}`).join('\n')}\n`);
    return { file, emails };
  };

  it.each(['SIGINT', 'SIGKILL'] as const)('%s mid-run, then --resume: every row exists exactly once', async (signal) => {
    const { file, emails } = csv(signal.toLowerCase(), 60);
    // Slow answers, so the signal lands with requests under way.
    live.server.fault({ match: /^POST \/api\/v1\/contacts$/, delayMs: 40, times: 60 });
    const importing = start(['contacts', 'import', file]);
    await until(() => live.server.requests(/^POST/).length >= 20, 'twenty rows sent');
    importing.child.kill(signal);
    const stopped = await importing.exit;
    if (signal === 'SIGINT') {
      expect(stopped.code).toBe(130);
      // The rows under way may have been created: --resume looks them up.
      expect(importing.output.stderr).toMatch(/^crm: interrupted\nhint: POST \/contacts( \(\d of them\))? (was|were) sent and may have taken effect: run the same command with --resume, which looks them up before sending anything again\n$/);
    } else {
      expect(stopped.signal).toBe('SIGKILL');
    }
    expect(existsSync(`${file}.crm-checkpoint`)).toBe(true);
    // The same command again is refused: it would send the rows already imported once more.
    const again = await crm(['contacts', 'import', file], { env: live.env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('hint: finish it with --resume');
    // Requests held by the slow server when the process died still arrive and create their contacts:
    // all of them, before --resume looks for them.
    await live.server.settled();
    const resumed = await crm(['contacts', 'import', file, '--resume'], { env: live.env });
    expect(resumed.code).toBe(0);
    for (const email of emails) expect(await countWithEmail(email)).toBe(1);
    expect(existsSync(`${file}.crm-checkpoint`)).toBe(false);
  });

  it('a POST whose answer never came (timeout) is looked up, not sent again, on --resume', async () => {
    const { file, emails } = csv('timeout', 3);
    live.server.fault({ match: /^POST \/api\/v1\/contacts$/, delayMs: 1200 });
    const first = await crm(['contacts', 'import', file, '--timeout', '0.5', '--concurrency', '1', '-o', 'ndjson'], { env: live.env });
    expect(first.code).toBe(7);
    const failed = first.stdout.trim().split('\n').map((line) => JSON.parse(line)).filter((row) => row.result === 'failed');
    expect(failed).toMatchObject([{ error: 'request timed out after 0.5s' }]);
    // The service got the request all the same: the contact exists.
    await until(async () => (await countWithEmail(failed[0].email)) === 1, 'the late contact');
    live.server.log.length = 0;
    const resumed = await crm(['contacts', 'import', file, '--resume', '-o', 'ndjson'], { env: live.env });
    expect(resumed.code).toBe(0);
    expect(live.server.requests(/^POST/)).toHaveLength(0);
    for (const email of emails) expect(await countWithEmail(email)).toBe(1);
  });
});
