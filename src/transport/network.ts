// The network transport: node:http/https with kept-alive connections. Not fetch: its first call
// loads undici, about 115 ms on Node 20. Each module (https pulls in tls and crypto) is loaded only
// when a request needs it.

import { TransportError, pathAndQuery, type Transport, type TransportRequest, type TransportResponse } from './types.js';

/** Errors raised before a connection existed: nothing was sent. */
const NOT_DELIVERED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
/** setTimeout's limit; a longer delay would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

type HttpModule = typeof import('node:http');

export async function createNetworkTransport(): Promise<Transport & { close(): void }> {
  const clients = new Map<string, { module: HttpModule; agent: InstanceType<HttpModule['Agent']> }>();
  const clientFor = async (protocol: string) => {
    let client = clients.get(protocol);
    if (!client) {
      const module = (protocol === 'https:' ? await import('node:https') : await import('node:http')) as HttpModule;
      client = { module, agent: new module.Agent({ keepAlive: true }) };
      clients.set(protocol, client);
    }
    return client;
  };

  const transport = async (request: TransportRequest): Promise<TransportResponse> => {
    const url = new URL(request.url);
    const { module, agent } = await clientFor(url.protocol);
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const fail = (error: TransportError) => settle(() => reject(error));
      const cutShort = () => fail(new TransportError(`the response from ${url.host} was cut short`, 'ETRUNCATED', true));

      const path = pathAndQuery(request.url);
      const headers = { ...request.headers };
      if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));
      let connected = false;
      const req = module.request(
        { protocol: url.protocol, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || undefined, method: request.method, path, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            // A body shorter than its Content-Length (the peer closed early) is not an answer.
            if (!res.complete) return cutShort();
            settle(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          });
          res.on('close', () => {
            if (!res.complete) cutShort();
          });
          res.on('error', cutShort);
        },
      );
      // A deadline for the whole exchange, not only for an idle socket.
      const timer = setTimeout(() => {
        fail(new TransportError(`request timed out after ${request.timeoutMs / 1000}s`, 'ETIMEDOUT', true));
        req.destroy();
      }, Math.min(request.timeoutMs, MAX_TIMER_MS));
      req.on('socket', (socket) => {
        // A kept-alive socket is connected already; only a new one gets a listener.
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        const code = error.code ?? 'ENETWORK';
        const delivered = connected || !NOT_DELIVERED.has(code);
        fail(new TransportError(describeNetworkError(error, url.host), code, delivered));
      });
      req.end(request.body);
    });
  };

  return Object.assign(transport, {
    close() {
      for (const { agent } of clients.values()) agent.destroy();
    },
  });
}

function describeNetworkError(error: NodeJS.ErrnoException, host: string): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `could not connect to ${host} (connection refused)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `could not resolve host ${host}`;
    case 'ECONNRESET':
      return `connection to ${host} was reset`;
    default:
      if (error.code?.startsWith('ERR_TLS') || /certificate|SSL|TLS/i.test(error.message)) {
        return `TLS error talking to ${host}: ${error.message}`;
      }
      return `network error talking to ${host}: ${error.message}`;
  }
}
