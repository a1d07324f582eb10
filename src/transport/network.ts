// The network transport: HTTP/1.1 over net/tls with kept-alive connections (./http1.ts frames the
// bytes). Not node:http: it costs more CPU per request than the service spends answering, which
// caps a bulk import well below what the service can take. Not fetch: its first call loads undici,
// about 115 ms on Node 20, and undici's Pool measured slower than node:http here. tls (with crypto)
// is loaded only when a request needs it.

import type { Socket } from 'node:net';
import { AnswerParser, InvalidHeaderError, MalformedAnswerError, serializeRequest, type Answer } from './http1.js';
import { TransportError, originOf, pathAndQuery, type Transport, type TransportRequest, type TransportResponse } from './types.js';

/** Errors raised before a connection existed: nothing was sent. */
const NOT_DELIVERED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
/** setTimeout's limit; a longer delay would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One request under way on a connection. */
interface Exchange {
  parser: AnswerParser;
  answered(answer: Answer): void;
  failed(error: Error & { code?: string }): void;
  closed(): void;
}

/** A connection to one origin, idle in its pool or carrying one exchange. */
interface Connection {
  socket: Socket;
  origin: string;
  /** The TCP connection was made: from here on a request may have reached the service. */
  connected: boolean;
  exchange?: Exchange;
  idleTimer?: NodeJS.Timeout;
}

export async function createNetworkTransport(): Promise<Transport & { close(): void }> {
  const { connect, isIP } = await import('node:net');
  const idle = new Map<string, Connection[]>();
  const open = new Set<Connection>();

  const forget = (connection: Connection) => {
    clearTimeout(connection.idleTimer);
    open.delete(connection);
    const pool = idle.get(connection.origin);
    const at = pool?.indexOf(connection) ?? -1;
    if (at >= 0) pool!.splice(at, 1);
  };

  const dial = async (url: URL, origin: string): Promise<Connection> => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    let socket: Socket;
    if (url.protocol === 'https:') {
      const { connect: connectTls } = await import('node:tls');
      socket = connectTls({ host, port, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] });
    } else {
      socket = connect({ host, port });
    }
    const connection: Connection = { socket, origin, connected: false };
    open.add(connection);
    socket.setNoDelay(true);
    socket.once('connect', () => (connection.connected = true));
    // Listeners for the connection's whole life, handing each event to the exchange under way.
    socket.on('data', (chunk: Buffer) => {
      const exchange = connection.exchange;
      // Bytes nobody asked for: the connection cannot be trusted with the next request.
      if (!exchange) return void socket.destroy();
      let answer: Answer | undefined;
      try {
        answer = exchange.parser.push(chunk);
      } catch (error) {
        return exchange.failed(error as Error);
      }
      if (answer) exchange.answered(answer);
    });
    socket.on('end', () => {
      const answer = connection.exchange?.parser.end();
      if (answer) connection.exchange!.answered(answer);
      socket.destroy();
    });
    socket.on('error', (error) => connection.exchange?.failed(error));
    socket.on('close', () => {
      forget(connection);
      connection.exchange?.closed();
    });
    return connection;
  };

  const acquire = async (url: URL, origin: string): Promise<Connection> => {
    const pool = idle.get(origin);
    for (let connection = pool?.pop(); connection; connection = pool?.pop()) {
      clearTimeout(connection.idleTimer);
      if (!connection.socket.destroyed && connection.socket.writable) {
        connection.socket.ref();
        return connection;
      }
    }
    return dial(url, origin);
  };

  const release = (connection: Connection, answer: Answer) => {
    connection.exchange = undefined;
    if (!answer.reusable || connection.socket.destroyed) return void connection.socket.destroy();
    connection.socket.unref();
    // The server says how long it keeps an idle connection: give it back a second before that.
    const keepAlive = /timeout=(\d+)/i.exec(String(answer.headers['keep-alive'] ?? ''));
    if (keepAlive) connection.idleTimer = setTimeout(() => connection.socket.destroy(), Math.max(Number(keepAlive[1]) - 1, 0) * 1000).unref();
    let pool = idle.get(connection.origin);
    if (!pool) idle.set(connection.origin, (pool = []));
    pool.push(connection);
  };

  /** Parsed URLs by origin: every request of a command goes to the same one or two. */
  const origins = new Map<string, URL>();
  const transport = async (request: TransportRequest): Promise<TransportResponse> => {
    const origin = originOf(request.url);
    let url = origins.get(origin);
    if (!url) origins.set(origin, (url = new URL(request.url)));
    const host = url.host;
    let bytes: Buffer | string;
    try {
      bytes = serializeRequest(request.method, host, pathAndQuery(request.url), request.headers, request.body);
    } catch (error) {
      if (error instanceof InvalidHeaderError) throw new TransportError(error.message, 'EINVALIDHEADER', false);
      throw error;
    }
    const connection = await acquire(url, origin);
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const parser = new AnswerParser(request.method);
      const fail = (error: TransportError) =>
        settle(() => {
          connection.exchange = undefined;
          connection.socket.destroy();
          reject(error);
        });
      const cutShort = () => fail(new TransportError(`the response from ${host} was cut short`, 'ETRUNCATED', true));
      connection.exchange = {
        parser,
        answered: (answer) => settle(() => {
          release(connection, answer);
          resolve({ status: answer.status, headers: answer.headers, body: answer.body });
        }),
        failed: (error) => {
          if (error instanceof MalformedAnswerError) return fail(new TransportError(`malformed response from ${host}: ${error.message}`, 'EPROTO', true));
          if (parser.received) return cutShort();
          const code = error.code ?? 'ENETWORK';
          fail(new TransportError(describeNetworkError(error, host), code, connection.connected || !NOT_DELIVERED.has(code)));
        },
        closed: () => {
          if (parser.received) return cutShort();
          fail(new TransportError(`connection to ${host} was closed before it answered`, 'ECONNRESET', connection.connected));
        },
      };
      // A deadline for the whole exchange, not only for an idle socket.
      const timer = setTimeout(() => fail(new TransportError(`request timed out after ${request.timeoutMs / 1000}s`, 'ETIMEDOUT', true)), Math.min(request.timeoutMs, MAX_TIMER_MS));
      connection.socket.write(bytes);
    });
  };

  return Object.assign(transport, {
    close() {
      for (const connection of open) connection.socket.destroy();
    },
  });
}

function describeNetworkError(error: Error & { code?: string }, host: string): string {
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
