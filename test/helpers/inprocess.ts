// Runs crm in this process through main(argv, init), as the GitHub CLI tests its commands: injected
// streams (TTY or not), a scripted prompter, and the sandbox's real request handler as the transport,
// with a log of every request (how tests prove what was, or was not, sent) and scripted faults.
// Everything above the transport is the real code; only the network is not in the way.

import { EventEmitter } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { interruptedError } from '../../src/cli/errors.js';
import type { SignalSource } from '../../src/cli/io.js';
import type { Choice, Prompter } from '../../src/cli/prompt.js';
import { main } from '../../src/main.js';
import { openSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { TransportError, type Transport, type TransportResponse } from '../../src/transport/types.js';
import { capture } from './evidence.js';
import { FaultScript, faultBody, logAndFaults, type AnswerFault } from './faults.js';

/** What the service was asked. */
export interface LoggedRequest {
  method: string;
  /** Path and query, e.g. /api/v1/contacts?limit=3. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface Fault extends AnswerFault {
  /** Fail in the transport instead of answering (code as Node gives it: ECONNRESET, ECONNREFUSED...). */
  network?: { code: string; delivered: boolean };
  /** The service handles the request (a write takes effect), then `status` and `body` are answered instead of its own. */
  handled?: boolean;
}

/** A sandbox workspace for one test file, reached through a logging, fault-injecting transport. */
export interface Workspace {
  sandbox: Sandbox;
  apiKey: string;
  log: LoggedRequest[];
  requests(filter?: RegExp): LoggedRequest[];
  fault(fault: Fault): void;
  /** Fails when a scripted fault was not used up; each test starts without any. */
  verifyFaults(): void;
  transport: Transport;
  /** The service directly (a test's setup and checks), outside the log. */
  api(method: string, path: string, body?: unknown): { status: number; data: any; error: any };
  /** A home directory of its own: config, data. */
  home: string;
}

export const BASE_URL = 'http://127.0.0.1:9/api/v1';

let seeded: string | undefined;

/** A seeded sandbox database, copied (seeding takes a while; a copy does not). */
async function freshDatabase(dir: string): Promise<string> {
  if (!seeded) {
    const seedDir = mkdtempSync(join(tmpdir(), 'crm-seed-'));
    seeded = join(seedDir, 'sandbox.db');
    (await openSandbox({ dbPath: seeded })).close();
  }
  const dbPath = join(dir, 'sandbox.db');
  copyFileSync(seeded, dbPath);
  return dbPath;
}

/**
 * The time for a test's sandbox: the machine's, but never the same millisecond twice, so that records
 * a test creates in a loop are not created at one instant. Walks start their pages earlier among such
 * records (src/http/paginate.ts); a test that counts a walk's requests would otherwise depend on
 * how fast the machine is.
 */
export function distinctMilliseconds(): () => Date {
  let last = 0;
  return () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last);
  };
}

/**
 * A clock that moves only when something waits on it: each wait is recorded and takes no real time.
 * Given to run() (now, sleep) and to openWorkspace() (the sandbox's), the command and the service
 * count one time: a rate limit both keep is tested without waiting.
 */
export function virtualClock(start = Date.now()) {
  let ms = start;
  const waits: number[] = [];
  return {
    waits,
    now: () => ms,
    date: () => new Date(ms),
    sleep: async (wait: number) => {
      waits.push(wait);
      ms += wait;
    },
  };
}

