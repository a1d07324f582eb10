// The network as users' networks are, with the built crm in a process: a workspace behind a private
// certificate authority (trusted with NODE_EXTRA_CA_CERTS) reached through a CONNECT proxy, a proxy
// that refuses or is not there, a certificate nobody trusts; and which commands load the HTTP
// client at all.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createPlainServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { connect as connectTcp, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { chunksWith, loadedUpFront } from '../helpers/bundle.js';
import { crm, freshHome } from '../helpers/crm.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));
const CA = join(FIXTURES, 'ca.pem');

/** The workspace: the sandbox's handler behind https on loopback, with a certificate for workspace.test signed by the private CA. */
let sandbox: Sandbox;
let workspace: HttpsServer;
let workspacePort = 0;
const served: string[] = [];
/** The workspace's TLS handshakes: each a new connection. */
const handshakes: string[] = [];
/** When set, the workspace answers each request with Connection: close: every request on a new connection. */
let closeAfterAnswering = false;
let dir: string;

/** A CONNECT proxy on loopback that tunnels every host to the workspace, or refuses with `refuse`; it keeps every byte the client sent it. */
interface Proxy {
  url: string;
  connects: string[];
  bytes: () => string;
  close(): Promise<void>;
}

async function startProxy(refuse?: number): Promise<Proxy> {
  const connects: string[] = [];
  let bytes = '';
  const clients = new Set<Socket>();
  const server: Server = createServer((client) => {
    clients.add(client);
    client.on('error', () => {});
    client.on('data', (chunk) => (bytes += chunk.toString('latin1')));
    client.once('data', (chunk) => {
      connects.push(chunk.toString('latin1').split('\r\n')[0]!);
      if (refuse) return void client.end(`HTTP/1.1 ${refuse} Forbidden\r\nContent-Length: 0\r\n\r\n`);
      const upstream = connectTcp(workspacePort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        client.pipe(upstream).pipe(client);
      });
      upstream.on('error', () => client.destroy());
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connects,
    bytes: () => bytes,
    close: () =>
      new Promise((done) => {
        // A tunnel whose workspace side closed first is left paused by pipe(): end it here.
        for (const client of clients) client.destroy();
        server.close(() => done());
      }),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crm-network-'));
  sandbox = await openSandbox({ dbPath: join(dir, 'sandbox.db') });
  workspace = createHttpsServer({ key: readFileSync(join(FIXTURES, 'workspace-key.pem')), cert: readFileSync(join(FIXTURES, 'workspace.pem')) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      served.push(`${req.method} ${req.url} key=${req.headers['x-service-api-key'] === sandbox.apiKey}`);
      const answer = sandbox.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer.status, { ...answer.headers, ...(closeAfterAnswering && { connection: 'close' }) });
      res.end(answer.body);
    });
  });
  workspace.on('secureConnection', (socket: TLSSocket) => handshakes.push(socket.isSessionReused() ? 'resumed' : 'full'));
  await new Promise<void>((done) => workspace.listen(0, '127.0.0.1', done));
  workspacePort = (workspace.address() as AddressInfo).port;
});

afterAll(async () => {
  workspace.closeAllConnections();
  await new Promise((done) => workspace.close(done));
  sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  served.length = 0;
  handshakes.length = 0;
  closeAfterAnswering = false;
});

const env = (extra: NodeJS.ProcessEnv) => ({ ...freshHome(), CRM_BASE_URL: 'https://workspace.test/api/v1', CRM_API_KEY: sandbox.apiKey, ...extra });

