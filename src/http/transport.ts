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

/** node:http/https rather than fetch: fetch's first call loads undici, about 115 ms on Node 20. */
export async function createNetworkTransport(): Promise<Transport & { close(): void }> {
  const [http, https] = await Promise.all([import('node:http'), import('node:https')]);
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

  const transport = (request: TransportRequest): Promise<TransportResponse> =>
    new Promise((resolve, reject) => {
      const url = new URL(request.url);
      const isHttps = url.protocol === 'https:';
      const send = isHttps ? https.request : http.request;
      // `path` is passed as built: URL parsing would resolve dot segments.
      const path = request.url.slice(request.url.indexOf('/', url.protocol.length + 2));
      const headers = { ...request.headers };
      if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));
      let connected = false;
      const req = send(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || undefined,
          method: request.method,
          path,
          headers,
          agent: isHttps ? agents['https:'] : agents['http:'],
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

  return Object.assign(transport, {
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
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
