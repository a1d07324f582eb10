// The test server: `crm sandbox serve` (the built CLI, on a free loopback port, in its own home)
// behind a transparent proxy in this process that keeps a log of every request crm sends (how tests
// prove that nothing was sent) and can answer with scripted faults for the failure paths.

import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { CRM_BIN, freshHome, serverEnv } from './crm.js';
import { FaultScript, faultBody, logAndFaults, type AnswerFault } from './faults.js';

export interface LoggedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Fault extends AnswerFault {
  /** Hold the response this long (timeouts). */
  delayMs?: number;
  /** Drop the connection without answering. */
  destroy?: boolean;
}

/** A server tests point crm at: it logs every request and misbehaves on request (FAULT). */
export interface ScriptedServer<FAULT, REQUEST extends LoggedRequest = LoggedRequest> {
  /** The base URL crm is pointed at, ending in /api/v1. */
  url: string;
  apiKey: string;
  log: REQUEST[];
  requests(filter?: RegExp): REQUEST[];
  fault(fault: FAULT): void;
  /** Fails when a scripted fault was not used up (see faults.ts), and forgets the rest. */
  verifyFaults(): void;
  close(): Promise<void>;
}

export interface TestServer extends ScriptedServer<Fault> {
  /** Resolves once every request logged so far has been answered by the service (or dropped). */
  settled(): Promise<void>;
}

/** Starts `crm sandbox serve --port 0 --json` and resolves with what it prints: url, api_key, port. */
export async function startSandboxServe(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number; apiKey: string }> {
  const child = spawn(process.execPath, [CRM_BIN, 'sandbox', 'serve', '--port', '0', '-o', 'ndjson'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const info = await new Promise<{ port: number; api_key: string }>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0]!));
    });
    child.on('exit', (code) => reject(new Error(`crm sandbox serve exited ${code}: ${stderr}`)));
  });
  return { child, port: info.port, apiKey: info.api_key };
}

export async function startServer(): Promise<TestServer> {
  const home = freshHome();
  const serve = await startSandboxServe(home);
  const log: LoggedRequest[] = [];
  const faults = new FaultScript<Fault>();

  /** Requests logged and not yet handled: held by a delay, or waiting for the service's answer. */
  const handling = new Set<Promise<void>>();

  /** Resolves when the service has answered in full (or the request failed). */
  const forward = (entry: LoggedRequest, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      const upstream = httpRequest({ host: '127.0.0.1', port: serve.port, method: entry.method, path: entry.url, headers: entry.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', resolve).on('error', resolve);
      });
      upstream.on('error', () => {
        res.destroy();
        resolve();
      });
      upstream.end(entry.body);
    });

  const handle = async (entry: LoggedRequest, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const fault = faults.take(`${entry.method} ${entry.url}`);
    if (!fault) return forward(entry, res);
    await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 0));
    if (fault.destroy) return void req.socket.destroy();
    if (fault.status === undefined) return forward(entry, res);
    res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
    res.end(faultBody(fault));
  };

  const proxy: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      // The test's own setup and checks (api() below) are neither logged nor faulted.
      if (req.headers[SETUP_HEADER]) return void forward(entry, res);
      log.push(entry);
      const handled = handle(entry, req, res);
      handling.add(handled);
      void handled.finally(() => handling.delete(handled));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    apiKey: serve.apiKey,
    ...logAndFaults(log, faults),
    settled: async () => {
      while (handling.size > 0) await Promise.all(handling);
    },
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      const exited = new Promise((resolve) => serve.child.on('exit', resolve));
      serve.child.kill('SIGTERM');
      await exited;
      rmSync(home.HOME!, { recursive: true, force: true });
    },
  };
}

const SETUP_HEADER = 'x-test-setup';

/** Calls the service directly (the test's setup and checks), outside the log of crm's traffic. */
export async function api(server: TestServer, method: string, path: string, body?: unknown): Promise<{ status: number; data: any; error: any }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-service-api-key': server.apiKey, 'content-type': 'application/json', [SETUP_HEADER]: '1' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: unknown; error: unknown };
  return { status: response.status, data: json.data, error: json.error };
}

/**
 * One test server for a test file: started before its tests, request log cleared before each test
 * and its faults verified after, closed after all. The returned object is filled in when the server is up.
 */
export function useTestServer(): { server: TestServer; env: NodeJS.ProcessEnv } {
  const live = {} as { server: TestServer; env: NodeJS.ProcessEnv };
  beforeAll(async () => {
    live.server = await startServer();
    live.env = serverEnv(live.server);
  });
  afterAll(() => live.server.close());
  beforeEach(() => {
    live.server.log.length = 0;
  });
  afterEach(() => live.server.verifyFaults());
  return live;
}
