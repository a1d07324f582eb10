// The benchmark's "remote workspace": a server that answers like a CRM service across a real
// network, for measuring crm where users wait (round trips, the rate limit), not the CPU of a
// loopback server. Plain Node, no crm code.
//
// - Every answer is delayed by one round trip (--rtt, default 40 ms: half before the request is
//   handled, half after), and a new connection costs one more round trip before its first request
//   is read (TCP's handshake; --no-connect-rtt leaves it out).
// - POSTs are limited by a token bucket (--post-rate per second, default 50, holding at most
//   --burst tokens, default 5): a POST that finds the bucket empty is answered 429 with
//   Retry-After (whole seconds, as HTTP has them) and the service's error envelope.
// - It serves its own contacts in the service's shapes (lists newest first as
//   {data: {contacts, total}, error: null}, GET/POST /contacts, GET /contacts/{id}; --contacts N
//   seeds N; the key is --key or a random one), or, with --upstream BASE_URL (e.g. a
//   `crm sandbox serve`), forwards every /api/v1 request there (the upstream checks the key) and
//   only adds the round trip and the limit.
// - GET /__bench/stats answers what it saw ({requests, gets, posts, accepted, refused, connections,
//   firstAt, lastAt: when the first request came and the last answer left});
//   POST /__bench/reset zeroes it. Neither is delayed nor limited.
// - --compress gzips JSON answers when the request accepts gzip.
//
//   node bench/remote-server.mjs [--port 0] [--rtt 40] [--post-rate 50] [--burst 5]
//                                [--contacts N] [--key KEY] [--upstream BASE_URL] [--compress]
//                                [--no-connect-rtt]
//
// Prints one JSON line once listening: {"url": ".../api/v1", "api_key": "...", "port": N}.
// bench/serve.mjs's serveRemote() starts it as a child process (a benchmark's spawnSync blocks its
// own event loop, so the server cannot live in the benchmark's process).

import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const PORT = Number(option('--port', 0));
const RTT = Number(option('--rtt', 40));
const POST_RATE = Number(option('--post-rate', 50));
const BURST = Number(option('--burst', 5));
const SEED = Number(option('--contacts', 0));
const KEY = option('--key', `bench_live_${randomBytes(16).toString('hex')}`);
const UPSTREAM = option('--upstream', undefined);
const COMPRESS = args.includes('--compress');
const CONNECT_RTT = !args.includes('--no-connect-rtt');
const PREFIX = '/api/v1';
const MAX_LIMIT = 50;
const DEFAULT_LIMIT = 20;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What it saw; firstAt and lastAt (epoch ms): the first API request's arrival, the last answer's departure. */
const stats = { requests: 0, gets: 0, posts: 0, accepted: 0, refused: 0, connections: 0, firstAt: 0, lastAt: 0 };
const resetStats = () => Object.keys(stats).forEach((name) => (stats[name] = 0));

/** POSTs allowed at POST_RATE a second, at most BURST at once; refills continuously. */
const bucket = { tokens: BURST, at: performance.now() };
/** Takes a token, or answers how many ms until one is there. */
function takeToken() {
  const now = performance.now();
  bucket.tokens = Math.min(BURST, bucket.tokens + ((now - bucket.at) * POST_RATE) / 1000);
  bucket.at = now;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return 0;
  }
  return ((1 - bucket.tokens) * 1000) / POST_RATE;
}

// Contacts, newest first (index 0 is the newest), with an email index for conflicts.
const contacts = [];
const byEmail = new Map();
let nextId = 0;
let clock = Date.parse('2024-01-01T00:00:00Z');
function addContact({ name, email, company = null }) {
  clock += 1000;
  const contact = { id: `con_${(++nextId).toString(36).padStart(8, '0')}`, name, email, company, created_at: new Date(clock).toISOString() };
  contacts.unshift(contact);
  byEmail.set(email.toLowerCase(), contact);
  return contact;
}
for (let index = 0; index < SEED; index++) addContact({ name: `Remote Person ${index}`, email: `remote-${index}@example.com`, company: 'Remote Co' });

const envelope = (data, error = null) => JSON.stringify({ data, error });