/** A workspace whose sandbox tells the time by `now` (a virtualClock's date) when given. */
export async function openWorkspace(options: { now?: () => Date } = {}): Promise<Workspace & { close(): void }> {
  const home = mkdtempSync(join(tmpdir(), 'crm-ws-'));
  const sandbox = await openSandbox({ dbPath: await freshDatabase(home), now: options.now ?? distinctMilliseconds() });
  const log: LoggedRequest[] = [];
  const faults = new FaultScript<Fault>();
  const handle = (method: string, url: string, headers: Record<string, string>, body: string) =>
    sandbox.handle({ method, url, headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])), body });
  const transport: Transport = async (request) => {
    const url = request.url.slice(request.url.indexOf('/api/v1'));
    // Header names as a server sees them: lower case.
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    const entry = { method: request.method, url, headers, body: request.body ?? '' };
    log.push(entry);
    const fault = faults.take(`${entry.method} ${entry.url}`);
    if (fault) {
      if (fault.network) throw new TransportError(`injected ${fault.network.code}`, fault.network.code, fault.network.delivered);
      if (fault.status !== undefined) {
        if (fault.handled) handle(request.method, url, headers, request.body ?? '');
        return { status: fault.status, headers: { 'content-type': 'application/json', ...fault.headers }, body: faultBody(fault) };
      }
    }
    return handle(request.method, url, headers, request.body ?? '') satisfies TransportResponse;
  };
  return {
    sandbox,
    apiKey: sandbox.apiKey,
    ...logAndFaults(log, faults),
    transport,
    api(method, path, body) {
      const response = handle(method, `/api/v1${path}`, { 'x-service-api-key': sandbox.apiKey, 'content-type': 'application/json' }, body === undefined ? '' : JSON.stringify(body));
      const parsed = JSON.parse(response.body) as { data: unknown; error: unknown };
      return { status: response.status, data: parsed.data, error: parsed.error };
    },
    home,
    close() {
      sandbox.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** One workspace for a test file, its request log cleared before each test, its faults verified after. */
export function useWorkspace(): Workspace {
  const live = {} as Workspace & { close(): void };
  beforeAll(async () => {
    Object.assign(live, await openWorkspace());
  });
  afterAll(() => live.close());
  beforeEach(() => {
    live.log.length = 0;
  });
  afterEach(() => live.verifyFaults());
  return live;
}

/** A person at the keyboard, answering from a script; an unexpected question fails the test. */
export interface ScriptedPrompter extends Prompter {
  asked: string[];
}

/** `{ type, pick }`: at a search prompt, type TYPE, then pick the choice PICK (default: the first that is not "none"). */
export type Answer = string | boolean | string[] | { cancel: true } | { type: string; pick?: string };

export function scriptedPrompter(answers: Answer[]): ScriptedPrompter {
  const asked: string[] = [];
  const next = (message: string, choices?: Choice[]): Answer => {
    asked.push(choices ? `${message} [${choices.map((choice) => choice.value).join(', ')}]` : message);
    if (answers.length === 0) throw new Error(`unexpected question: ${message}`);
    const answer = answers.shift()!;
    // Ctrl-C at a prompt, as the real prompter reports it.
    if (typeof answer === 'object' && 'cancel' in answer) throw interruptedError();
    return answer;
  };
  return {
    asked,
    async input(message, options) {
      const answer = String(next(message));
      const verdict = options?.validate?.(answer);
      if (typeof verdict === 'string') throw new Error(`the answer "${answer}" to "${message}" was refused: ${verdict}`);
      return answer;
    },
    async password(message) {
      return String(next(message));
    },
    async confirm(message) {
      return Boolean(next(message));
    },
    async select(message, choices) {
      return String(next(message, choices));
    },
    async checkbox(message, choices) {
      const answer = next(message, choices);
      return Array.isArray(answer) ? answer : [String(answer)];
    },
    async search(message, source) {
      const answer = answers[0];
      const typed = typeof answer === 'object' && !Array.isArray(answer) && 'type' in answer ? answer : undefined;
      const choices = await source(typed?.type, new AbortController().signal);
      const given = next(typed ? `${message} (typed "${typed.type}")` : message, choices);
      if (!typed) return String(given);
      const picked = typed.pick ?? choices.find((choice) => choice.value !== '')?.value;
      if (picked === undefined || !choices.some((choice) => choice.value === picked)) throw new Error(`no choice ${picked} at "${message}"`);
      return picked;
    },
  };
}

export interface RunOptions {
  /** The workspace to talk to; without one, crm runs with the environment given (embedded sandbox, or nothing). */
  ws?: Workspace;
  env?: NodeJS.ProcessEnv;
  /** Given as chunks, it arrives as chunks (a pipe gives 64 KiB at a time). */
  stdin?: string | Buffer | Buffer[];
  /** Which streams are terminals, and how wide stdout is. */
  tty?: { stdin?: boolean; stdout?: boolean; stderr?: boolean; columns?: number };
  prompter?: Prompter;
  /** The clock of relative times in tables, of "today" and of the scorer's rate limit: a fixed instant, or one that moves (virtualClock). */
  now?: number | (() => number);
  /** The time zone of "today" (IANA name); the machine's when absent. */
  timeZone?: string;
  /** Every wait between attempts (backoff, Retry-After, the countdown); real time when absent. */
  sleep?: (ms: number) => Promise<void>;
  /** The process's signals as the command hears them (an EventEmitter: emit('SIGTERM') reaches this command alone); by default an emitter of the command's own, so that no test touches the worker's process. */
  signals?: SignalSource;
  /** Kept up to date while the command runs (long-running commands: watch). */
  live?: { stdout: string; stderr: string };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a fresh user on this machine: a home of its own, nothing configured. */
export function homeEnv(home: string): NodeJS.ProcessEnv {
  return { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache'), LANG: 'C.UTF-8' };
}

export async function run(argv: string[], options: RunOptions = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const tty = options.tty ?? {};
  const now = options.now;
  const env = options.env ?? (options.ws ? { ...homeEnv(options.ws.home), CRM_BASE_URL: BASE_URL, CRM_API_KEY: options.ws.apiKey } : homeEnv(mkdtempSync(join(tmpdir(), 'crm-home-'))));
  const chunks = options.stdin === undefined ? [] : Array.isArray(options.stdin) ? options.stdin : [Buffer.from(options.stdin)];
  const stdin = Object.assign(Readable.from(chunks), { isTTY: Boolean(tty.stdin) });
  const code = await main(argv, {
    env,
    stdin,
    stdout: { write: (text: string) => ((stdout += text), options.live && (options.live.stdout += text)), isTTY: Boolean(tty.stdout), columns: tty.columns ?? 80 },
    stderr: { write: (text: string) => ((stderr += text), options.live && (options.live.stderr += text)), isTTY: Boolean(tty.stderr) },
    transport: options.ws?.transport,
    prompter: options.prompter,
    now: typeof now === 'number' ? () => now : now,
    timeZone: options.timeZone,
    sleep: options.sleep,
    signals: options.signals ?? new EventEmitter(),
  });
  capture(stdout + stderr, env, [argv.includes('--with-key') ? stdinText(options.stdin) : undefined]);
  return { code, stdout, stderr };
}

function stdinText(stdin: RunOptions['stdin']): string | undefined {
  if (stdin === undefined) return undefined;
  return (Array.isArray(stdin) ? Buffer.concat(stdin) : Buffer.from(stdin)).toString('utf8');
}

/** A sleep that takes no time and records each wait it was asked for. */
export function recordedSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

/** Parses stdout as JSON (the same for a run in this process as for the built CLI). */
export { json } from './crm.js';
