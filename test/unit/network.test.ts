// The network transport (node:http) against peers on loopback that answer byte by byte as scripted:
// kept-alive connections and when they are let go, peers that close or reset them, answers that
// are not HTTP, compressed answers, sizes, URLs, cancellation, TLS that must be verified, and a
// CONNECT proxy the requests go through.
import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, createNetworkTransport, proxyFor, proxySettings, type NetworkOptions } from '../../src/transport/network.js';
import { requestTarget } from '../../src/transport/target.js';
import { TransportError, originOf, pathAndQuery, type Transport, type TransportRequest } from '../../src/transport/types.js';

const OK = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"data":{}}';

/** An answer with this body (bytes) and these extra header lines. */
function answer(body: Buffer | string, headers: string[] = []): Buffer {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return Buffer.concat([Buffer.from(['HTTP/1.1 200 OK', 'Content-Type: application/json', `Content-Length: ${bytes.length}`, ...headers, '', ''].join('\r\n')), bytes]);
}

interface Peer {
  url: string;
  port: number;
  /** Connections opened to it. */
  connections: Socket[];
  /** The requests' bytes, one string per request as it arrived (loosely: per data event). */
  received: string[];
  close(): Promise<void>;
}

/** A peer that answers every request with `respond(n, socket)`, n counting from 0 per peer; `event` is its connections' (TLS: secureConnection). */
async function peer(respond: (index: number, socket: Socket, request: string) => void, server: Server = createServer(), event = 'connection'): Promise<Peer> {
  const connections: Socket[] = [];
  const received: string[] = [];
  server.on(event, (socket: Socket) => {
    connections.push(socket);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      received.push(chunk.toString('latin1'));
      respond(received.length - 1, socket, chunk.toString('latin1'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    port,
    connections,
    received,
    close: () =>
      new Promise((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function transportFor(options: Partial<NetworkOptions> = {}) {
  const transport = await createNetworkTransport({ env: {}, ...options });
  cleanups.push(() => transport.close());
  return transport;
}

async function setUp(respond: (index: number, socket: Socket, request: string) => void, options: Partial<NetworkOptions> = {}) {
  const server = await peer(respond);
  const transport = await transportFor(options);
  cleanups.push(() => server.close());
  const get = (path = '/contacts', extra: Partial<TransportRequest> = {}) => transport({ method: 'GET', url: `${server.url}${path}`, headers: { Accept: 'application/json' }, timeoutMs: 5000, ...extra });
  return { server, transport, get };
}

/**
 * Lets the agent learn that its connections are free again: a request sent in the same turn as the
 * answer before it may open a connection of its own (Node's agent counts a connection busy until
 * then; a few more connections at the start of a run, never a failure).
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Resolves once the peer's end of a connection closed: the transport has let it go. */
function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));
}

async function failure(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe('the parts of a request URL', () => {
  it.each([
    ['http://127.0.0.1:8080/api/v1/contacts/../x?q=a%20b', 'http://127.0.0.1:8080', '/api/v1/contacts/../x?q=a%20b'],
    ['https://user:pw@hooks.example.com', 'https://user:pw@hooks.example.com', '/'],
    ['http://localhost:3000?token=1#frag', 'http://localhost:3000', '/?token=1'],
    ['http://[::1]:3000/hooks#frag', 'http://[::1]:3000', '/hooks'],
  ])('%s', (url, origin, path) => {
    expect(originOf(url)).toBe(origin);
    expect(pathAndQuery(url)).toBe(path);
  });

  it.each([
    ['http://h/hooks/a b?x=é', '/hooks/a%20b?x=%C3%A9'],
    ['http://h/caf\u00e9/"<quote>"', '/caf%C3%A9/%22%3Cquote%3E%22'],
    ['http://h/already%20encoded?q=100%', '/already%20encoded?q=100%25'],
    ['http://h/emoji/\u{1F600}', '/emoji/%F0%9F%98%80'],
  ])('%s goes on the request line as %s', (url, target) => {
    expect(requestTarget(url)).toBe(target);
  });

  it.each(['http://h/a\r\nX-Evil: 1', 'http://h/a\tb', 'http://h/a\u0085b', 'http://h/\uD800'])('%j cannot be sent', (url) => {
    expect(requestTarget(url)).toBeUndefined();
  });
});

describe('proxy settings', () => {
  const proxy = (href: string) => ({ href, shown: new URL(href).origin });

  it('reads the lower-case names first, HTTPS_PROXY falls back to HTTP_PROXY, and this machine is never proxied', () => {
    expect(proxySettings({ HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:2', NO_PROXY: 'corp.example' })).toEqual({
      httpProxy: proxy('http://lower:2/'),
      httpsProxy: proxy('http://lower:2/'),
      noProxy: 'corp.example,localhost,127.0.0.1,[::1]',
    });
    expect(proxySettings({ HTTPS_PROXY: 'http://secure:3', no_proxy: '*' })).toEqual({ httpProxy: undefined, httpsProxy: proxy('http://secure:3/'), noProxy: '*' });
    expect(proxySettings({})).toEqual({ httpProxy: undefined, httpsProxy: undefined, noProxy: 'localhost,127.0.0.1,[::1]' });
  });

  it('a proxy without a scheme is an http:// one, as curl and Go read it; its credentials are never shown', () => {
    expect(proxySettings({ HTTPS_PROXY: 'proxy.corp:3128' }).httpsProxy).toEqual(proxy('http://proxy.corp:3128/'));
    expect(proxySettings({ HTTPS_PROXY: 'user:s3cret@10.0.0.1:3128' }).httpsProxy).toEqual({ href: 'http://10.0.0.1:3128/', shown: 'http://10.0.0.1:3128', authorization: `Basic ${Buffer.from('user:s3cret').toString('base64')}` });
    expect(proxySettings({ https_proxy: 'https://proxy.corp' }).httpsProxy).toEqual(proxy('https://proxy.corp/'));
  });

  it.each([
    ['socks5://user:s3cret@127.0.0.1:1080', 'https_proxy names a socks5 proxy (socks5://127.0.0.1:1080): crm goes through http:// and https:// proxies only'],
    ['http://user:50%s3cret@proxy.corp:3128', 'the user name or password in https_proxy (http://proxy.corp:3128) holds a % that starts no escape: write % as %25'],
    ['http://user:s3cret@proxy corp:3128', 'https_proxy is not a URL crm can read (http://proxy corp:3128)'],
    ['http://user:s3cret@', 'https_proxy is not a URL crm can read (http://)'],
    ['user:s3c@ret@proxy corp:3128', 'https_proxy is not a URL crm can read (proxy corp:3128)'],
  ])('%s cannot be used: said without its credentials', (value, problem) => {
    expect(proxySettings({ https_proxy: value }).httpsProxy).toEqual({ problem });
  });

  it.each([
    ['NO_PROXY=corp.example', 'https://api.corp.example/v1', false],
    ['a domain and the hosts under it', 'https://corp.example/v1', false],
    ['not a host that only ends as it does', 'https://notcorp.example/v1', true],
    ['a leading dot', 'https://api.corp.example/v1', false, '.corp.example'],
    ['*.', 'https://api.corp.example/v1', false, '*.corp.example'],
    ['a port: that port only', 'https://corp.example:8443/v1', false, 'corp.example:8443'],
    ['a port: not another', 'https://corp.example/v1', true, 'corp.example:8443'],
    ['the default port counts', 'https://corp.example/v1', false, 'corp.example:443'],
    ['case and a final dot', 'https://API.Corp.Example./v1', false, 'corp.EXAMPLE'],
    ['* among others', 'https://anything.example/v1', false, 'corp.example, *'],
    ['an IPv6 address, bare', 'https://[2001:db8::1]/v1', false, '2001:db8::1'],
    ['an IPv6 address in brackets', 'https://[2001:db8::1]/v1', false, '[2001:db8::1]'],
    ['an IPv6 address in brackets, with a port', 'https://[2001:db8::1]:8443/v1', false, '[2001:db8::1]:8443'],
    ['another IPv6 address', 'https://[2001:db8::2]/v1', true, '2001:db8::1'],
    ['this machine over IPv6', 'https://[::1]:8080/v1', false, ''],
    ['spaces between entries', 'https://b.example/v1', false, 'a.example b.example'],
  ])('NO_PROXY: %s', (_, url, proxied, noProxy = 'corp.example') => {
    const settings = proxySettings({ HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: noProxy });
    expect(proxyFor(new URL(url), settings) !== undefined).toBe(proxied);
  });
});

describe('the network transport', () => {
  it('sends the request with the encoded target, asks for compression, and keeps the connection for the next one', async () => {
    const { server, transport, get } = await setUp((_, socket) => socket.write(OK));
    expect(await get('/contacts?limit=1')).toMatchObject({ status: 200, body: '{"data":{}}', headers: { 'content-type': 'application/json' } });
    await settle();
    await transport({ method: 'POST', url: `${new URL(server.url).origin}/hooks/caf\u00e9 1?token=1`, headers: { 'Content-Type': 'application/json' }, body: '{"a":"é"}', timeoutMs: 5000 });
    expect(server.connections).toHaveLength(1);
    const [first, ...rest] = server.received;
    const second = rest.join('');
    expect(first).toMatch(/^GET \/api\/v1\/contacts\?limit=1 HTTP\/1\.1\r\n/);
    expect(first).toMatch(new RegExp(`\r\nhost: 127\\.0\\.0\\.1:${server.port}\r\n`, 'i'));
    expect(first).toMatch(/\r\naccept-encoding: gzip, br\r\n/i);
    expect(second).toMatch(/^POST \/hooks\/caf%C3%A9%201\?token=1 HTTP\/1\.1\r\n/);
    expect(Buffer.from(second, 'latin1').toString('utf8')).toMatch(/\r\ncontent-length: 10\r\n\r\n\{"a":"é"\}$/i);
  });

  it("a URL's user name and password are sent as Basic authorization (decoded), unless the request has its own", async () => {
    const { server, transport } = await setUp((_, socket) => socket.write(OK));
    const url = `http://hook%20user:p%40ss@127.0.0.1:${server.port}/hooks`;
    await transport({ method: 'POST', url, headers: {}, body: '{}', timeoutMs: 5000 });
    await settle();
    await transport({ method: 'POST', url, headers: { Authorization: 'Bearer own' }, body: '{}', timeoutMs: 5000 });
    const [first, second] = server.received;
    expect(first).toMatch(new RegExp(`\r\nauthorization: Basic ${Buffer.from('hook user:p@ss').toString('base64')}\r\n`, 'i'));
    expect(second).toMatch(/\r\nAuthorization: Bearer own\r\n/);
    expect(second).not.toMatch(/Basic/);
  });

  it('refuses a URL with a control character before connecting', async () => {
    const { server, transport } = await setUp((_, socket) => socket.write(OK));
    const error = await failure(transport({ method: 'POST', url: `${new URL(server.url).origin}/hooks\r\nX-Evil: 1`, headers: {}, body: '{}', timeoutMs: 5000 }));
    expect(error).toMatchObject({ code: 'EINVALIDURL', delivered: false, invalid: true, final: true });
    expect(server.connections).toHaveLength(0);
  });

  it('refuses a header that cannot be written, before connecting', async () => {
    const { server, get } = await setUp((_, socket) => socket.write(OK));
    expect(await failure(get('/contacts', { headers: { 'X-Service-API-Key': 'key\r\nX-Evil: 1' } }))).toMatchObject({ code: 'EINVALIDHEADER', delivered: false, invalid: true });
    expect(server.connections).toHaveLength(0);
  });

  it('opens a connection per request under way at once, and reuses them', async () => {
    const { server, get } = await setUp((_, socket) => setTimeout(() => socket.write(OK), 20));
    await Promise.all([get(), get(), get()]);
    expect(server.connections).toHaveLength(3);
    await settle();
    await Promise.all([get(), get(), get()]);
    expect(server.connections).toHaveLength(3);
  });

  it('opens a new connection after Connection: close, and after the peer closed an idle one', async () => {
    const { server, get } = await setUp((index, socket) => {
      if (index === 0) socket.end(OK.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
      else if (index === 1) socket.end(OK); // answers, then closes while idle
      else socket.write(OK);
    });
    await get();
    await get();
    await closed(server.connections[1]!);
    expect(await get()).toMatchObject({ status: 200 });
    expect(server.connections).toHaveLength(3);
  });

  it('a peer that closes every connection after answering, without saying so, never makes a POST fail', async () => {
    const { server, transport } = await setUp((_, socket) => socket.end(OK));
    const post = () => transport({ method: 'POST', url: `${server.url}/contacts`, headers: {}, body: '{}', timeoutMs: 5000 });
    for (let n = 0; n < 40; n++) expect(await post()).toMatchObject({ status: 200 });
    expect(server.received).toHaveLength(40);
  });

  it('lets an idle connection go after its idle time, or sooner when the peer hints so', async () => {
    const { server, get } = await setUp((index, socket) => socket.write(index === 0 ? OK.replace('\r\n\r\n', '\r\nKeep-Alive: timeout=60\r\n\r\n') : OK.replace('\r\n\r\n', '\r\nKeep-Alive: timeout=1\r\n\r\n')), { idleMs: 300 });
    await get();
    // The peer would keep it 60 s: let go after 300 ms all the same.
    await closed(server.connections[0]!);
    // A peer that keeps it 1 s: not used again (a second's margin leaves nothing).
    await get();
    await closed(server.connections[1]!);
    expect(server.connections).toHaveLength(2);
  });

  it('an idle kept-alive connection does not keep the process alive; a request under way does', async () => {
    const sockets = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length;
    let during = 0;
    const { server, get } = await setUp((_, socket) => {
      // The peer's end lives in this process too: it is not what is counted.
      socket.unref();
      during = sockets();
      socket.write(OK);
    });
    await get();
    await settle();
    // Still open on the peer's side, and kept for the next request, but holding nothing up.
    expect(server.connections[0]!.closed).toBe(false);
    expect(sockets()).toBe(0);
    expect(during).toBe(1);
  });

  it('connection refused: nothing was delivered', async () => {
    const transport = await transportFor();
    const error = await failure(transport({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/contacts', headers: {}, body: '{}', timeoutMs: 5000 }));
    expect(error).toMatchObject({ code: 'ECONNREFUSED', delivered: false, final: false, message: 'could not connect to 127.0.0.1:9 (connection refused)' });
    // Most often a base URL mistyped, or a service not started: the hint says where to look.
    expect(error.hint).toBe("check the base URL (--base-url, CRM_BASE_URL or the profile's base_url), and that the service is up");
  });

  it('tells when a request was handed to a connection', async () => {
    const { get } = await setUp((_, socket) => socket.write(OK));
    const sent: string[] = [];
    await get('/contacts', { onSent: () => sent.push('sent') });
    expect(sent).toEqual(['sent']);
  });

  it('a close before any answer: the request may have been delivered', async () => {
    const { server, get } = await setUp((_, socket) => socket.end());
    const error = await failure(get());
    expect(error).toMatchObject({ code: 'ECONNRESET', delivered: true, message: `connection to ${new URL(server.url).host} was closed before it answered` });
  });

  it('a reset before any answer, and a body cut short', async () => {
    const reset = await setUp((_, socket) => socket.resetAndDestroy());
    expect(await failure(reset.get())).toMatchObject({ code: 'ECONNRESET', delivered: true, message: `connection to ${new URL(reset.server.url).host} was reset` });
    const cut = await setUp((_, socket) => socket.end(OK.slice(0, -4)));
    expect(await failure(cut.get())).toMatchObject({ code: 'ETRUNCATED', delivered: true, message: `the response from ${new URL(cut.server.url).host} was cut short` });
  });

  it('an answer that is not HTTP is malformed, and its connection is not used again', async () => {
    const { server, get } = await setUp((index, socket) => socket.write(index === 0 ? 'SSH-2.0-OpenSSH\r\n\r\n' : OK));
    const error = await failure(get());
    expect(error).toMatchObject({ code: 'EPROTO', delivered: true, malformed: true, final: true });
    expect(error.message).toBe(`malformed response from ${new URL(server.url).host}: response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)`);
    expect(await get()).toMatchObject({ status: 200 });
    expect(server.connections).toHaveLength(2);
  });

  it.each(['600', '999', '099'])('a status of %s is malformed at once', async (status) => {
    const { get } = await setUp((_, socket) => socket.write(`HTTP/1.1 ${status} Odd\r\nContent-Length: 2\r\n\r\n{}`));
    const error = await failure(get());
    expect(error).toMatchObject({ delivered: true, malformed: true });
  });

  it('an interim 103 before the answer is waited out', async () => {
    const { get } = await setUp((_, socket) => socket.write(`HTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n${OK}`));
    expect(await get()).toMatchObject({ status: 200, body: '{"data":{}}' });
  });

  it('a peer that never answers meets the deadline', async () => {
    const { get } = await setUp(() => {});
    expect(await failure(get('/contacts', { timeoutMs: 100 }))).toMatchObject({ code: 'ETIMEDOUT', delivered: true, message: 'request timed out after 0.1s' });
  });

  it('a request cancelled while it waits for its answer: it may have been delivered, and its connection is closed', async () => {
    const { server, get } = await setUp(() => {});
    const controller = new AbortController();
    const pending = get('/contacts', { signal: controller.signal, onSent: () => setImmediate(() => controller.abort()) });
    expect(await failure(pending)).toMatchObject({ code: 'ECANCELLED', delivered: true });
    await closed(server.connections[0]!);
  });

  it('a request cancelled before it was sent is never sent', async () => {
    const { server, get } = await setUp((_, socket) => socket.write(OK));
    const aborted = new AbortController();
    aborted.abort();
    expect(await failure(get('/contacts', { signal: aborted.signal }))).toMatchObject({ code: 'ECANCELLED', delivered: false });
    // Cancelled while its connection is being made.
    const connecting = new AbortController();
    const pending = get('/contacts', { signal: connecting.signal });
    connecting.abort();
    expect(await failure(pending)).toMatchObject({ code: 'ECANCELLED', delivered: false });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.received).toHaveLength(0);
  });

  describe('answers at the edges of HTTP/1.1', () => {
    it.each([
      ['HEAD with a Content-Length and no body', 'HEAD', 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n', 200],
      ['204 with a Content-Length', 'DELETE', 'HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n', 204],
      ['204 without one', 'DELETE', 'HTTP/1.1 204 No Content\r\n\r\n', 204],
      ['304 without a Content-Length', 'GET', 'HTTP/1.1 304 Not Modified\r\n\r\n', 304],
      ['304 with one', 'GET', 'HTTP/1.1 304 Not Modified\r\nContent-Length: 11\r\n\r\n', 304],
    ])('%s: no body is read, and the connection is kept for the next answer', async (_, method, head, status) => {
      const { server, get } = await setUp((index, socket) => socket.write(index === 0 ? head : OK));
      expect(await get('/contacts', { method })).toMatchObject({ status, body: '' });
      await settle();
      expect(await get()).toMatchObject({ status: 200, body: '{"data":{}}' });
      expect(server.connections).toHaveLength(1);
    });

    it('a chunked answer is read whole, trailers skipped; one cut short is not the answer', async () => {
      const whole = await setUp((_, socket) => socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"dat\r\n6\r\na":{}}\r\n0\r\nX-Trailer: 1\r\n\r\n'));
      expect(await whole.get()).toMatchObject({ status: 200, body: '{"data":{}}' });
      const cut = await setUp((_, socket) => socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"dat\r\n'));
      expect(await failure(cut.get())).toMatchObject({ code: 'ETRUNCATED', delivered: true });
    });

    it('a 100 Continue nobody asked for, and a 103, before the answer are skipped', async () => {
      const { get } = await setUp((_, socket) => socket.write(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n${OK}`));
      expect(await get()).toMatchObject({ status: 200, body: '{"data":{}}' });
    });

    it.each([
      ['with an Upgrade header', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n', 'a switch of protocols nobody asked for'],
      ['without one', 'HTTP/1.1 101 Switching Protocols\r\n\r\n', 'an interim status (101) as its answer'],
    ])('a 101 nobody asked for, %s, is malformed, and its connection dropped', async (_, head, problem) => {
      const { server, get } = await setUp((index, socket) => socket.write(index === 0 ? head : OK));
      expect(await failure(get())).toMatchObject({ code: 'EPROTO', delivered: true, malformed: true, message: `malformed response from 127.0.0.1:${server.port}: ${problem}` });
      await closed(server.connections[0]!);
      expect(await get()).toMatchObject({ status: 200 });
    });

    it.each([
      ['two Content-Lengths that differ', 'Content-Length: 2\r\nContent-Length: 11', 'Duplicate Content-Length'],
      ['two Content-Lengths that agree', 'Content-Length: 11\r\nContent-Length: 11', 'Duplicate Content-Length'],
      ['a Content-Length listing two', 'Content-Length: 11, 11', 'Invalid character in Content-Length'],
      ['a Content-Length and Transfer-Encoding: chunked', 'Content-Length: 11\r\nTransfer-Encoding: chunked', "Transfer-Encoding can't be present with Content-Length"],
      ['a negative Content-Length', 'Content-Length: -1', 'Invalid character in Content-Length'],
      ['a header folded over two lines', 'X-Folded: a\r\n b\r\nContent-Length: 11', 'Unexpected whitespace after header value'],
      ['a control character in a header value', 'X-Name: a\x01b\r\nContent-Length: 11', 'Invalid header value char'],
    ])('%s is malformed, never read one way or the other (request smuggling)', async (_, headers, reason) => {
      const { server, get } = await setUp((_, socket) => socket.write(`HTTP/1.1 200 OK\r\n${headers}\r\n\r\n{"data":{}}`));
      const error = await failure(get());
      expect(error).toMatchObject({ code: 'EPROTO', delivered: true, malformed: true, message: `malformed response from 127.0.0.1:${server.port}: response does not match the HTTP/1.1 protocol (${reason})` });
    });

    it('header values are read as Latin-1 bytes, as HTTP says', async () => {
      const { get } = await setUp((_, socket) => socket.write(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nX-Name: Zo'), Buffer.from([0xeb]), Buffer.from(`\r\nContent-Length: 11\r\n\r\n{"data":{}}`)])));
      expect((await get()).headers['x-name']).toBe('Zo\u00eb');
    });

    it('every header is read, however many fit in the 16 KiB limit: a Content-Encoding after 1,500 others still decodes', async () => {
      const many = Array.from({ length: 1500 }, (_, n) => `x${n}: 1`);
      const { get } = await setUp((_, socket) => socket.write(answer(gzipSync('{"data":{}}'), [...many, 'Content-Encoding: gzip'])));
      const response = await get();
      expect(response.body).toBe('{"data":{}}');
      expect(Object.keys(response.headers)).toHaveLength(1503);
    });

    it('an answer that comes before the request body was read (413, then a close) is the answer', async () => {
      const { server, transport } = await setUp((index, socket) => {
        if (index === 0) socket.end('HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}');
      });
      const body = 'x'.repeat(8 * 1024 * 1024);
      expect(await transport({ method: 'POST', url: `${server.url}/contacts`, headers: {}, body, timeoutMs: 30_000 })).toMatchObject({ status: 413, body: '{}' });
    });

    it('a kept connection on which the peer speaks while idle (a second answer, garbage) is dropped, never read for the next request', async () => {
      let spoken = () => {};
      const spokenOutOfTurn = new Promise<void>((resolve) => (spoken = resolve));
      const { server, get } = await setUp(
        (index, socket) => {
          socket.write(OK);
          if (index === 0) setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n"stale"', () => spoken()), 20);
        },
        { idleMs: 60_000 },
      );
      await get();
      await spokenOutOfTurn;
      await settle();
      expect(await get()).toMatchObject({ status: 200, body: '{"data":{}}' });
      expect(server.connections).toHaveLength(2);
      await closed(server.connections[0]!);
    });
  });

  describe('compressed answers', () => {
    const body = JSON.stringify({ data: { contacts: Array.from({ length: 50 }, (_, n) => ({ id: `con_${n}`, name: 'Zoë' })), total: 50 }, error: null });

    it.each([
      ['gzip', gzipSync(body)],
      ['br', brotliCompressSync(body)],
    ])('%s is decoded', async (encoding, bytes) => {
      const { get } = await setUp((_, socket) => socket.write(answer(bytes, [`Content-Encoding: ${encoding}`])));
      expect((await get()).body).toBe(body);
    });

    it('a body that does not decode as it claims is malformed', async () => {
      const { get } = await setUp((_, socket) => socket.write(answer('{"data":{}}', ['Content-Encoding: gzip'])));
      expect(await failure(get())).toMatchObject({ code: 'EPROTO', malformed: true, message: expect.stringMatching(/: the body does not decode as gzip$/) });
    });

    it('an encoding crm did not ask for is malformed', async () => {
      const { get } = await setUp((_, socket) => socket.write(answer('{"data":{}}', ['Content-Encoding: zstd'])));
      expect(await failure(get())).toMatchObject({ malformed: true, message: expect.stringMatching(/encoded as "zstd", which crm does not ask for$/) });
    });
  });

  describe(`answers over ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`, () => {
    it('are refused by their Content-Length before they are read', async () => {
      const { get } = await setUp((_, socket) => socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${MAX_RESPONSE_BYTES + 1}\r\n\r\n{`));
      expect(await failure(get())).toMatchObject({ code: 'ETOOLARGE', malformed: true, message: expect.stringMatching(/is larger than crm's limit of 64 MiB$/) });
    });

    it('are refused as they arrive when they say no length (read to the close)', async () => {
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      const { get } = await setUp((_, socket) => {
        socket.write('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n');
        const more = () => {
          while (!socket.destroyed && socket.write(chunk));
          if (!socket.destroyed) socket.once('drain', more);
        };
        more();
      });
      expect(await failure(get('/contacts', { timeoutMs: 60_000 }))).toMatchObject({ code: 'ETOOLARGE' });
    }, 60_000);

    it('are refused once decoded (a small body that inflates)', async () => {
      const bomb = gzipSync(Buffer.alloc(MAX_RESPONSE_BYTES + 1024, ' '));
      const { get } = await setUp((_, socket) => socket.write(answer(bomb, ['Content-Encoding: gzip'])));
      expect(await failure(get('/contacts', { timeoutMs: 60_000 }))).toMatchObject({ code: 'ETOOLARGE' });
    }, 60_000);
  });

  describe('TLS', () => {
    const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));

    it('verifies the certificate of an https peer: not retried, named, with how to trust a private CA', async () => {
      const server = await peer((_, socket) => socket.write(OK), createTlsServer({ key: fixture('key.pem'), cert: fixture('cert.pem') }), 'secureConnection');
      cleanups.push(() => server.close());
      const transport = await transportFor();
      const url = server.url.replace('http:', 'https:');
      const error = await failure(transport({ method: 'GET', url: `${url}/contacts`, headers: {}, timeoutMs: 5000 }));
      expect(error).toMatchObject({ delivered: false, final: true });
      // Node 24 adds its own advice after the reason (--use-system-ca).
      expect(error.message).toMatch(/^TLS error talking to 127\.0\.0\.1:\d+: self[- ]signed certificate(;.*)?$/);
      expect(error.hint).toBe('if 127.0.0.1 uses a private certificate authority, set NODE_EXTRA_CA_CERTS to its certificate (a PEM file)');
      expect(server.received).toHaveLength(0);
    });
  });

  describe('TLS handshakes cut off', () => {
    it.each([
      ['resets', (socket: Socket) => socket.resetAndDestroy(), 'reset'],
      ['closes', (socket: Socket) => socket.end(), 'closed'],
    ])('a server that %s the connection during the handshake: not sent, worth another try, named', async (_, cut, how) => {
      const { server, transport } = await setUp((_, socket) => cut(socket));
      const error = await failure(transport({ method: 'POST', url: `https://127.0.0.1:${server.port}/api/v1/contacts`, headers: {}, body: '{}', timeoutMs: 5000 }));
      expect(error).toMatchObject({ delivered: false, final: false });
      expect(error.message).toBe(`connection to 127.0.0.1:${server.port} was ${how} before the request was sent`);
      // What it read was a TLS ClientHello, never the request.
      expect(server.received.join('')).not.toContain('POST');
    });
  });

  describe('through a proxy', () => {
    /** A proxy on loopback that does with each connection's CONNECT what `onConnect` says; it keeps every byte sent to it. */
    async function scriptedProxy(onConnect: (client: Socket, head: string) => void) {
      const heads: string[] = [];
      const clients: Socket[] = [];
      let bytes = '';
      const server = createServer((client) => {
        clients.push(client);
        client.on('error', () => {});
        client.on('data', (chunk) => (bytes += chunk.toString('latin1')));
        client.once('data', (chunk) => {
          heads.push(chunk.toString('latin1'));
          onConnect(client, chunk.toString('latin1'));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise((resolve) => { for (const client of clients) client.destroy(); server.close(resolve); }));
      const { port } = server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}`, port, heads, clients, bytes: () => bytes, asked: () => heads.map((head) => head.split('\r\n')[0]!) };
    }

    /** Tunnels a client to the peer on `port`, as a proxy does once it accepts CONNECT. */
    const tunnelTo = (port: number) => (client: Socket) => {
      const upstream = connectTcp(port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        client.pipe(upstream).pipe(client);
      });
      upstream.on('error', () => client.destroy());
    };

    /** A CONNECT proxy on loopback that sends every tunnel to `target` (whatever host was asked for), or refuses with `refuse`. */
    async function connectProxy(target: () => number, refuse?: number) {
      const proxy = await scriptedProxy((client) => (refuse ? client.end(`HTTP/1.1 ${refuse} Refused\r\nContent-Length: 0\r\n\r\n`) : tunnelTo(target())(client)));
      return { url: proxy.url, get asked() { return proxy.asked(); } };
    }

    const post = (transport: Transport, extra: Partial<TransportRequest> = {}) =>
      transport({ method: 'POST', url: 'https://workspace.test/api/v1/contacts', headers: { 'X-Service-API-Key': 'secret-key' }, body: '{}', timeoutMs: 5000, ...extra });

    it('tunnels with CONNECT: the proxy sees where to, never the request and its key', async () => {
      const service = await setUp((_, socket) => socket.write(OK));
      const proxy = await connectProxy(() => service.server.port);
      const transport = await transportFor({ env: { HTTP_PROXY: proxy.url } });
      const response = await transport({ method: 'GET', url: 'http://workspace.test/api/v1/contacts', headers: { 'X-Service-API-Key': 'secret-key' }, timeoutMs: 5000 });
      expect(response).toMatchObject({ status: 200 });
      expect(proxy.asked).toEqual(['CONNECT workspace.test:80 HTTP/1.1']);
      expect(service.server.received[0]).toMatch(/^GET \/api\/v1\/contacts HTTP\/1\.1\r\n[\s\S]*x-service-api-key: secret-key/i);
    });

    it('NO_PROXY, and this machine, go direct', async () => {
      const service = await setUp((_, socket) => socket.write(OK));
      const proxy = await connectProxy(() => service.server.port);
      const transport = await transportFor({ env: { http_proxy: proxy.url, no_proxy: 'other.example' } });
      await transport({ method: 'GET', url: `${service.server.url}/contacts`, headers: {}, timeoutMs: 5000 });
      expect(proxy.asked).toEqual([]);
      expect(service.server.received).toHaveLength(1);
    });

    it('a proxy that refuses is named, and the request was not sent', async () => {
      const proxy = await connectProxy(() => 9, 403);
      const transport = await transportFor({ env: { HTTPS_PROXY: proxy.url } });
      const error = await failure(transport({ method: 'POST', url: 'https://workspace.test/api/v1/contacts', headers: {}, body: '{}', timeoutMs: 5000 }));
      expect(error).toMatchObject({ code: 'EPROXY', delivered: false, final: true, message: `the proxy ${proxy.url} refused to connect to workspace.test (HTTP 403)` });
    });

    it('a proxy that is not there is named', async () => {
      const transport = await transportFor({ env: { HTTPS_PROXY: 'http://user:pw@127.0.0.1:9' } });
      const error = await failure(transport({ method: 'GET', url: 'https://workspace.test/api/v1/contacts', headers: {}, timeoutMs: 5000 }));
      expect(error).toMatchObject({ code: 'ECONNREFUSED', delivered: false, message: 'could not connect to the proxy http://127.0.0.1:9 (connection refused)' });
    });

    it.each([
      ['without credentials in its URL: says to give them', '', undefined, 'the proxy wants credentials: give them in the proxy URL (https_proxy=http://user:password@proxy:port)'],
      ['with credentials (escapes decoded): sends them, and says they were not accepted', 'us%65r:p%40ss@', `Basic ${Buffer.from('user:p@ss').toString('base64')}`, 'the proxy did not accept the user name and password in its URL'],
    ])('a proxy that answers 407 %s; the request is never written to it', async (_, credentials, authorization, hint) => {
      const proxy = await scriptedProxy((client) => client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n'));
      const transport = await transportFor({ env: { HTTPS_PROXY: proxy.url.replace('//', `//${credentials}`) } });
      const error = await failure(post(transport));
      expect(error).toMatchObject({ code: 'EPROXY', delivered: false, final: true, hint, message: `the proxy ${proxy.url} refused to connect to workspace.test (HTTP 407)` });
      expect(proxy.heads).toHaveLength(1);
      expect(proxy.heads[0]!.match(/\r\nProxy-Authorization: (.*)\r\n/i)?.[1]).toBe(authorization);
      expect(proxy.bytes()).toBe(proxy.heads[0]);
      expect(proxy.bytes()).not.toContain('secret-key');
    });

    it.each([502, 503])('a proxy that answers CONNECT with %i: not sent, and worth another try', async (status) => {
      const proxy = await scriptedProxy((client) => client.end(`HTTP/1.1 ${status} Bad Gateway\r\nContent-Length: 0\r\n\r\n`));
      const transport = await transportFor({ env: { HTTPS_PROXY: proxy.url } });
      expect(await failure(post(transport))).toMatchObject({ code: 'EPROXY', delivered: false, final: false });
      expect(proxy.bytes()).not.toContain('secret-key');
    });

    it('a proxy that answers CONNECT with something that is not HTTP: named, not sent', async () => {
      const proxy = await scriptedProxy((client) => client.end('SSH-2.0-OpenSSH\r\n\r\n'));
      const transport = await transportFor({ env: { HTTPS_PROXY: proxy.url } });
      expect(await failure(post(transport))).toMatchObject({ code: 'EPROXY', delivered: false, final: true, message: `the proxy ${proxy.url} answered CONNECT with something that is not HTTP` });
    });

    it.each([
      ['closes', (client: Socket) => client.end(), 'network error talking to the proxy %s: Proxy connection ended before receiving CONNECT response'],
      ['resets', (client: Socket) => client.resetAndDestroy(), 'connection to the proxy %s was reset before the request was sent'],
    ])('a proxy that %s the connection during CONNECT: named, not sent, worth another try', async (_, onConnect, message) => {
      const proxy = await scriptedProxy(onConnect);
      const transport = await transportFor({ env: { HTTPS_PROXY: proxy.url } });
      expect(await failure(post(transport))).toMatchObject({ delivered: false, final: false, message: message.replace('%s', proxy.url) });
    });

    it('a proxy that never answers CONNECT meets the connection deadline: named, not sent, its connection closed', async () => {
      const proxy = await scriptedProxy(() => {});
      const transport = await transportFor({ env: { HTTPS_PROXY: proxy.url }, connectTimeoutMs: 100 });
      const error = await failure(post(transport, { timeoutMs: 60_000 }));
      expect(error).toMatchObject({ code: 'ECONNECTTIMEOUT', delivered: false, final: false, message: `could not connect to workspace.test through the proxy ${proxy.url} (timed out)` });
      await closed(proxy.clients[0]!);
    });

    it('a request cancelled while its tunnel is being made never reaches the service, and its connection to the proxy is closed at once', async () => {
      const service = await setUp((_, socket) => socket.write(OK));
      let accept = () => {};
      const proxy = await scriptedProxy((client) => (accept = () => tunnelTo(service.server.port)(client)));
      const transport = await transportFor({ env: { HTTP_PROXY: proxy.url } });
      const cancel = new AbortController();
      const pending = post(transport, { url: 'http://workspace.test/api/v1/contacts', signal: cancel.signal });
      while (proxy.heads.length === 0) await settle();
      cancel.abort();
      expect(await failure(pending)).toMatchObject({ code: 'ECANCELLED', delivered: false });
      await closed(proxy.clients[0]!);
      accept();
      await settle();
      expect(service.server.received).toEqual([]);
    });

    it('close() ends a tunnel being made', async () => {
      const proxy = await scriptedProxy(() => {});
      const transport = await transportFor({ env: { HTTPS_PROXY: proxy.url } });
      const pending = post(transport);
      while (proxy.heads.length === 0) await settle();
      transport.close();
      expect(await failure(pending)).toMatchObject({ code: 'ECANCELLED', delivered: false });
      await closed(proxy.clients[0]!);
    });

    it('a tunnel is kept for the next request, and a peer that closes it after answering never makes a POST fail', async () => {
      const kept = await setUp((_, socket) => socket.write(OK));
      const proxy = await connectProxy(() => kept.server.port);
      const transport = await transportFor({ env: { HTTP_PROXY: proxy.url } });
      for (let n = 0; n < 3; n++) {
        await post(transport, { url: 'http://workspace.test/api/v1/contacts' });
        await settle();
      }
      expect(proxy.asked).toHaveLength(1);
      expect(kept.server.connections).toHaveLength(1);
      const closing = await setUp((_, socket) => socket.end(OK));
      const proxyToClosing = await connectProxy(() => closing.server.port);
      const throughClosing = await transportFor({ env: { HTTP_PROXY: proxyToClosing.url } });
      for (let n = 0; n < 20; n++) expect(await post(throughClosing, { url: 'http://workspace.test/api/v1/contacts' })).toMatchObject({ status: 200 });
      expect(closing.server.received).toHaveLength(20);
    });

    it('a proxy URL crm cannot use: exit 2 material (invalid), said without its credentials, nothing sent', async () => {
      const proxy = await scriptedProxy(() => {});
      const transport = await transportFor({ env: { HTTPS_PROXY: proxy.url.replace('//', '//user:50%s3cret@') } });
      const error = await failure(post(transport));
      expect(error).toMatchObject({ code: 'EPROXYURL', delivered: false, invalid: true, message: `the user name or password in HTTPS_PROXY (${proxy.url}) holds a % that starts no escape: write % as %25` });
      await settle();
      expect(proxy.clients).toEqual([]);
    });

    it('an https:// proxy whose certificate fails verification is named, without its credentials', async () => {
      const fixture = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));
      const server = await peer(() => {}, createTlsServer({ key: fixture('key.pem'), cert: fixture('cert.pem') }), 'secureConnection');
      cleanups.push(() => server.close());
      const transport = await transportFor({ env: { HTTPS_PROXY: `https://user:s3cret@127.0.0.1:${server.port}` } });
      const error = await failure(post(transport));
      expect(error).toMatchObject({ delivered: false, final: true, hint: 'if 127.0.0.1 uses a private certificate authority, set NODE_EXTRA_CA_CERTS to its certificate (a PEM file)' });
      expect(error.message).toMatch(new RegExp(`^TLS error talking to the proxy https://127\\.0\\.0\\.1:${server.port}: self[- ]signed certificate`));
      expect(server.received).toEqual([]);
    });

  });

  describe('nothing left behind', () => {
    /** What keeps this process alive: sockets and timers (the peers' own are unref'd: not counted). */
    const holding = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap' || kind === 'Timeout' || kind === 'Immediate');
    /** What holds the process now that did not before (the test runner's own timers come and go). */
    const added = (before: string[]) => {
      const left = [...before];
      return holding().filter((kind) => (left.includes(kind) ? (left.splice(left.indexOf(kind), 1), false) : true));
    };

    /** A peer on loopback that does `act` with each connection's first bytes; its side of each connection does not count. */
    async function unrefPeer(act: (socket: Socket) => void) {
      const sockets: Socket[] = [];
      const server = createServer((socket) => {
        socket.unref();
        sockets.push(socket);
        socket.on('error', () => {});
        socket.once('data', () => act(socket));
      });
      server.unref();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      cleanups.push(() => new Promise((resolve) => { for (const socket of sockets) socket.destroy(); server.close(resolve); }));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }

    interface Scenario {
      url: string;
      timeoutMs?: number;
      cancel?: 'sent' | 'at once';
      proxy?: string;
      connectTimeoutMs?: number;
    }

    it.each<[string, () => Promise<Scenario>]>([
      ['refused', async () => ({ url: 'http://127.0.0.1:9' })],
      ['reset', async () => ({ url: await unrefPeer((socket) => socket.resetAndDestroy()) })],
      ['timed out', async () => ({ url: await unrefPeer(() => {}), timeoutMs: 100 })],
      ['cancelled once sent', async () => ({ url: await unrefPeer(() => {}), cancel: 'sent' as const })],
      ['cancelled while connecting', async () => ({ url: await unrefPeer(() => {}), cancel: 'at once' as const })],
      ['malformed', async () => ({ url: await unrefPeer((socket) => socket.write('SSH-2.0-OpenSSH\r\n\r\n')) })],
      ['refused by a proxy', async () => ({ url: 'http://workspace.test', proxy: await unrefPeer((socket) => socket.end('HTTP/1.1 403 Forbidden\r\n\r\n')) })],
      ['never answered by a proxy', async () => ({ url: 'http://workspace.test', proxy: await unrefPeer(() => {}), connectTimeoutMs: 100 })],
      ['cancelled while a proxy makes the tunnel', async () => ({ url: 'http://workspace.test', proxy: await unrefPeer(() => {}), cancel: 'sent' as const })],
    ])('a request %s leaves no socket, timer or listener behind', async (_, scenario: () => Promise<Scenario>) => {
      const { url, timeoutMs = 5000, cancel, proxy, connectTimeoutMs } = await scenario();
      const transport = await transportFor({ env: proxy ? { HTTP_PROXY: proxy } : {}, connectTimeoutMs });
      const before = holding();
      const signal = new AbortController();
      const pending = transport({ method: 'GET', url: `${url}/api/v1/contacts`, headers: {}, timeoutMs, signal: signal.signal, onSent: () => cancel === 'sent' && setTimeout(() => signal.abort(), 20) });
      if (cancel === 'at once') signal.abort();
      // Through a proxy, the request is never sent: cancelled once the proxy has the connection.
      if (cancel === 'sent' && proxy) setTimeout(() => signal.abort(), 50);
      await failure(pending);
      await settle();
      expect(added(before)).toEqual([]);
      expect(getEventListeners(signal.signal, 'abort')).toEqual([]);
    });

    it('a connection kept through a proxy holds the process no more than a direct one', async () => {
      const service = await unrefPeer((socket) => socket.write(OK));
      const proxy = await unrefPeer((client) => {
        const upstream = connectTcp(Number(new URL(service).port), '127.0.0.1', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          client.pipe(upstream).pipe(client);
        });
        upstream.unref();
      });
      const transport = await transportFor({ env: { HTTP_PROXY: proxy } });
      const before = holding();
      expect(await transport({ method: 'GET', url: 'http://workspace.test/api/v1/contacts', headers: {}, timeoutMs: 5000 })).toMatchObject({ status: 200 });
      await settle();
      expect(added(before)).toEqual([]);
    });

    it('close() ends a request under way and every kept connection', async () => {
      let kept: Socket | undefined;
      const url = await unrefPeer((socket) => {
        kept = socket;
        socket.write(OK);
      });
      // Kept far longer than the test's own time: only close() ends it.
      const transport = await transportFor({ idleMs: 600_000 });
      const before = holding();
      await transport({ method: 'GET', url: `${url}/api/v1/contacts`, headers: {}, timeoutMs: 5000 });
      const silent = await unrefPeer(() => {});
      const pending = transport({ method: 'GET', url: `${silent}/api/v1/contacts`, headers: {}, timeoutMs: 5000, onSent: () => setImmediate(() => transport.close()) });
      expect(await failure(pending)).toMatchObject({ code: 'ECANCELLED', delivered: true });
      await settle();
      expect(added(before)).toEqual([]);
      // The idle one too (it held nothing up): its peer sees it closed.
      await closed(kept!);
    });
  });
});