function wholeNumber(text) {
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/** The service's own answers, in memory: [status, body text, extra headers]. */
function serveContacts(method, url, body) {
  const path = url.pathname.slice(PREFIX.length);
  if (path === '/contacts' && method === 'GET') {
    const limitText = url.searchParams.get('limit');
    const offsetText = url.searchParams.get('offset');
    const limit = limitText === null ? DEFAULT_LIMIT : wholeNumber(limitText);
    const offset = offsetText === null ? 0 : wholeNumber(offsetText);
    if (limit === undefined || limit < 1) return [400, envelope(null, `limit must be an integer between 1 and ${MAX_LIMIT}`)];
    if (offset === undefined) return [400, envelope(null, 'offset must be a whole number')];
    const search = url.searchParams.get('search')?.toLowerCase();
    const matching = search ? contacts.filter((c) => [c.name, c.email, c.company].some((v) => v?.toLowerCase().includes(search))) : contacts;
    return [200, envelope({ contacts: matching.slice(offset, offset + Math.min(limit, MAX_LIMIT)), total: matching.length })];
  }
  if (path === '/contacts' && method === 'POST') {
    let fields;
    try {
      fields = JSON.parse(body || '{}');
    } catch {
      return [400, envelope(null, 'Request body is not valid JSON')];
    }
    if (typeof fields?.name !== 'string' || !fields.name) return [400, envelope(null, 'name is required')];
    if (typeof fields.email !== 'string' || !fields.email.includes('@')) return [400, envelope(null, 'email is required and must be an email address')];
    if (byEmail.has(fields.email.toLowerCase())) return [409, envelope(null, `A contact with email ${fields.email} already exists`)];
    return [201, envelope(addContact(fields))];
  }
  const one = /^\/contacts\/([^/]+)$/.exec(path);
  if (one && method === 'GET') {
    const contact = contacts.find((c) => c.id === decodeURIComponent(one[1]));
    return contact ? [200, envelope(contact)] : [404, envelope(null, 'contact not found')];
  }
  return [404, envelope(null, `No route for ${method} ${path}`)];
}

/** Forwards the request to the upstream service as it came (path, query, headers, body). */
function forward(method, url, headers, body) {
  const target = new URL(UPSTREAM.replace(/\/+$/, '') + url.pathname.slice(PREFIX.length) + url.search);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(target, { method, headers: { ...headers, host: target.host, 'accept-encoding': 'identity' } }, (answer) => {
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => {
        const extra = {};
        if (answer.headers['retry-after']) extra['retry-after'] = answer.headers['retry-after'];
        resolve([answer.statusCode, Buffer.concat(chunks).toString('utf8'), extra]);
      });
      answer.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(request, response, status, text, headers = {}) {
  let body = Buffer.from(text);
  const all = { 'content-type': 'application/json; charset=utf-8', ...headers };
  if (COMPRESS && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    body = gzipSync(body);
    all['content-encoding'] = 'gzip';
  }
  response.writeHead(status, { ...all, 'content-length': body.length });
  response.end(body);
}

async function handle(request, response) {
  const url = new URL(request.url, 'http://bench.invalid');
  if (url.pathname === '/__bench/stats') return send(request, response, 200, JSON.stringify(stats));
  if (url.pathname === '/__bench/reset' && request.method === 'POST') {
    resetStats();
    return send(request, response, 200, JSON.stringify(stats));
  }
  const body = await readBody(request);
  stats.firstAt ||= Date.now();
  stats.requests++;
  if (request.method === 'GET') stats.gets++;
  await sleep(RTT / 2);
  let answer;
  if (!url.pathname.startsWith(`${PREFIX}/`)) {
    answer = [404, envelope(null, 'Not found')];
  } else if (!UPSTREAM && request.headers['x-service-api-key'] !== KEY) {
    answer = [401, envelope(null, 'Invalid or revoked API key')];
  } else {
    const wait = request.method === 'POST' ? takeToken() : 0;
    if (request.method === 'POST') stats.posts++;
    if (wait > 0) {
      stats.refused++;
      answer = [429, envelope(null, 'Too many requests. Try again later.'), { 'retry-after': String(Math.ceil(wait / 1000)) }];
    } else {
      if (request.method === 'POST') stats.accepted++;
      answer = UPSTREAM ? await forward(request.method, url, request.headers, body) : serveContacts(request.method, url, body);
    }
  }
  await sleep(RTT / 2);
  send(request, response, ...answer);
  stats.lastAt = Date.now();
}

const server = createServer((request, response) => {
  handle(request, response).catch((error) => {
    if (!response.headersSent) send(request, response, 502, envelope(null, `bench server: ${error.message}`));
    else response.destroy();
  });
});
server.keepAliveTimeout = 30_000;
server.on('connection', (socket) => {
  stats.connections++;
  if (!CONNECT_RTT || RTT === 0) return;
  // The handshake's round trip: the first request is read one RTT after the connection opened.
  socket.pause();
  setTimeout(() => socket.resume(), RTT).unref();
});

server.listen(PORT, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}${PREFIX}`, api_key: KEY, port })}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
