import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { serveSandbox, type RequestLogEntry } from '../../src/sandbox/server.js';

export interface Envelope<T> {
  data: T;
  error: string | null;
}

export interface ApiResult<T> {
  status: number;
  headers: Headers;
  body: Envelope<T>;
}

/** A JSON object as the tests read it: any member, any shape. */
export type Json = any;

export interface TestSandbox {
  sandbox: Sandbox;
  /** The base URL, ending in /api/v1. */
  url: string;
  dir: string;
  dbPath: string;
  log: RequestLogEntry[];
  /** Shifts the sandbox's clock (real time plus this offset). */
  advanceClock(ms: number): void;
  /** Sends a request with the sandbox's key unless `headers` replaces it. */
  api<T = Json>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResult<T>>;
  close(): Promise<void>;
}

export async function startSandbox(options: { seed?: boolean; agentIntervalMs?: number } = {}): Promise<TestSandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'crm-sandbox-'));
  const dbPath = join(dir, 'sandbox.db');
  let offsetMs = 0;
  const sandbox = await openSandbox({ dbPath, seed: options.seed, now: () => new Date(Date.now() + offsetMs) });
  const log: RequestLogEntry[] = [];
  const served = await serveSandbox({ sandbox, onRequest: (entry) => log.push(entry), agentIntervalMs: options.agentIntervalMs });
  return {
    sandbox,
    url: served.url,
    dir,
    dbPath,
    log,
    advanceClock: (ms) => {
      offsetMs += ms;
    },
    async api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const response = await fetch(`${served.url}${path}`, {
        method,
        headers: { 'x-service-api-key': sandbox.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope<T> };
    },
    async close() {
      await served.close();
      sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
