// Runs the built crm (bin/crm.js → dist/) as a user would: a separate process with its own home,
// config and data directories, and only the environment the test gives it.

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { capture } from './evidence.js';
import type { TestServer } from './server.js';
import { PATIENCE_MS } from './wait.js';

export const CRM_BIN = fileURLToPath(new URL('../../bin/crm.js', import.meta.url));

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs?: number;
  /** Another crm than this checkout's (an installed copy). */
  bin?: string;
}

/** A fresh, empty home for one test: nothing configured, nothing in the data dir. */
export function freshHome(): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'crm-home-'));
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    // V8's compiled code, kept between runs (bin/crm.js): one folder for every crm the tests start,
    // rather than a fresh one written by each test's first command (test/e2e/code-cache.test.ts
    // tries the default folder).
    NODE_COMPILE_CACHE: join(tmpdir(), 'crm-test-compile-cache'),
    // The SQLite binding CI chose for the whole run (.ci/run), for every crm the tests start too.
    ...(process.env.CRM_SQLITE ? { CRM_SQLITE: process.env.CRM_SQLITE } : {}),
  };
}

/** Environment pointing crm at a test server with its key. */
export function serverEnv(server: TestServer, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...freshHome(), CRM_BASE_URL: server.url, CRM_API_KEY: server.apiKey, ...extra };
}

export function crm(args: string[], options: RunOptions = {}): Promise<Result> {
  return new Promise((resolvePromise, reject) => {
    const env = options.env ?? freshHome();
    const child = spawn(process.execPath, [options.bin ?? CRM_BIN, ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 2 * PATIENCE_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      capture(stdout + stderr, env, [args.includes('--with-key') ? options.input : undefined]);
      resolvePromise({ code, stdout, stderr });
    });
    // A crm that ends before it reads its input (or before the write reaches it, on a busy machine)
    // closes the pipe: the write's EPIPE is no failure of the test, which checks the output and code.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/** Parses stdout as JSON, with the output in the failure message when it is not. */
export function json(result: Result): any {
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.code}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}
