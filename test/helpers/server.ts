// The test server: the sandbox's own request handler served over loopback HTTP, with a request log
// (how tests prove that nothing was sent) and scripted faults for the failure paths.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { openSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { serverEnv } from './crm.js';

export interface LoggedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Fault {
  /** Only requests whose "METHOD /path" matches. */
  match?: RegExp;
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Hold the response this long (timeouts). */
  delayMs?: number;
  /** Drop the connection without answering. */
  destroy?: boolean;
  /** How many requests it applies to (default 1). */
  times?: number;
}

export interface TestServer {
  url: string;
  apiKey: string;
  sandbox: Sandbox;
  log: LoggedRequest[];
  /** Requests that reached the server, other than those the test made itself. */
  requests(filter?: RegExp): LoggedRequest[];
  fault(fault: Fault): void;
  close(): Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'crm-server-'));
  const sandbox = openSandbox({ dbPath: join(dir, 'sandbox.db') });
  const log: LoggedRequest[] = [];
  const faults: Fault[] = [];

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
      log.push(entry);
      const index = faults.findIndex((fault) => !fault.match || fault.match.test(`${entry.method} ${entry.url}`));
      if (index >= 0) {
        const fault = faults[index]!;
        fault.times = (fault.times ?? 1) - 1;
        if (fault.times <= 0) faults.splice(index, 1);
        setTimeout(() => {
          if (fault.destroy) return req.socket.destroy();
          if (fault.status === undefined) return respond();
          res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
          res.end(fault.body ?? JSON.stringify({ data: null, error: `injected ${fault.status}` }));
        }, fault.delayMs ?? 0);
        return;
      }
      respond();
      function respond() {
        const answer = sandbox.handle({ method: entry.method, url: entry.url, headers: req.headers, body });
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    apiKey: sandbox.apiKey,
    sandbox,
    log,
    requests: (filter) => log.filter((entry) => !filter || filter.test(`${entry.method} ${entry.url}`)),
    fault: (fault) => faults.push(fault),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calls the server directly (setup and checks), outside the request log of crm's traffic. */
export async function api(server: TestServer, method: string, path: string, body?: unknown): Promise<{ status: number; data: any; error: any }> {
  const before = server.log.length;
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-service-api-key': server.apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: unknown; error: unknown };
  server.log.splice(before);
  return { status: response.status, data: json.data, error: json.error };
}

/**
 * One test server for a test file: started before its tests, request log cleared before each test,
 * closed after. The returned object is filled in when the server is up.
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
  return live;
}
