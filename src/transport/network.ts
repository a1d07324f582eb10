// The network transport: Node's own HTTP client (node:http, node:https) behind the Transport seam,
// loaded only by commands that reach the network. It speaks HTTP/1.1 and keeps connections alive
// (one per request under way, per origin), lets idle ones go, verifies TLS and resumes its sessions,
// and tunnels through HTTP(S)_PROXY with CONNECT (https-proxy-agent, loaded only when a proxy is set).
// This file adds what the core's rules need: answers asked for compressed and decoded, a size cap,
// the --timeout deadline over the whole exchange, cancellation, and for every failure whether the
// request may have reached the service.
//
// Why not undici: a list over loopback started 15 ms later with it (Node 20, medians of 31 runs:
// 117 against 103 ms, node -e 0 at 81). Loading its client and compiling its WebAssembly parser
// cost that on every network command; node:http is compiled into Node, its parser is native code.

import type { Agent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpsProxyAgent } from 'https-proxy-agent';
import { urlToHttpOptions } from 'node:url';
import { requestTarget } from './target.js';
import { CANCELLED, TransportError, originOf, type Transport, type TransportRequest, type TransportResponse } from './types.js';

/** Idle connections are let go after this, or sooner when the server's Keep-Alive hint says so. */
const IDLE_MS = 4_000;
const CONNECT_TIMEOUT_MS = 10_000;
/** TCP keep-alive probes start after a connection has been quiet this long. */
const TCP_KEEPALIVE_MS = 30_000;
/** Answers larger than this (as sent or decoded) are refused: a list page is a few KiB. */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** An answer whose headers are larger than this is refused (Node's own default). */
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
  ETIMEDOUT: 'timed out',
};

/** The hint of a host that is not there: the base URL is what names it. */
const CHECK_BASE_URL = "check the base URL (--base-url, CRM_BASE_URL or the profile's base_url)";
const CHECK_PROXY = 'check HTTPS_PROXY, HTTP_PROXY and NO_PROXY';

export interface NetworkOptions {
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lower-case forms) are read. */
  env: NodeJS.ProcessEnv;
  /** How long an idle connection is kept at most (default IDLE_MS). */
  idleMs?: number;
  /** How long a connection may take to be ready for the request, a proxy's tunnel included (default CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
}

interface NetworkTransport extends Transport {
  close(): void;
}

/** A proxy to go through: its URL without credentials, as messages name it, and its credentials as CONNECT sends them. */
interface Proxy {
  href: string;
  shown: string;
  /** `Basic ...` from the URL's user name and password, when it holds them. */
  authorization?: string;
}

/** A proxy variable crm cannot use: why, never holding the credentials. */
interface UnusableProxy {
  problem: string;
}

/** The proxy settings of an environment; the lower-case names win, as curl reads them. */
interface ProxySettings {
  httpProxy?: Proxy | UnusableProxy;
  httpsProxy?: Proxy | UnusableProxy;
  noProxy: string;
}

export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  const read = (name: string) => {
    const variable = env[name.toLowerCase()]?.trim() ? name.toLowerCase() : name;
    const value = env[variable]?.trim();
    return value ? readProxy(value, variable) : undefined;
  };
  const httpProxy = read('HTTP_PROXY');
  const noProxy = (env.no_proxy || env.NO_PROXY || '').trim();
  // This machine is never reached through a proxy (as Go's clients, gh among them, do).
  const loopback = 'localhost,127.0.0.1,[::1]';
  return { httpProxy, httpsProxy: read('HTTPS_PROXY') ?? httpProxy, noProxy: noProxy === '*' ? '*' : [noProxy, loopback].filter(Boolean).join(',') };
}

/**
 * A proxy variable's value as curl and Go read it: without a scheme, an http:// proxy. crm tunnels
 * through http:// and https:// proxies only (a socks5:// one would be spoken to in HTTP). What is
 * wrong is said without the URL's credentials, which no message holds.
 */
