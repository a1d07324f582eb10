// The network transport: undici (the HTTP client Node's own fetch is built on) behind the Transport
// seam, loaded only by commands that reach the network. undici speaks HTTP/1.1 and keeps connections
// alive (one per request under way, per origin), lets idle ones go, tunnels through HTTP(S)_PROXY
// with CONNECT, verifies and reuses TLS sessions. This file adds what the core's rules need: answers
// asked for compressed and decoded, a size cap, the --timeout deadline over the whole exchange,
// cancellation, and for every failure whether the request may have reached the service.
//
// Requests go through undici's dispatch() with a handler of this file rather than request(): only
// a handler learns when a request was handed to a connection (onRequestStart), which tells "never
// sent, safe to send again, even a POST" from "may have been delivered".

import type { Dispatcher } from 'undici';
import { compileParserCheaply } from './parser-tier.js';
import { requestTarget } from './target.js';
import { CANCELLED, TransportError, originOf, type Transport, type TransportRequest, type TransportResponse } from './types.js';

/** Idle connections are let go after this, or sooner when the server's Keep-Alive hint says so. */
const IDLE_MS = 4_000;
const CONNECT_TIMEOUT_MS = 10_000;
/** Answers larger than this (as sent or decoded) are refused: a list page is a few KiB. */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** An answer whose headers are larger than this is refused (Node's own limit). */
const MAX_HEADER_BYTES = 16 * 1024;
const ACCEPT_ENCODING = 'gzip, br';

/** Failures of the connection itself: nothing was sent on it. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_CONNECT_TIMEOUT: 'timed out',
};

/** The hint of a host that is not there: the base URL is what names it. */
const CHECK_BASE_URL = "check the base URL (--base-url, CRM_BASE_URL or the profile's base_url)";

export interface NetworkOptions {
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lower-case forms) are read. */
  env: NodeJS.ProcessEnv;
  /** How long an idle connection is kept at most (default IDLE_MS). */
  idleMs?: number;
}

interface NetworkTransport extends Transport {
  close(): void;
}

/** The proxy settings of an environment; the lower-case names win, as curl reads them. */
interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy: string;
}

export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  const read = (name: string) => (env[name.toLowerCase()] || env[name] || '').trim() || undefined;
  const httpProxy = read('HTTP_PROXY');
  const noProxy = read('NO_PROXY') ?? '';
  // This machine is never reached through a proxy (as Go's clients, gh among them, do).
  const loopback = 'localhost,127.0.0.1,[::1]';
  return { httpProxy, httpsProxy: read('HTTPS_PROXY') ?? httpProxy, noProxy: noProxy === '*' ? '*' : [noProxy, loopback].filter(Boolean).join(',') };
}

export async function createNetworkTransport(options: NetworkOptions): Promise<NetworkTransport> {
  const proxies = proxySettings(options.env);
  const idleMs = options.idleMs ?? IDLE_MS;
  const agentOptions = {
    keepAliveTimeout: idleMs,
    keepAliveMaxTimeout: idleMs,
    // A server's `Keep-Alive: timeout=N`: stop using the connection a second before it does.
    keepAliveTimeoutThreshold: 1_000,
    maxHeaderSize: MAX_HEADER_BYTES,
    connect: { timeout: CONNECT_TIMEOUT_MS, keepAlive: true, keepAliveInitialDelay: 30_000 },
  };
  let dispatcher: Dispatcher;
  if (proxies.httpProxy || proxies.httpsProxy) {
    // The whole of undici: its proxy agent needs the API methods the index adds to every dispatcher.
    const { default: undici } = await import('undici/index.js');
    // Given explicitly, so that undici never reads process.env behind the command's back.
    dispatcher = new undici.EnvHttpProxyAgent({ ...agentOptions, httpProxy: proxies.httpProxy ?? '', httpsProxy: proxies.httpsProxy ?? '', noProxy: proxies.noProxy });
  } else {
    const { default: Agent } = await import('undici/lib/dispatcher/agent.js');
    dispatcher = new Agent(agentOptions);
  }
  // After undici: node:v8 needs node:stream, which undici has loaded by then.
  compileParserCheaply();
  const transport: Transport = (request) => new Promise((resolve, reject) => send(dispatcher, proxyFor(request.url, proxies), request, resolve, reject));
  return Object.assign(transport, {
    close() {
      void dispatcher.destroy().catch(() => {});
    },
  });
}

/**
 * The proxy a request to `url` goes through, as messages name it (without credentials): NO_PROXY
 * read as undici reads it (host or domain suffix, an optional port, `*` for none).
 */
function proxyFor(url: string, proxies: ProxySettings): string | undefined {
  const { protocol, host, port } = new URL(url);
  const proxy = protocol === 'https:' ? proxies.httpsProxy : proxies.httpProxy;
  if (!proxy || proxies.noProxy === '*') return undefined;
  const hostname = host.replace(/:\d*$/, '').toLowerCase();
  const portNumber = Number(port) || (protocol === 'https:' ? 443 : 80);
  const bypass = proxies.noProxy.split(/[,\s]/).some((entry) => {
    if (!entry) return false;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (parsed && Number(parsed[2]) !== portNumber) return false;
    return hostname === name || hostname.endsWith(`.${name}`);
  });
  return bypass ? undefined : shownProxy(proxy);
}

function shownProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    return `${url.protocol}//${url.host}`;
  } catch {
    return proxy;
  }
}

function send(dispatcher: Dispatcher, proxy: string | undefined, request: TransportRequest, resolve: (response: TransportResponse) => void, reject: (error: TransportError) => void): void {
  const origin = originOf(request.url);
  const host = new URL(origin).host;
  const path = requestTarget(request.url);
  if (path === undefined) return reject(new TransportError(`the URL ${JSON.stringify(request.url)} cannot be sent: it holds a control character`, 'EINVALIDURL', false, { invalid: true }));
  const exchange = new Exchange(host, proxy, request, resolve, reject);
  if (exchange.settled) return;
  try {
    dispatcher.dispatch(
      {
        origin,
        path,
        method: request.method as Dispatcher.HttpMethod,
        headers: { ...request.headers, 'accept-encoding': ACCEPT_ENCODING },
        body: request.body,
        // The deadline of the exchange covers it all.
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      exchange,
    );
  } catch (error) {
    exchange.onResponseError(undefined, error as Error);
  }
}

/** One request under way: undici's handler, settling the transport's promise once. */
class Exchange implements Dispatcher.DispatchHandler {
  settled = false;
  /** Handed to a connection: from here on the service may have received it. */
  private sent = false;
  private answered = false;
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private controller?: Dispatcher.DispatchController;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.fail(cancelled(this.sent));

  constructor(
    private readonly host: string,
    private readonly proxy: string | undefined,
    private readonly request: TransportRequest,
    private readonly resolve: (response: TransportResponse) => void,
    private readonly reject: (error: TransportError) => void,
  ) {
    this.timer = setTimeout(() => this.fail(new TransportError(`request timed out after ${request.timeoutMs / 1000}s`, 'ETIMEDOUT', this.sent)), request.timeoutMs);
    if (request.signal?.aborted) this.onAbort();
    else request.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Settled already (cancelled or timed out while connecting): it is never written.
    if (this.settled) return controller.abort(new Error('abandoned'));
    this.sent = true;
    this.request.onSent?.();
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>): void {
    if (status < 100 || status > 599) return this.failAndAbort(controller, this.malformed(`a status of ${status}`));
    // 1xx: an interim answer; the final one follows.
    if (status < 200) return;
    this.answered = true;
    this.status = status;
    this.headers = headers;
    const length = Number(headers['content-length']);
    if (length > MAX_RESPONSE_BYTES) this.failAndAbort(controller, this.tooLarge());
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.size > MAX_RESPONSE_BYTES) return this.failAndAbort(controller, this.tooLarge());
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settled) return;
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    decode(body, this.headers['content-encoding']).then(
      (text) => this.finish({ status: this.status, headers: this.headers, body: text }),
      (problem: string) => this.fail(problem === TOO_LARGE ? this.tooLarge() : this.malformed(problem)),
    );
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error & { code?: string }): void {
    this.fail(this.describe(error));
  }

  private finish(response: TransportResponse): void {
    if (!this.begin()) return;
    this.resolve(response);
  }

  private fail(error: TransportError): void {
    if (!this.begin()) return;
    this.controller?.abort(error);
    this.reject(error);
  }

  private failAndAbort(controller: Dispatcher.DispatchController, error: TransportError): void {
    this.controller = controller;
    this.fail(error);
  }

  private begin(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    this.request.signal?.removeEventListener('abort', this.onAbort);
    return true;
  }

  private malformed(problem: string): TransportError {
    return new TransportError(`malformed response from ${this.host}: ${problem}`, 'EPROTO', true, { malformed: true });
  }

  private tooLarge(): TransportError {
    return new TransportError(`the response from ${this.host} is larger than crm's limit of ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`, 'ETOOLARGE', true, { malformed: true });
  }

  /** undici's error as crm says it, and whether the request may have reached the service. */
  private describe(error: Error & { code?: string }): TransportError {
    const code = error.code ?? 'ENETWORK';
    const host = this.host;
    if (!this.sent && isProxyRefusal(error)) return this.unsent(error, code);
    if (code === 'UND_ERR_INVALID_ARG' && !this.sent) {
      return new TransportError(`the request cannot be sent: ${error.message}`, 'EINVALIDHEADER', false, { invalid: true });
    }
    if (this.answered) return new TransportError(`the response from ${host} was cut short`, 'ETRUNCATED', true);
    if (error.name === 'HTTPParserError' || code.startsWith('HPE_') || error.message === 'bad response' || error.message === 'bad upgrade') return this.malformed(parserProblem(error));
    if (code === 'UND_ERR_HEADERS_OVERFLOW') return this.malformed(`its headers are larger than crm's limit of ${MAX_HEADER_BYTES / 1024} KiB`);
    if (!this.sent) return this.unsent(error, code);
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') {
      const reset = code !== 'UND_ERR_SOCKET' || /reset/i.test(error.message);
      return new TransportError(reset ? `connection to ${host} was reset` : `connection to ${host} was closed before it answered`, 'ECONNRESET', true);
    }
    return new TransportError(`network error talking to ${host}: ${error.message}`, code, true);
  }

  /** A failure before the request reached a connection: nothing was sent. */
  private unsent(error: Error & { code?: string }, code: string): TransportError {
    const host = this.host;
    const proxy = this.proxy;
    if (isProxyRefusal(error)) {
      const status = Number(/\((\d{3})\)/.exec(error.message)?.[1] ?? 407);
      return new TransportError(`the proxy ${proxy ?? ''} refused to connect to ${host} (HTTP ${status})`.replace('  ', ' '), 'EPROXY', false, {
        // A proxy that could not reach the service may manage the next time.
        final: status !== 502 && status !== 503 && status !== 504,
        hint: status === 407 ? 'the proxy wants credentials: give them in the proxy URL (https_proxy=http://user:password@proxy:port)' : 'check HTTPS_PROXY, HTTP_PROXY and NO_PROXY',
      });
    }
    if (code in UNREACHABLE) {
      const what = code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? undefined : UNREACHABLE[code];
      if (proxy) return new TransportError(`could not connect to the proxy ${proxy} (${UNREACHABLE[code]})`, code, false, { hint: 'check HTTPS_PROXY, HTTP_PROXY and NO_PROXY' });
      // A host no name service knows, or where nothing listens: most often a base URL mistyped.
      const hint = code === 'ECONNREFUSED' ? `${CHECK_BASE_URL}, and that the service is up` : what ? undefined : CHECK_BASE_URL;
      return new TransportError(what ? `could not connect to ${host} (${what})` : `could not resolve host ${new URL(`http://${host}`).hostname}`, code, false, { hint });
    }
    if (isCertificateError(error)) {
      return new TransportError(`TLS error talking to ${host}: ${error.message}`, code, false, {
        final: true,
        hint: `if ${new URL(`http://${host}`).hostname} uses a private certificate authority, set NODE_EXTRA_CA_CERTS to its certificate (a PEM file)`,
      });
    }
    if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code === 'UND_ERR_PRX_TLS') {
      return new TransportError(`TLS error talking to ${code === 'UND_ERR_PRX_TLS' ? `the proxy ${proxy}` : host}: ${error.message}`, code, false, { final: true });
    }
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') {
      return new TransportError(`connection to ${proxy ? `the proxy ${proxy}` : host} was ${code === 'ECONNRESET' ? 'reset' : 'closed'} before the request was sent`, code, false);
    }
    return new TransportError(`network error talking to ${host}: ${error.message}`, code, false);
  }
}

