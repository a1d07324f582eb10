// What only a process shows of crm's stdout into a pipe: a command's output goes out with write(2),
// without Node's stream for a pipe (0.6 ms of every start); past DIRECT_TO_PIPE_BYTES (src/cli/io.ts),
// or when a non-blocking pipe is full, Node's stream takes over, in order, and crm still answers
// Ctrl-C while its reader has stopped reading.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CRM_BIN, crm, json } from '../helpers/crm.js';
import { api, useTestServer } from '../helpers/server.js';
import { PATIENCE_MS, until } from '../helpers/wait.js';

const live = useTestServer();
const scratch = mkdtempSync(join(tmpdir(), 'crm-stdout-'));

/** 250 contacts more than the sandbox's 50: `--all -o ndjson` prints about 100 KB, more than a pipe holds. */
async function addContacts(): Promise<void> {
  for (let start = 0; start < 250; start += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, offset) => api(live.server, 'POST', '/contacts', { name: `Piped ${start + offset}`, email: `piped-${start + offset}@example.com` })));
  }
}

/** A named pipe no one else writes to: its reader (non-blocking, for the test to poll) and its path. */
function namedPipe(name: string): { path: string; reader: number } {
  const path = join(scratch, name);
  execFileSync('mkfifo', [path]);
  return { path, reader: openSync(path, constants.O_RDONLY | constants.O_NONBLOCK) };
}

/** Reads a non-blocking pipe's reader until every writer has closed it. */
async function readToEnd(reader: number): Promise<string> {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(65536);
  for (;;) {
    let read: number;
    try {
      read = readSync(reader, buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
      continue;
    }
    if (read === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
  closeSync(reader);
  return Buffer.concat(chunks).toString('utf8');
}

describe('stdout into a pipe', () => {
  beforeAll(addContacts);

  it.each([
    ['a list', ['contacts', 'list', '--json'], (stdout: string) => expect(JSON.parse(stdout)).toHaveLength(20)],
    ["a TAB's answer", ['__complete', 'profiles'], (stdout: string) => expect(stdout).toMatch(/^sandbox\t/)],
  ])('%s is written without Node creating process.stdout or process.stderr', async (_, args, check) => {
    const report = join(scratch, 'streams-made.txt');
    const trap = join(scratch, 'trap.cjs');
    // Each of the process's stream getters, on first use, notes its name.
    writeFileSync(
      trap,
      `for (const name of ['stdout', 'stderr']) { const own = Object.getOwnPropertyDescriptor(process, name); Object.defineProperty(process, name, { configurable: true, get() { require('node:fs').appendFileSync(${JSON.stringify(report)}, name + '\\n'); return own.get.call(process); } }); }`,
    );
    writeFileSync(report, '');
    const child = spawn(process.execPath, ['-r', trap, CRM_BIN, ...args], { env: live.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    check(stdout);
    expect(readFileSync(report, 'utf8')).toBe('');
  });

  it('past what crm writes itself, Node takes over in order: the output is the one a file gets', async () => {
    const args = ['contacts', 'list', '--all', '-o', 'ndjson'];
    const piped = await crm(args, { env: live.env });
    const file = join(scratch, 'all.ndjson');
    const output = openSync(file, 'w');
    const child = spawn(process.execPath, [CRM_BIN, ...args], { env: live.env, stdio: ['ignore', output, 'pipe'] });
    closeSync(output);
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    expect(piped.code).toBe(0);
    expect(piped.stdout.length).toBeGreaterThan(64 * 1024);
    expect(piped.stdout).toBe(readFileSync(file, 'utf8'));
    const ids = piped.stdout.trim().split('\n').map((line) => JSON.parse(line).id);
    expect(new Set(ids).size).toBe(300);
  });

  it('a pipe left non-blocking and full by another process: the output waits for room, whole', async () => {
    const { path, reader } = namedPipe('full');
    // The writer's O_NONBLOCK is the pipe's, as a parent's Node stream leaves it: filled to the brim.
    const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    const filler = Buffer.alloc(4096, '.');
    let filled = 0;
    for (;;) {
      try {
        filled += writeSync(writer, filler);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
        throw error;
      }
    }
    const child = spawn(process.execPath, [CRM_BIN, 'contacts', 'list', '--json'], { env: live.env, stdio: ['ignore', writer, 'pipe'] });
    // Node made crm's stdout blocking as it started it; a Node stream on the same pipe makes it
    // non-blocking again, for crm too (one open file, shared), as a parent's own output may.
    new Socket({ fd: writer, readable: false, writable: true }).destroy();
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise((resolve) => child.on('close', resolve));
    // Read only once crm has had its answer, and time to write it into the full pipe.
    await until(() => live.server.requests(/\/contacts/).length > 0 || child.exitCode !== null, 'the list to be asked for');
    await live.server.settled();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [output, code] = await Promise.all([readToEnd(reader), closed]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(output.slice(0, filled)).toBe('.'.repeat(filled));
    expect(json({ code: 0, stdout: output.slice(filled), stderr })).toHaveLength(20);
  });

  it('Ctrl-C ends crm (exit 130) while its reader has stopped reading and the pipe is full', async () => {
    const { path, reader } = namedPipe('stalled');
    // crm's end of the pipe blocks, as a shell's does; the test's probe does not.
    const writer = openSync(path, constants.O_WRONLY);
    const probe = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    const child = spawn(process.execPath, [CRM_BIN, 'contacts', 'list', '--all', '-o', 'ndjson'], { env: live.env, stdio: ['ignore', writer, 'pipe'] });
    closeSync(writer);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Full: not one byte more fits. crm then waits for room to write, as it would for `| less`.
    const full = () => {
      try {
        writeSync(probe, '\n');
        return false;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return true;
        throw error;
      }
    };
    await until(() => full() || child.exitCode !== null, 'the pipe to fill');
    child.kill('SIGINT');
    const stopped = setTimeout(() => child.kill('SIGKILL'), PATIENCE_MS);
    const code = await closed;
    clearTimeout(stopped);
    closeSync(probe);
    closeSync(reader);
    expect(stderr).toBe('crm: interrupted\n');
    expect(code).toBe(130);
  });
});