function readProxy(value: string, variable: string): Proxy | UnusableProxy {
  const scheme = /^[a-z][a-z\d+.-]*:\/\//i.exec(value)?.[0];
  let url: URL;
  try {
    url = new URL(scheme ? value : `http://${value}`);
  } catch {
    // Without what comes before its last @ (a password may hold @ and / unescaped).
    return { problem: `${variable} is not a URL crm can read (${value.includes('@') ? `${scheme ?? ''}${value.slice(value.lastIndexOf('@') + 1)}` : value})` };
  }
  const shown = `${url.protocol}//${url.host}`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `${variable} names a ${url.protocol.slice(0, -1)} proxy (${shown}): crm goes through http:// and https:// proxies only` };
  if (!url.hostname) return { problem: `${variable} names no proxy host (${shown})` };
  if (![url.username, url.password].every(decodes)) return { problem: `the user name or password in ${variable} (${shown}) holds a % that starts no escape: write % as %25` };
  const credentials = url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined;
  url.username = url.password = '';
  return { href: url.href, shown, ...(credentials !== undefined && { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` }) };
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

type Request = (options: RequestOptions, onResponse: (response: IncomingMessage) => void) => ClientRequest;

/** How requests to one scheme go out: Node's request function and the agents that hold the connections. */
interface Route {
  request: Request;
  /** Throws for a header no HTTP request may hold (node:http's checks). */
  checkHeader(name: string, value: string): void;
  direct: Agent;
  /** By proxy URL: the agent that tunnels through it. */
  proxied: Map<string, Promise<Agent>>;
}

export async function createNetworkTransport(options: NetworkOptions): Promise<NetworkTransport> {
  const proxies = proxySettings(options.env);
  const agentOptions = {
    keepAlive: true,
    // Node's agent keeps an idle connection this long, or a second less than a Keep-Alive hint.
    timeout: options.idleMs ?? IDLE_MS,
    // TCP keep-alive on every connection (net.connect's options, which the agent passes on).
    keepAliveMsecs: TCP_KEEPALIVE_MS,
    keepAliveInitialDelay: TCP_KEEPALIVE_MS,
  };
  const routes = new Map<string, Promise<Route>>();
  const routeFor = (protocol: string): Promise<Route> => {
    let route = routes.get(protocol);
    if (!route) {
      // node:https (and with it node:tls) only for a service or a proxy target on https.
      route = Promise.all([import('node:http'), protocol === 'https:' ? import('node:https') : undefined]).then(([http, https]) => ({
        request: (https ?? http).request as Request,
        checkHeader: (name: string, value: string) => {
          http.validateHeaderName(name);
          http.validateHeaderValue(name, value);
        },
        direct: new (checksKeptConnections((https ?? http).Agent))(agentOptions),
        proxied: new Map(),
      }));
      routes.set(protocol, route);
    }
    return route;
  };
  const agentFor = async (url: URL, proxy: Proxy | undefined): Promise<{ route: Route; agent: Agent }> => {
    const route = await routeFor(url.protocol);
    if (!proxy) return { route, agent: route.direct };
    const key = `${proxy.href} ${proxy.authorization}`;
    let agent = route.proxied.get(key);
    if (!agent) {
      // The credentials go as a header the agent asks for (a function: Node's NODE_DEBUG=http log
      // prints the agent whole with each new connection), never in the URL it keeps.
      const headers = () => (proxy.authorization ? { 'Proxy-Authorization': proxy.authorization } : {});
      agent = import('https-proxy-agent').then(({ HttpsProxyAgent }) => new (checksKeptConnections(tunnelling(HttpsProxyAgent)))(proxy.href, { ...agentOptions, headers }) as Agent);
      route.proxied.set(key, agent);
    }
    return { route, agent: await agent };
  };

  /** Requests under way: close() ends them. */
  const underWay = new Set<Exchange>();
  const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const transport: Transport = (request) =>
    new Promise((resolve, reject) => {
      const url = new URL(originOf(request.url));
      const proxy = proxyFor(url, proxies);
      if (proxy && 'problem' in proxy) return reject(new TransportError(proxy.problem, 'EPROXYURL', false, { invalid: true }));
      const exchange = new Exchange(url.host, proxy, connectTimeoutMs, request, resolve, reject, underWay);
      if (exchange.settled) return;
      agentFor(url, proxy).then(
        ({ route, agent }) => exchange.start(route, agent, url),
        (error: Error) => exchange.fail(new TransportError(`cannot load the HTTP client: ${error.message}`, 'ENETWORK', false)),
      );
    });
  return Object.assign(transport, {
    close() {
      for (const exchange of underWay) exchange.cancel();
      // The kept connections, which hold no process (keepSocketAlive unrefs them), go at the loop's
      // next turn, on an immediate that holds none either: a process that is done (crm, once its
      // command has printed) exits without it, and the system closes them. Destroying a connection
      // makes Node create process.stderr (net's Socket._destroy compares with it), 1.3 ms of every
      // command's exit when stderr is a pipe.
      setImmediate(() => {
        for (const route of routes.values()) {
          void route.then((loaded) => {
            loaded.direct.destroy();
            for (const agent of loaded.proxied.values()) void agent.then((proxied) => proxied.destroy());
          });
        }
      }).unref();
    },
  });
}

type AgentClass = abstract new (...args: any[]) => Agent;

/** Kept-alive connections given to a request, until they are known to be still open: whether they are. */
const beingChecked = new WeakMap<Socket, Promise<boolean>>();

/** Resolves after the event loop has polled for I/O at least once: a close already received has been read. */
const afterAPoll = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * An agent that checks a kept-alive connection before it writes a request on it, as undici does: a
 * server may close one after answering, without saying so, and the close may still be on its way.
 * Node's agent forgets a connection only once it is closed on both sides, and would write the next
 * request on it: a request that then fails after it was written (a POST that may have been
 * delivered, never sent again). Here the connection is dropped as soon as the server closes its end
 * or sends anything while idle, and a request given a kept one is held back until the event loop has
 * read what already arrived on it: when that is a close, the request, unwritten, goes on another
 * connection.
 */
function checksKeptConnections<Base extends AgentClass>(base: Base) {
  const drop = function (this: Socket) {
    this.destroy();
  };
  abstract class Checking extends base {
    // Node's own returns whether to keep it (its types say void).
    override keepSocketAlive(socket: Socket): boolean {
      if (socket.readableEnded || !(super.keepSocketAlive(socket) as unknown as boolean)) return false;
      socket.once('end', drop);
      // Bytes while no request is under way (a second answer, garbage) are out of step: whatever
      // follows on it could be read as the next request's answer. Node would drop them unread.
      socket.once('data', drop);
      return true;
    }

    override reuseSocket(socket: Socket, request: ClientRequest): void {
      super.reuseSocket(socket, request);
      socket.cork();
      beingChecked.set(
        socket,
        afterAPoll().then(() => {
          beingChecked.delete(socket);
          socket.removeListener('end', drop);
          socket.removeListener('data', drop);
          if (socket.destroyed) return false;
          socket.uncork();
          return true;
        }),
      );
    }
  }
  return Checking as unknown as Base;
}

/** Through a proxy, the signal that ends the connection to it while the tunnel is being made: by request. */
const tunnelEnds = new WeakMap<ClientRequest, AbortSignal>();

/**
 * The proxy agent, with two things Node's own https agent does for a direct connection and the proxy
 * agent does not:
 * - its connection to the proxy is closed when the request it is for ends before the tunnel is up (a
 *   deadline, a cancel, close()): the agent alone would keep waiting for the proxy's answer to
 *   CONNECT on a connection nothing then ends (a proxy that never answers held the process). The
 *   agent connects to the proxy from its connectOpts, at once when asked for a connection.
 * - TLS inside a new tunnel resumes the session of the one before to the same host (a full handshake
 *   saved), and a connection that failed forgets it.
 */
function tunnelling(base: typeof HttpsProxyAgent) {
  const sessions = new Map<string, Buffer>();
  return class extends base<string> {
    override async connect(request: ClientRequest, options: Parameters<HttpsProxyAgent<string>['connect']>[1]) {
      const shared = this.connectOpts;
      this.connectOpts = { ...shared, signal: tunnelEnds.get(request) };
      const target = `${options.host}:${options.port}`;
      let connecting: Promise<Socket>;
      try {
        connecting = super.connect(request, options.secureEndpoint ? { ...options, session: sessions.get(target) } : options);
      } finally {
        this.connectOpts = shared;
      }
      const socket = await connecting;
      if (options.secureEndpoint) {
        socket.on('session', (session: Buffer) => sessions.set(target, session));
        socket.once('close', (hadError: boolean) => hadError && sessions.delete(target));
      }
      return socket;
    }
  };
}

/**
 * The proxy a request to `url` goes through, or undefined: NO_PROXY read as curl and Go read it (a
 * host or a domain and the hosts under it, with a leading dot or `*.` or neither; an optional port;
 * an IPv6 address with brackets or without; `*` for every host).
 */
export function proxyFor(url: URL, proxies: ProxySettings): Proxy | UnusableProxy | undefined {
  const proxy = url.protocol === 'https:' ? proxies.httpsProxy : proxies.httpProxy;
  if (!proxy) return undefined;
  const hostname = withoutFinalDot(url.hostname.replace(/^\[|\]$/g, '').toLowerCase());
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const bypass = proxies.noProxy.split(/[,\s]+/).some((entry) => {
    if (entry === '*') return true;
    // [v6] or [v6]:port; a bare IPv6 address, whose colons are not a port's; a name or v4 address, :port or not.
    const [, name, entryPort] = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? (entry.split(':').length > 2 ? [entry, entry] : /^([^:]+)(?::(\d+))?$/.exec(entry)) ?? [];
    if (!name || (entryPort && Number(entryPort) !== port)) return false;
    const domain = withoutFinalDot(name.replace(/^\*?\./, '').toLowerCase());
    return hostname === domain || hostname.endsWith(`.${domain}`);
  });
  return bypass ? undefined : proxy;
}

const withoutFinalDot = (name: string) => name.replace(/\.$/, '');

/** One request under way, settling the transport's promise once. */
class Exchange {
  settled = false;
  /** Written to a connection: from here on the service may have received it. */
  private sent = false;
  private answered = false;
  /** Given a connection: through a proxy, the tunnel is up, and what fails from here is the service's. */
  private connected = false;
  private outgoing?: ClientRequest;
  /** Until the request is written: a connection (a proxy's tunnel, TLS included) that takes longer fails. */
  private readonly connectTimer: NodeJS.Timeout;
  private readonly timer: NodeJS.Timeout;
  /** Ends the connection to a proxy while the tunnel is being made. */
  private readonly tunnel = new AbortController();
  private readonly onAbort = () => this.cancel();

  constructor(
    private readonly host: string,
    private readonly proxy: Proxy | undefined,
    connectTimeoutMs: number,
    private readonly request: TransportRequest,
    private readonly resolve: (response: TransportResponse) => void,
    private readonly reject: (error: TransportError) => void,
    private readonly underWay: Set<Exchange>,
  ) {
    underWay.add(this);
    this.timer = setTimeout(() => this.fail(this.proxy && !this.connected ? this.connectTimedOut() : new TransportError(`request timed out after ${request.timeoutMs / 1000}s`, 'ETIMEDOUT', this.sent)), request.timeoutMs);
    this.connectTimer = setTimeout(() => this.fail(this.connectTimedOut()), connectTimeoutMs);
    if (request.signal?.aborted) this.onAbort();
    else request.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  start(route: Route, agent: Agent, origin: URL): void {
    if (this.settled) return;
    const path = requestTarget(this.request.url);
    if (path === undefined) {
      return this.fail(new TransportError(`the URL ${JSON.stringify(this.request.url)} cannot be sent: it holds a control character`, 'EINVALIDURL', false, { invalid: true }));
    }
    // The headers, and a URL's credentials as Basic authorization (as Node does with `auth`), are set
    // on the request rather than given in its options: Node's NODE_DEBUG=http log prints the options
    // whole, key and password included.
    const { protocol, hostname, port, auth } = urlToHttpOptions(origin);
    const headers: Record<string, string> = { ...this.request.headers, 'accept-encoding': ACCEPT_ENCODING };
    if (auth && !Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) headers.authorization = `Basic ${Buffer.from(auth).toString('base64')}`;
    let outgoing: ClientRequest;
    try {
      for (const [name, value] of Object.entries(headers)) route.checkHeader(name, value);
      outgoing = route.request({ protocol, hostname, port, path, method: this.request.method, agent, maxHeaderSize: MAX_HEADER_BYTES }, (response) => this.onResponse(response));
    } catch (error) {
      // A header or method no HTTP request may hold: thrown before anything is written.
      return this.fail(new TransportError(`the request cannot be sent: ${(error as Error).message}`, 'EINVALIDHEADER', false, { invalid: true }));
    }
    for (const [name, value] of Object.entries(headers)) outgoing.setHeader(name, value);
    this.outgoing = outgoing;
    // Node reads the first 1,000 headers and drops the rest unsaid (a Content-Encoding among them):
    // all are read, as many as fit in MAX_HEADER_BYTES.
    outgoing.maxHeadersCount = 0;
    tunnelEnds.set(outgoing, this.tunnel.signal);
    outgoing.on('error', (error: Error & { code?: string }) => {
      // A kept-alive connection the server had closed: never written to, so sent on another.
      if (outgoing.reusedSocket && !this.sent && !this.settled) return this.start(route, agent, origin);
      this.fail(this.describe(error));
    });
    // A tunnel the proxy refused: the proxy's own answer is not the service's.
    outgoing.on('proxyConnect', (answer: { statusCode: number }) => {
      if (answer.statusCode !== 200) this.fail(this.proxyRefused(answer.statusCode));
    });
    outgoing.on('socket', (socket: Socket) => this.onSocket(socket));
    // A switch of protocols nobody asked for: Node hands over the connection, which is dropped.
    outgoing.on('upgrade', (_response: IncomingMessage, socket: Socket) => {
      socket.destroy();
      this.fail(this.malformed('a switch of protocols nobody asked for'));
    });
    outgoing.end(this.request.body);
  }

  /** The request is written once its connection is up (TLS included); a kept-alive one once it is checked. */
  private onSocket(socket: Socket): void {
    this.connected = true;
    if (this.settled) return;
    const check = beingChecked.get(socket);
    if (check) return void check.then((open) => open && !this.settled && this.outgoing?.socket === socket && this.markSent());
    // A new connection: TLS (to the service, or inside a proxy's tunnel) has its handshake ahead.
    const secure = (socket as Socket & { encrypted?: boolean }).encrypted === true;
    if (!secure && !socket.connecting) return this.markSent();
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      if (!this.settled) this.markSent();
    });
  }

  /** Cancelled (the request's signal, or the transport closed): whether it was sent decides what may have happened. */
  cancel(): void {
    this.fail(new TransportError('cancelled', CANCELLED, this.sent, { final: true }));
  }

  private markSent(): void {
    clearTimeout(this.connectTimer);
    this.sent = true;
    this.request.onSent?.();
  }

  private onResponse(response: IncomingMessage): void {
    const status = response.statusCode ?? 0;
    if (status < 100 || status > 599) return this.fail(this.malformed(`a status of ${status}`));
    // Interim answers are skipped; Node hands over a 101 without an Upgrade header as the answer.
    if (status < 200) return this.fail(this.malformed(`an interim status (${status}) as its answer`));
    this.answered = true;
    const length = Number(response.headers['content-length']);
    if (length > MAX_RESPONSE_BYTES) return this.fail(this.tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) return this.fail(this.tooLarge());
      chunks.push(chunk);
    });
    response.on('error', (error: Error & { code?: string }) => this.fail(this.describe(error)));
    response.on('end', () => {
      if (this.settled) return;
      // A response Node saw end early (a connection closed inside its body) is not the answer.
      if (!response.complete) return this.fail(this.cutShort());
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      decode(body, response.headers['content-encoding']).then(
        (text) => this.finish({ status, headers: response.headers, body: text }),
        (problem: string) => this.fail(problem === TOO_LARGE ? this.tooLarge() : this.malformed(problem)),
      );
    });
  }

  private finish(response: TransportResponse): void {
    if (!this.begin()) return;
    this.resolve(response);
  }

  fail(error: TransportError): void {
    if (!this.begin()) return;
    // Its connection is closed: a request left half-way cannot be followed by another on it.
    this.outgoing?.destroy();
    this.tunnel.abort();
    this.reject(error);
  }

  private begin(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    clearTimeout(this.connectTimer);
    this.request.signal?.removeEventListener('abort', this.onAbort);
    this.underWay.delete(this);
    return true;
  }

  private malformed(problem: string): TransportError {
    return new TransportError(`malformed response from ${this.host}: ${problem}`, 'EPROTO', true, { malformed: true });
  }

  private tooLarge(): TransportError {
    return new TransportError(`the response from ${this.host} is larger than crm's limit of ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`, 'ETOOLARGE', true, { malformed: true });
  }

  private cutShort(): TransportError {
    return new TransportError(`the response from ${this.host} was cut short`, 'ETRUNCATED', true);
  }

  private proxyRefused(status: number): TransportError {
    const proxy = this.proxy!;
    if (!(status >= 100 && status <= 599)) return new TransportError(`the proxy ${proxy.shown} answered CONNECT with something that is not HTTP`, 'EPROXY', false, { final: true, hint: CHECK_PROXY });
    const credentials = proxy.authorization ? 'the proxy did not accept the user name and password in its URL' : 'the proxy wants credentials: give them in the proxy URL (https_proxy=http://user:password@proxy:port)';
    return new TransportError(`the proxy ${proxy.shown} refused to connect to ${this.host} (HTTP ${status})`, 'EPROXY', false, {
      // A proxy that could not reach the service may manage the next time.
      final: status !== 502 && status !== 503 && status !== 504,
      hint: status === 407 ? credentials : CHECK_PROXY,
    });
  }

  private connectTimedOut(): TransportError {
    const through = this.proxy && !this.connected ? ` through the proxy ${this.proxy.shown}` : '';
    return new TransportError(`could not connect to ${this.host}${through} (timed out)`, 'ECONNECTTIMEOUT', false, { hint: through ? CHECK_PROXY : undefined });
  }

  /** Node's error as crm says it, and whether the request may have reached the service. */
  private describe(error: Error & { code?: string; reason?: string }): TransportError {
    const code = error.code ?? 'ENETWORK';
    const host = this.host;
    if (this.answered) return this.cutShort();
    if (code === 'HPE_HEADER_OVERFLOW') return this.malformed(`its headers are larger than crm's limit of ${MAX_HEADER_BYTES / 1024} KiB`);
    if (code.startsWith('HPE_')) return this.malformed(`response does not match the HTTP/1.1 protocol (${error.reason ?? error.message})`);
    if (!this.sent) return this.unsent(error, code);
    if (code === 'ECONNRESET' || code === 'EPIPE') {
      // Node's words for a connection closed (not reset) before the answer began.
      const closed = error.message === 'socket hang up';
      return new TransportError(closed ? `connection to ${host} was closed before it answered` : `connection to ${host} was reset`, 'ECONNRESET', true);
    }
    return new TransportError(`network error talking to ${host}: ${error.message}`, code, true);
  }

  /** A failure before the request was written: nothing was sent. */
  private unsent(error: Error & { code?: string }, code: string): TransportError {
    const host = this.host;
    const proxy = this.proxy?.shown;
    if (code in UNREACHABLE) {
      const what = code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? undefined : UNREACHABLE[code];
      if (proxy) return new TransportError(`could not connect to the proxy ${proxy} (${UNREACHABLE[code]})`, code, false, { hint: CHECK_PROXY });
      // A host no name service knows, or where nothing listens: most often a base URL mistyped.
      const hint = code === 'ECONNREFUSED' ? `${CHECK_BASE_URL}, and that the service is up` : what ? undefined : CHECK_BASE_URL;
      return new TransportError(what ? `could not connect to ${host} (${what})` : `could not resolve host ${new URL(`http://${host}`).hostname}`, code, false, { hint });
    }
    // Through a proxy, a failure before the tunnel is up is the proxy's (an https:// proxy's TLS).
    const peer = proxy && !this.connected ? { named: `the proxy ${proxy}`, hostname: new URL(proxy).hostname } : { named: host, hostname: new URL(`http://${host}`).hostname };
    if (CERTIFICATE_CODES.test(code)) {
      // A certificate trusted but for other names: no CA to add; the host asked for is what is wrong.
      const wrongHost = code === 'ERR_TLS_CERT_ALTNAME_INVALID';
      return new TransportError(`TLS error talking to ${peer.named}: ${error.message}`, code, false, {
        final: true,
        hint: wrongHost
          ? `the certificate ${peer.hostname} sent is for other hosts: ${proxy && !this.connected ? CHECK_PROXY : CHECK_BASE_URL}`
          : `if ${peer.hostname} uses a private certificate authority, set NODE_EXTRA_CA_CERTS to its certificate (a PEM file)`,
      });
    }
    if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS')) return new TransportError(`TLS error talking to ${peer.named}: ${error.message}`, code, false, { final: true });
    if (code === 'ECONNRESET' || code === 'EPIPE') {
      // Node's words for a connection closed (not reset): before an answer, or during a TLS handshake.
      const closed = error.message === 'socket hang up' || error.message.startsWith('Client network socket disconnected');
      return new TransportError(`connection to ${peer.named} was ${closed ? 'closed' : 'reset'} before the request was sent`, code, false);
    }
    return new TransportError(`network error talking to ${peer.named}: ${error.message}`, code, false);
  }
}

const CERTIFICATE_CODES = /^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_CERT_ALTNAME_INVALID)/;

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
