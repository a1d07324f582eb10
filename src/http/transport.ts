// The only part of the HTTP core that differs between a real workspace (the network) and the
// embedded sandbox (a direct call of its request handler). Everything above it is shared.

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

export class TransportError extends Error {
  /** False only when the request certainly never reached the service (so even a POST may be retried). */
  readonly delivered: boolean;
  readonly code: string;

  constructor(message: string, code: string, delivered: boolean) {
    super(message);
    this.name = 'TransportError';
    this.code = code;
    this.delivered = delivered;
  }
}

/** Errors raised before a connection existed: nothing was sent. */
const NOT_DELIVERED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

type HttpModule = typeof import('node:http');

/**
 * node:http/https rather than fetch: fetch's first call loads undici, about 115 ms on Node 20. Each
 * module (https pulls in tls and crypto) is loaded only when a request needs it.
 */
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
      // `path` is passed as built: URL parsing would resolve dot segments.
      const path = request.url.slice(request.url.indexOf('/', url.protocol.length + 2));
      const headers = { ...request.headers };
      if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));
      let connected = false;
      const req = module.request(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || undefined,
          method: request.method,
          path,
          headers,
          agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
          });
          res.on('error', (error) => req.destroy(error));
        },
      );
      // A deadline for the whole exchange, not only for an idle socket.
      const timer = setTimeout(() => {
        req.destroy(new TransportError(`request timed out after ${request.timeoutMs / 1000}s`, 'ETIMEDOUT', true));
      }, request.timeoutMs);
      req.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        socket.once('connect', () => (connected = true));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (error instanceof TransportError) return reject(error);
        const code = error.code ?? 'ENETWORK';
        const delivered = connected || !NOT_DELIVERED.has(code);
        reject(new TransportError(describeNetworkError(error, url.host), code, delivered));
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