describe('a workspace behind a private CA, through a CONNECT proxy', () => {
  it('works with NODE_EXTRA_CA_CERTS and HTTPS_PROXY: the request and its key went through the tunnel, never to the proxy', async () => {
    const proxy = await startProxy();
    try {
      const result = await crm(['contacts', 'list', '--limit', '2', '--json'], { env: env({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: CA }) });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveLength(2);
      expect(proxy.connects).toEqual(['CONNECT workspace.test:443 HTTP/1.1']);
      expect(served).toHaveLength(1);
      expect(served[0]).toMatch(/^GET \/api\/v1\/contacts\?limit=2\b.* key=true$/);
      expect(proxy.bytes()).not.toContain(sandbox.apiKey);
    } finally {
      await proxy.close();
    }
  });

  it('https_proxy (lower case) works as well, and NO_PROXY sends the host around the proxy', async () => {
    const proxy = await startProxy();
    try {
      const through = await crm(['contacts', 'list', '--limit', '1', '-q'], { env: env({ https_proxy: proxy.url, NODE_EXTRA_CA_CERTS: CA }) });
      expect(through.code).toBe(0);
      expect(proxy.connects).toHaveLength(1);
      // Around the proxy, workspace.test does not resolve: proof that it was not asked.
      const around = await crm(['contacts', 'list', '--limit', '1', '-q'], { env: env({ https_proxy: proxy.url, NO_PROXY: '.test', NODE_EXTRA_CA_CERTS: CA }) });
      expect(around.code).toBe(6);
      expect(around.stderr).toMatch(/^crm: could not resolve host workspace\.test; tried 4 times\n/);
      expect(proxy.connects).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('a certificate nobody trusts: exit 6 at once, naming the host and how to trust a private CA; not retried', async () => {
    const proxy = await startProxy();
    try {
      const result = await crm(['contacts', 'list', '--limit', '1'], { env: env({ HTTPS_PROXY: proxy.url }) });
      expect(result.code).toBe(6);
      // Node 24 adds its own advice after the reason (--use-system-ca).
      expect(result.stderr).toMatch(
        /^crm: TLS error talking to workspace\.test: unable to verify the first certificate(;[^\n]*)?\nhint: if workspace\.test uses a private certificate authority, set NODE_EXTRA_CA_CERTS to its certificate \(a PEM file\)\n$/,
      );
      expect(proxy.connects).toHaveLength(1);
      expect(served).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('a proxy that refuses the tunnel is named: exit 6, nothing sent', async () => {
    const proxy = await startProxy(403);
    try {
      const result = await crm(['contacts', 'create', '--name', 'Refused', '--email', 'refused@example.com'], { env: env({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: CA }) });
      expect(result.code).toBe(6);
      expect(result.stderr).toBe(`crm: the proxy ${proxy.url} refused to connect to workspace.test (HTTP 403)\nhint: check HTTPS_PROXY, HTTP_PROXY and NO_PROXY\n`);
      expect(proxy.connects).toHaveLength(1);
      expect(served).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('a proxy that never answers CONNECT is named, without its credentials, and crm exits once it gave up (its connections to the proxy closed)', async () => {
    const silent = createServer((client) => client.on('error', () => {}));
    const clients = new Set<Socket>();
    silent.on('connection', (client) => clients.add(client));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const result = await crm(['contacts', 'create', '--name', 'Tunnel', '--email', 'tunnel@example.com', '--timeout', '0.5'], { env: env({ HTTPS_PROXY: url.replace('//', '//user:s3cret@'), NODE_EXTRA_CA_CERTS: CA }) });
      expect(result.stderr).toBe(`crm: could not connect to workspace.test through the proxy ${url} (timed out); tried 4 times\nhint: check HTTPS_PROXY, HTTP_PROXY and NO_PROXY\n`);
      expect(result.code).toBe(6);
      expect(clients.size).toBe(4);
      expect(served).toEqual([]);
    } finally {
      for (const client of clients) client.destroy();
      await new Promise((done) => silent.close(done));
    }
  }, 30_000);

  it('a proxy URL crm cannot use: exit 2, nothing sent, its credentials not shown', async () => {
    const result = await crm(['contacts', 'list', '--limit', '1'], { env: env({ HTTPS_PROXY: 'socks5://user:s3cret@127.0.0.1:1080' }) });
    expect(result.stderr).toBe('crm: HTTPS_PROXY names a socks5 proxy (socks5://127.0.0.1:1080): crm goes through http:// and https:// proxies only\n');
    expect(result.code).toBe(2);
  });

  it('a proxy that is not there is named, without its credentials', async () => {
    const result = await crm(['contacts', 'list', '--limit', '1'], { env: env({ HTTPS_PROXY: 'http://user:s3cret@127.0.0.1:9', NODE_EXTRA_CA_CERTS: CA }) });
    expect(result.code).toBe(6);
    expect(result.stderr).toBe('crm: could not connect to the proxy http://127.0.0.1:9 (connection refused); tried 4 times\nhint: check HTTPS_PROXY, HTTP_PROXY and NO_PROXY\n');
  }, 30_000);
});

describe('TLS and kept connections, through a proxy and not', () => {
  /** Imports 12 new contacts (several requests at once, in turn on the same connections), directly and through a CONNECT proxy. */
  async function importTwice(proxy: Proxy, check: (how: string) => void) {
    for (const [how, extra] of [['direct', { CRM_BASE_URL: `https://127.0.0.1:${workspacePort}/api/v1` }], ['tunnelled', { HTTPS_PROXY: proxy.url }]] as const) {
      const file = join(dir, `kept-${how}-${closeAfterAnswering}.csv`);
      writeFileSync(file, `name,email\n${Array.from({ length: 12 }, (_, n) => `Kept ${n},kept-${how}-${closeAfterAnswering}-${n}@example.com`).join('\n')}\n`);
      served.length = 0;
      handshakes.length = 0;
      const result = await crm(['contacts', 'import', file, '--json'], { env: env({ ...extra, NODE_EXTRA_CA_CERTS: CA }) });
      expect(result.code, result.stderr).toBe(0);
      expect(served.filter((line) => line.startsWith('POST '))).toHaveLength(12);
      check(how);
    }
  }

  it('an import keeps its https connections: fewer TLS handshakes (and tunnels) than requests', async () => {
    const proxy = await startProxy();
    try {
      await importTwice(proxy, () => expect(handshakes.length).toBeLessThan(served.length));
      expect(proxy.connects.length).toBeGreaterThan(0);
      expect(proxy.connects).toHaveLength(handshakes.length);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('a new https connection resumes the TLS session of one before, directly and inside a tunnel', async () => {
    closeAfterAnswering = true;
    const proxy = await startProxy();
    try {
      await importTwice(proxy, (how) => {
        expect(handshakes.length, how).toBe(12);
        expect(handshakes, how).toContain('resumed');
      });
      expect(proxy.connects).toHaveLength(12);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('a certificate for other hosts: exit 6, naming the host asked for, and saying to check the base URL (no CA would help)', async () => {
    const proxy = await startProxy();
    try {
      const result = await crm(['contacts', 'list', '--limit', '1'], { env: env({ CRM_BASE_URL: 'https://other.test/api/v1', HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: CA }) });
      expect(result.code).toBe(6);
      expect(result.stderr).toMatch(
        /^crm: TLS error talking to other\.test: Hostname\/IP does not match certificate's altnames: Host: other\.test\. is not in the cert's altnames: DNS:workspace\.test, DNS:localhost, IP Address:127\.0\.0\.1\nhint: the certificate other\.test sent is for other hosts: check the base URL \(--base-url, CRM_BASE_URL or the profile's base_url\)\n$/,
      );
      expect(served).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("an https:// proxy behind the private CA: CONNECT in TLS, with its credentials as Proxy-Authorization; neither they nor the key are printed, even with DEBUG=*, --debug and Node's own NODE_DEBUG=http,net,tls", async () => {
    const connects: string[] = [];
    const tlsProxy = createTlsServer({ key: readFileSync(join(FIXTURES, 'workspace-key.pem')), cert: readFileSync(join(FIXTURES, 'workspace.pem')) }, (client) => {
      client.on('error', () => {});
      client.once('data', (chunk) => {
        connects.push(chunk.toString('latin1'));
        const upstream = connectTcp(workspacePort, '127.0.0.1', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          client.pipe(upstream).pipe(client);
        });
        upstream.on('error', () => client.destroy());
      });
    });
    await new Promise<void>((done) => tlsProxy.listen(0, '127.0.0.1', done));
    try {
      const port = (tlsProxy.address() as AddressInfo).port;
      const result = await crm(['contacts', 'list', '--limit', '1', '--json', '--debug'], { env: env({ HTTPS_PROXY: `https://proxy%20user:s3cr%40t@127.0.0.1:${port}`, NODE_EXTRA_CA_CERTS: CA, DEBUG: '*', NODE_DEBUG: 'http,net,tls' }) });
      expect(result.code, result.stderr).toBe(0);
      expect(connects).toHaveLength(1);
      expect(connects[0]).toMatch(/^CONNECT workspace\.test:443 HTTP\/1\.1\r\n/);
      expect(connects[0]).toContain(`\r\nProxy-Authorization: Basic ${Buffer.from('proxy user:s3cr@t').toString('base64')}\r\n`);
      expect(served).toHaveLength(1);
      // Node's http log printed each new connection's options whole: the request's headers and the proxy agent with its URL.
      expect(result.stderr).toMatch(/^HTTP \d+: createConnection /m);
      for (const secret of ['s3cr', Buffer.from('proxy user:s3cr@t').toString('base64'), 'proxy%20user', 'proxy user', sandbox.apiKey]) expect(result.stdout + result.stderr).not.toContain(secret);
      expect(result.stderr).toMatch(/GET https:\/\/workspace\.test\/api\/v1\/contacts/);
    } finally {
      await new Promise((done) => tlsProxy.close(done));
    }
  });
});

describe('URLs that cannot be sent', () => {
  it.each([
    ['--base-url with a line break', ['contacts', 'list', '--base-url', 'https://workspace.test/api\n/v1']],
    ['--base-url with a tab', ['contacts', 'list', '--base-url', 'https://workspace.test/\tapi/v1']],
    ['--forward-to with CR LF', ['watch', 'contacts', '--once', '--since-start', '--forward-to', 'http://127.0.0.1:9/hooks\r\nX-Evil: 1']],
  ])('%s: exit 2 before anything is sent', async (_, args) => {
    const proxy = await startProxy();
    try {
      const result = await crm(args, { env: env({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: CA }) });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^crm: invalid (base URL|--forward-to) "[^\n]*\\[rnt][^\n]*": it holds a control character/);
      expect(proxy.connects).toEqual([]);
      expect(served).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});

/** Node's list of the internal modules a crm process loaded (written as it exits), and how it ended. */
async function builtinsLoaded(args: string[], env: NodeJS.ProcessEnv) {
  const hook = join(dir, 'modules.cjs');
  const list = join(dir, `modules-${args.join('-').replace(/\W+/g, '_')}.txt`);
  writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(process.env.CRM_TEST_MODULES, process.moduleLoadList.join('\\n')));\n`);
  const result = await crm(args, { env: { ...env, CRM_TEST_MODULES: list, NODE_OPTIONS: `--require ${hook}` } });
  return { result, modules: readFileSync(list, 'utf8').split('\n') };
}

describe('what a list over plain HTTP loads', () => {
  it("Node's HTTP client and none of the built-ins it has no use for: node:https and node:tls (plain HTTP), node:assert, node:tty (its output and errors go to pipes), node:crypto, node:fs's streams (an import of node:fs would load them)", async () => {
    const server = createPlainServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const answer = sandbox.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(answer.status, answer.headers).end(answer.body);
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
      const { result, modules } = await builtinsLoaded(['contacts', 'list', '--limit', '2', '--json'], { ...freshHome(), CRM_BASE_URL: baseUrl, CRM_API_KEY: sandbox.apiKey });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveLength(2);
      // The list is complete: the HTTP client's own modules are in it.
      expect(modules).toEqual(expect.arrayContaining(['NativeModule net', 'NativeModule http']));
      for (const name of ['https', 'tls', 'assert', 'tty', 'crypto', 'internal/fs/streams']) expect(modules).not.toContain(`NativeModule ${name}`);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it("an answer whose headers are larger than 16 KiB (Node's limit, which crm keeps without node:http) is malformed: exit 6, and not asked again", async () => {
    let requests = 0;
    const server = createPlainServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json', 'x-padding': 'a'.repeat(17 * 1024) }).end(JSON.stringify({ data: { contacts: [], total: 0 }, error: null }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
      const result = await crm(['contacts', 'list'], { env: { ...freshHome(), CRM_BASE_URL: baseUrl, CRM_API_KEY: sandbox.apiKey } });
      expect(result.code).toBe(6);
      expect(result.stderr).toMatch(/^crm: malformed response from 127\.0\.0\.1:\d+: its headers are larger than crm's limit of 16 KiB$/m);
      expect(requests).toBe(1);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

describe('which commands load the HTTP client', () => {
  it.each([
    ['--version', ['--version']],
    ['help', ['contacts', 'list', '--help']],
    ['a completion', ['__complete', 'profiles']],
    ['the embedded sandbox', ['contacts', 'list', '--limit', '1']],
  ])('only commands that reach the network: not %s', async (_, args) => {
    const { result, modules } = await builtinsLoaded(args, freshHome());
    expect(result.code, result.stderr).toBe(0);
    expect(modules).not.toContain('NativeModule http');
    expect(modules).not.toContain('NativeModule https');
  });

  it('the proxy agent only with a proxy: no file loaded before a command runs holds it', () => {
    const proxyAgent = chunksWith('Proxy-Connection');
    expect(proxyAgent).toHaveLength(1);
    const loaded = loadedUpFront(['crm.js', 'app.js', 'complete.js']);
    expect(loaded.size).toBeGreaterThan(3);
    expect([...loaded]).not.toContain(proxyAgent[0]);
  });
});
