// A server that answers like the service, and misbehaves on request: the sandbox's own request
// handler behind node:http on 127.0.0.1, with scripted faults per request. It can answer any status
// (5xx, 3xx, 429 with any Retry-After), a body that is not what it claims (not JSON, HTML, empty,
// truncated, both members null, an error member on a 200, control characters, the key echoed back),
// reset the connection before, during or after the answer, close it cleanly mid-body, or never
// answer. It logs every request: how tests prove what was, or was not, sent.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openSandbox, type Sandbox, type SandboxResponse } from '../../src/sandbox/index.js';
import { freshHome } from './crm.js';
import { FaultScript, faultBody, logAndFaults, type AnswerFault } from './faults.js';
import { distinctMilliseconds } from './inprocess.js';
import type { LoggedRequest as ProxiedRequest, ScriptedServer } from './server.js';

/** What goes wrong with the connection. The service acts on the request first: the worst case for a retry. */
export type ConnectionFault = 'reset-before' | 'reset-during' | 'reset-after' | 'close-mid-body' | 'stall';

export interface Fault extends AnswerFault {
  connection?: ConnectionFault;
}

export interface LoggedRequest extends ProxiedRequest {
  /** The fault this request met, if any. */
  fault?: string;
}

export type FaultServer = ScriptedServer<Fault, LoggedRequest>;

const REASONS: Record<number, string> = { 200: 'OK', 201: 'Created' };

/** A response head written by hand, so that its Content-Length can promise more than the body holds. */
function head(status: number, headers: Record<string, string>, contentLength: number): string {
  const lines = [`HTTP/1.1 ${status} ${REASONS[status] ?? 'Status'}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), `Content-Length: ${contentLength}`];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function misbehave(socket: Socket, fault: ConnectionFault, answer: () => SandboxResponse, respond: (response: SandboxResponse) => void): void {
  if (fault === 'stall') {
    answer();
    return; // never answers; close() ends the connection
  }
  if (fault === 'reset-before') {
    answer();
    socket.resetAndDestroy();
    return;
  }
  const response = answer();
  const bytes = Buffer.from(response.body, 'utf8');
  if (fault === 'reset-after') {
    respond(response);
    // Once the answer is out: the connection the client keeps alive is reset under it.
    setTimeout(() => socket.resetAndDestroy(), 50).unref();
    return;
  }
  if (fault === 'reset-during') {
    socket.write(head(response.status, response.headers, bytes.length) + bytes.subarray(0, Math.floor(bytes.length / 2)).toString('latin1'), 'latin1');
    setImmediate(() => socket.resetAndDestroy());
    return;
  }
  // A clean close mid-body: Content-Length 200 (or the whole length), 25 bytes, then FIN.
  socket.write(head(response.status, response.headers, Math.max(200, bytes.length)) + bytes.subarray(0, 25).toString('latin1'), 'latin1');
  socket.end();
}

export async function startFaultServer(sandbox: Sandbox): Promise<FaultServer> {
  const log: LoggedRequest[] = [];
  const faults = new FaultScript<Fault>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: LoggedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      log.push(entry);
      const answer = () => sandbox.handle({ method: entry.method, url: entry.url, headers: req.headers, body: entry.body });
      const respond = (response: SandboxResponse) => {
        res.writeHead(response.status, response.headers);
        res.end(response.body);
      };
      const fault = faults.take(`${entry.method} ${entry.url}`);
      if (!fault) return respond(answer());
      entry.fault = fault.connection ?? `HTTP ${fault.status}`;
      if (fault.connection) return misbehave(req.socket, fault.connection, answer, respond);
      respond({
        status: fault.status ?? 500,
        headers: { 'content-type': 'application/json', ...fault.headers },
        body: faultBody(fault),
      });
    });
  });
  // Loopback only: the faults are for this machine's tests.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    apiKey: sandbox.apiKey,
    ...logAndFaults(log, faults),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ServedSandbox {
  sandbox: Sandbox;
  server: FaultServer;
  /** The service directly (a test's setup and checks), outside the log. */
  api(method: string, path: string, body?: unknown): { status: number; data: any };
  /** A fresh home pointed at the server with its key. */
  env(): NodeJS.ProcessEnv;
}

/**
 * A sandbox of its own behind a fault server, for one test file, with `contacts` more contacts than
 * the demo data (walks of many pages); the request log is cleared before each test, the faults
 * verified after.
 */
export function useServedSandbox(contacts = 0): ServedSandbox {
  const live = {} as ServedSandbox;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crm-served-'));
    const sandbox = await openSandbox({ dbPath: join(dir, 'sandbox.db'), now: distinctMilliseconds() });
    const api = (method: string, path: string, body?: unknown) => {
      const response = sandbox.handle({ method, url: `/api/v1${path}`, headers: { 'x-service-api-key': sandbox.apiKey }, body: body === undefined ? '' : JSON.stringify(body) });
      return { status: response.status, data: (JSON.parse(response.body) as { data: any }).data };
    };
    for (let n = 0; n < contacts; n++) api('POST', '/contacts', { name: `Walker ${n}`, email: `walker-${n}@example.com` });
    const server = await startFaultServer(sandbox);
    Object.assign(live, { sandbox, server, api, env: () => ({ ...freshHome(), CRM_BASE_URL: server.url, CRM_API_KEY: sandbox.apiKey }) });
  });
  afterAll(async () => {
    await live.server.close();
    live.sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    live.server.log.length = 0;
  });
  afterEach(() => live.server.verifyFaults());
  return live;
}
