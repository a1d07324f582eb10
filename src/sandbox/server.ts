// `crm sandbox serve`: the sandbox's handler behind node:http on a local port, with the scoring
// agent on a timer, for programs other than crm (and crm's own end-to-end tests).

import { API_PREFIX } from '../registry/service.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorResponse, type SandboxRequest } from './http.js';
import type { Sandbox, SandboxResponse } from './index.js';
import { AGENT_INTERVAL_MS } from './scoring.js';

const BODY_LIMIT_BYTES = 1024 * 1024;

/** A request the server answered, and the status it answered with. */
export interface RequestLogEntry extends SandboxRequest {
  status: number;
}

interface ServeOptions {
  sandbox: Sandbox;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** Called after each response is written: the log that lets tests prove what was (not) sent. */
  onRequest?: (entry: RequestLogEntry) => void;
  agentIntervalMs?: number;
}

interface SandboxServer {
  server: Server;
  port: number;
  /** The base URL, ending in /api/v1. */
  url: string;
  /** Stops the server and the agent timer; the sandbox stays open (the caller owns it). */
  close(): Promise<void>;
}

/**
 * Reads the whole body, or undefined as soon as it is known to be past the limit: a Content-Length
 * over it, or the bytes read so far. The 413 is then answered at once and the connection closed
 * (HTTP clients read an answer that comes before their body is sent). Read to its end before, a body
 * of any size was taken in (10 GB, or chunks sent for ever) before its 413, until Node's five-minute
 * request timeout.
 */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    if (Number(request.headers['content-length']) > BODY_LIMIT_BYTES) return resolve(undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT_BYTES) chunks.push(chunk);
      else resolve(undefined);
    });
    request.on('end', () => resolve(size <= BODY_LIMIT_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined));
    request.on('error', reject);
  });
}

/** A failed agent run must not take the server down; it is reported and retried on the next tick. */
function runAgentSafely(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    process.stderr.write(`crm sandbox: the scoring agent failed: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function serveSandbox(options: ServeOptions): Promise<SandboxServer> {
  const { sandbox, port = 0, host = '127.0.0.1', onRequest, agentIntervalMs = AGENT_INTERVAL_MS } = options;

  const server = createServer((request, response) => {
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    readBody(request).then(
      (body) => {
        const result: SandboxResponse =
          body === undefined
            ? errorResponse(413, 'Request body too large: the limit is 1 MiB', { connection: 'close' })
            : sandbox.handle({ method, url, headers: request.headers, body });
        response.writeHead(result.status, result.headers);
        response.end(result.body);
        onRequest?.({ method, url, headers: request.headers, body: body ?? '', status: result.status });
      },
      () => response.destroy(),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  // Catch up once if the last run is over an hour old, then run on the timer.
  runAgentSafely(() => sandbox.catchUpScoringAgent());
  const agentTimer = setInterval(() => runAgentSafely(() => sandbox.runScoringAgent()), agentIntervalMs);
  agentTimer.unref();

  const boundPort = (server.address() as AddressInfo).port;
  return {
    server,
    port: boundPort,
    url: `http://${urlHost(host)}:${boundPort}${API_PREFIX}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        clearInterval(agentTimer);
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