/** undici's words for a proxy that answered CONNECT with something other than 200. */
function isProxyRefusal(error: Error): boolean {
  return /^Proxy response \(\d{3}\)|Proxy Authentication Required/.test(error.message);
}

function cancelled(sent: boolean): TransportError {
  return new TransportError('cancelled', CANCELLED, sent, { final: true });
}

const CERTIFICATE_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH)/;

function isCertificateError(error: Error & { code?: string }): boolean {
  return CERTIFICATE_CODES.test(error.code ?? '') || (error.name === 'SecureProxyConnectionError' && CERTIFICATE_CODES.test((error.cause as { code?: string } | undefined)?.code ?? ''));
}

/** undici's words for what is wrong with an answer, as the rest of a sentence. */
function parserProblem(error: Error): string {
  const text = error.message === 'bad upgrade' ? 'a switch of protocols nobody asked for' : error.message === 'bad response' ? 'an answer nobody asked for' : error.message;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

const TOO_LARGE = 'too large';

/** The body as text, decoded as its Content-Encoding says; rejects with what went wrong. */
async function decode(body: Buffer, encoding: string | string[] | undefined): Promise<string> {
  const coding = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? '')).trim().toLowerCase();
  if (coding === '' || coding === 'identity') return body.toString('utf8');
  const zlib = await import('node:zlib');
  const decoders: Record<string, typeof zlib.gunzip> = { gzip: zlib.gunzip, 'x-gzip': zlib.gunzip, br: zlib.brotliDecompress, deflate: zlib.inflate };
  const decoder = decoders[coding];
  if (!decoder) throw `an answer encoded as "${coding.slice(0, 40)}", which crm does not ask for`;
  return new Promise((resolve, reject) =>
    decoder(body, { maxOutputLength: MAX_RESPONSE_BYTES }, (error, decoded) => {
      if (!error) return resolve(decoded.toString('utf8'));
      reject((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? TOO_LARGE : `the body does not decode as ${coding}`);
    }),
  );
}
