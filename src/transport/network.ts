// The network transport: HTTP/1.1 over net/tls with kept-alive connections (./http1.ts frames the
// bytes). Not node:http: it costs more CPU per request than the service spends answering, which
// caps a bulk import well below what the service can take. Not fetch: its first call loads undici,
// about 115 ms on Node 20, and undici's Pool measured slower than node:http here. tls (with crypto)
// is loaded only when a request needs it.
//
// Per request: one Exchange (with its parser), no closures and no timer (one timer checks every
// request's deadline). Where crm and the service share a machine's cores, the client's CPU is
// taken from the service (bench/scale.mjs measures an import against `crm sandbox serve`).

import type { Socket } from 'node:net';
import { AnswerParser, InvalidHeaderError, MalformedAnswerError, serializeRequest, type Answer } from './http1.js';
import { TransportError, originOf, pathAndQuery, type Transport, type TransportRequest, type TransportResponse } from './types.js';

/** Errors raised before a connection existed: nothing was sent. */
const NOT_DELIVERED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
/** How often the deadlines of the requests under way are checked: one timer, not one a request. */
const DEADLINE_CHECK_MS = 50;
const READ_BUFFER_BYTES = 64 * 1024;

/** A connection to one origin, idle in its pool or carrying one exchange. */
interface Connection {
  socket: Socket;
  origin: string;
  /** The TCP connection was made: from here on a request may have reached the service. */
  connected: boolean;
  exchange?: Exchange;
  /** When it went back to the pool (Date.now()), and how long it may stay there. */
  idleSince: number;
  maxIdleMs: number;
}

/** What the transport does when an exchange is over: pool its connection (answered), and count it. */
interface Settling {
  release(connection: Connection, answer: Answer): void;
  settled(): void;
}

/** One request under way on a connection: settles once, on the answer, a failure or its deadline. */
class Exchange {
  readonly parser: AnswerParser;
  /** When it times out (Date.now()): a deadline for the whole exchange, not only for an idle socket. */
  readonly deadline: number;
  private settled = false;

  constructor(
    private readonly connection: Connection,
    private readonly host: string,
    private readonly request: TransportRequest,
    private readonly settling: Settling,
    private readonly resolve: (response: TransportResponse) => void,
    private readonly reject: (error: TransportError) => void,
  ) {
    this.parser = new AnswerParser(request.method);
    this.deadline = Date.now() + request.timeoutMs;
  }

  answered(answer: Answer): void {
    if (!this.begin()) return;
    this.settling.release(this.connection, answer);
    this.resolve({ status: answer.status, headers: answer.headers, body: answer.body });
  }

  failed(error: Error & { code?: string }): void {
    if (error instanceof MalformedAnswerError) return this.fail(new TransportError(`malformed response from ${this.host}: ${error.message}`, 'EPROTO', true));
    if (this.parser.received) return this.cutShort();
    const code = error.code ?? 'ENETWORK';
    this.fail(new TransportError(describeNetworkError(error, this.host), code, this.connection.connected || !NOT_DELIVERED.has(code)));
  }

  closed(): void {
    if (this.parser.received) return this.cutShort();
    this.fail(new TransportError(`connection to ${this.host} was closed before it answered`, 'ECONNRESET', this.connection.connected));
  }

  timedOut(): void {
    this.fail(new TransportError(`request timed out after ${this.request.timeoutMs / 1000}s`, 'ETIMEDOUT', true));
  }

  private cutShort(): void {
    this.fail(new TransportError(`the response from ${this.host} was cut short`, 'ETRUNCATED', true));
  }

  private fail(error: TransportError): void {
    if (!this.begin()) return;
    this.connection.exchange = undefined;
    this.connection.socket.destroy();
    this.reject(error);
  }

  private begin(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.settling.settled();
    return true;
  }
}

export async function createNetworkTransport(): Promise<Transport & { close(): void }> {
  const { connect, isIP } = await import('node:net');
  const idle = new Map<string, Connection[]>();
  const open = new Set<Connection>();
  let readBuffer: Buffer | undefined;
  /**
   * Checks the deadlines of the exchanges under way, and keeps the process alive while there are
   * some: idle connections do not (they are unref'd).
   */
  let watchdog: NodeJS.Timeout | undefined;
  let underWay = 0;
  const checkDeadlines = () => {
    const now = Date.now();
    for (const connection of open) if (connection.exchange && now >= connection.exchange.deadline) connection.exchange.timedOut();
  };
  const settling: Settling = {
    release: (connection, answer) => release(connection, answer),
    settled: () => {
      if (--underWay === 0) watchdog?.unref();
    },
  };

  const forget = (connection: Connection) => {
    open.delete(connection);
    const pool = idle.get(connection.origin);
    const at = pool?.indexOf(connection) ?? -1;
    if (at >= 0) pool!.splice(at, 1);
  };

  const dial = async (url: URL, origin: string): Promise<Connection> => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    // Every read hands its bytes to the exchange under way.
    const received = (chunk: Buffer) => {
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
    };
    let socket: Socket;
    if (url.protocol === 'https:') {
      const { connect: connectTls } = await import('node:tls');
      socket = connectTls({ host, port, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] });
      socket.on('data', received);
    } else {
      // Reads land in one buffer, copied out: a stream's 'data' event costs more than its answer's parsing.
      readBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES);
      socket = connect({
        host,
        port,
        onread: {
          buffer: readBuffer,
          callback: (length, buffer) => {
            received(Buffer.from(buffer.subarray(0, length)));
            return true;
          },
        },
      });
    }
    const connection: Connection = { socket, origin, connected: false, idleSince: 0, maxIdleMs: Infinity };
    open.add(connection);
    socket.setNoDelay(true);
    socket.unref();
    socket.once('connect', () => (connection.connected = true));
    // Listeners for the connection's whole life, handing each event to the exchange under way.
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

  /** An idle connection to the origin that may still be used, if any. */
  const pooled = (origin: string): Connection | undefined => {
    const pool = idle.get(origin);
    const now = Date.now();
    for (let connection = pool?.pop(); connection; connection = pool?.pop()) {
      if (!connection.socket.destroyed && connection.socket.writable && now - connection.idleSince < connection.maxIdleMs) return connection;
      connection.socket.destroy();
    }
    return undefined;
  };

  const release = (connection: Connection, answer: Answer) => {
    connection.exchange = undefined;
    if (!answer.reusable || connection.socket.destroyed) return void connection.socket.destroy();
    // The server says how long it keeps an idle connection: stop using it a second before that.
    const keepAlive = answer.headers['keep-alive'];
    if (keepAlive !== undefined) {
      const timeout = /timeout=(\d+)/i.exec(String(keepAlive));
      if (timeout) connection.maxIdleMs = Math.max(Number(timeout[1]) - 1, 0) * 1000;
    }
    connection.idleSince = Date.now();
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
    const connection = pooled(origin) ?? (await dial(url, origin));
    return new Promise((resolve, reject) => {
      connection.exchange = new Exchange(connection, host, request, settling, resolve, reject);
      if (underWay++ === 0) (watchdog ??= setInterval(checkDeadlines, DEADLINE_CHECK_MS)).ref();
      connection.socket.write(bytes);
    });
  };

  return Object.assign(transport, {
    close() {
      clearInterval(watchdog);
      watchdog = undefined;
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
