// The network transport against peers on loopback that answer byte by byte as scripted: kept-alive
// connections, peers that close or reset them, answers that are not HTTP, TLS that must be verified.
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNetworkTransport } from '../../src/transport/network.js';
import { TransportError, originOf, pathAndQuery, type TransportRequest } from '../../src/transport/types.js';

const OK = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"data":{}}';

interface Peer {
  url: string;
  /** Connections opened to it. */
  connections: Socket[];
  /** The requests' bytes, one string per request as it arrived (loosely: per data event). */
  received: string[];
  close(): Promise<void>;
}

/** A peer that answers every request with `answer(n, socket)`, n counting from 0 per peer; `event` is its connections' (TLS: secureConnection). */
async function peer(answer: (index: number, socket: Socket) => void, server: Server = createServer(), event = 'connection'): Promise<Peer> {
  const connections: Socket[] = [];
  const received: string[] = [];
  server.on(event, (socket: Socket) => {
    connections.push(socket);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      received.push(chunk.toString('latin1'));
      answer(received.length - 1, socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
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

async function setUp(answer: (index: number, socket: Socket) => void) {
  const server = await peer(answer);
  const transport = await createNetworkTransport();
  cleanups.push(() => transport.close(), () => server.close());
  const get = (path = '/contacts', extra: Partial<TransportRequest> = {}) => transport({ method: 'GET', url: `${server.url}${path}`, headers: { Accept: 'application/json' }, timeoutMs: 2000, ...extra });
  return { server, transport, get };
}

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
});

describe('the network transport', () => {
  it('sends the request as written and keeps the connection for the next one', async () => {
    const { server, get } = await setUp((_, socket) => socket.write(OK));
    expect(await get('/contacts?limit=1')).toMatchObject({ status: 200, body: '{"data":{}}', headers: { 'content-type': 'application/json' } });
    expect(await get()).toMatchObject({ status: 200 });
    expect(server.connections).toHaveLength(1);
    const port = new URL(server.url).port;
    expect(server.received[0]).toBe(`GET /api/v1/contacts?limit=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\nAccept: application/json\r\n\r\n`);
  });

  it('sends / for a URL without a path (a --forward-to)', async () => {
    const { server, transport } = await setUp((_, socket) => socket.write(OK));
    await transport({ method: 'POST', url: `${new URL(server.url).origin}?token=1`, headers: {}, body: '{}', timeoutMs: 2000 });
    expect(server.received[0]).toMatch(/^POST \/\?token=1 HTTP\/1\.1\r\n/);
  });

  it('opens a connection per request under way at once', async () => {
    const { server, get } = await setUp((_, socket) => setTimeout(() => socket.write(OK), 20));
    await Promise.all([get(), get(), get()]);
    expect(server.connections).toHaveLength(3);
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

  it('gives an idle connection up a second before the Keep-Alive timeout the peer announced', async () => {
    const { server, get } = await setUp((index, socket) => socket.write(OK.replace('\r\n\r\n', `\r\nKeep-Alive: timeout=${index === 0 ? 1 : 5}\r\n\r\n`)));
    await get();
    // The peer keeps it 1 s: the next request, however soon, goes on a new connection, and the old one is closed.
    await get();
    expect(server.connections).toHaveLength(2);
    await closed(server.connections[0]!);
    // 5 s: kept for 4.
    await get();
    expect(server.connections).toHaveLength(2);
  });

  it('drops a connection on which the peer sent bytes nobody asked for', async () => {
    const { server, get } = await setUp((_, socket) => {
      socket.write(OK);
      setTimeout(() => socket.write('HTTP/1.1 200 OK\r\n\r\n'), 10);
    });
    await get();
    await closed(server.connections[0]!);
    await get();
    expect(server.connections).toHaveLength(2);
  });

  it('connection refused: nothing was delivered', async () => {
    const transport = await createNetworkTransport();
    const error = await failure(transport({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/contacts', headers: {}, body: '{}', timeoutMs: 2000 }));
    expect(error).toMatchObject({ code: 'ECONNREFUSED', delivered: false, message: 'could not connect to 127.0.0.1:9 (connection refused)' });
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

  it('an answer that is not HTTP fails, and its connection is not used again', async () => {
    const { server, get } = await setUp((index, socket) => socket.write(index === 0 ? 'SSH-2.0-OpenSSH\r\n\r\n' : OK));
    expect(await failure(get())).toMatchObject({ code: 'EPROTO', delivered: true, message: `malformed response from ${new URL(server.url).host}: "SSH-2.0-OpenSSH" is not an HTTP/1.x status line` });
    expect(await get()).toMatchObject({ status: 200 });
    expect(server.connections).toHaveLength(2);
  });

  it('a peer that never answers meets the deadline', async () => {
    const { get } = await setUp(() => {});
    expect(await failure(get('/contacts', { timeoutMs: 100 }))).toMatchObject({ code: 'ETIMEDOUT', delivered: true, message: 'request timed out after 0.1s' });
  });

  it('keeps the process alive while a request is under way, and not once it is over', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    let during = 0;
    const { get } = await setUp((_, socket) => {
      during = timers();
      setTimeout(() => socket.write(OK), 10);
    });
    expect(await get()).toMatchObject({ status: 200 });
    // One timer checks the deadlines of every request under way; it lets go once none is.
    expect(during).toBe(before + 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers()).toBe(before);
  });

  it('refuses a header that cannot be written, before connecting', async () => {
    const { server, get } = await setUp((_, socket) => socket.write(OK));
    expect(await failure(get('/contacts', { headers: { 'X-Service-API-Key': 'key\r\nX-Evil: 1' } }))).toMatchObject({ code: 'EINVALIDHEADER', delivered: false });
    expect(server.connections).toHaveLength(0);
  });

  it('verifies the certificate of an https peer', async () => {
    const tlsServer = createTlsServer({ key: readFileSync(new URL('../fixtures/tls/key.pem', import.meta.url)), cert: readFileSync(new URL('../fixtures/tls/cert.pem', import.meta.url)) });
    const server = await peer((_, socket) => socket.write(OK), tlsServer, 'secureConnection');
    const transport = await createNetworkTransport();
    cleanups.push(() => transport.close(), () => server.close());
    const url = server.url.replace('http:', 'https:');
    const error = await failure(transport({ method: 'GET', url: `${url}/contacts`, headers: {}, timeoutMs: 2000 }));
    // Node 24 adds its own advice after the reason (--use-system-ca).
    expect(error.message).toMatch(/^TLS error talking to 127\.0\.0\.1:\d+: self[- ]signed certificate(;.*)?$/);
    expect(server.received).toHaveLength(0);
  });
});
