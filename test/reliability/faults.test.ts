// Every fault a server can commit, against each kind of request (GET a list, GET one, POST create,
// PATCH, DELETE), over a real loopback socket: the documented outcome every time (retried and
// succeeded, or the documented exit code with one `crm:` line), never a stack trace, never an exit
// code outside the contract, and never a duplicate record from a POST. The fast run drives crm
// in-process through the network transport; `npm run test:reliability` also runs every case as a
// process of the built CLI.
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/registry/global.js';
import { crm, freshHome } from '../helpers/crm.js';
import { recordFigure } from '../helpers/evidence.js';
import { startFaultServer, useServedSandbox, type Fault } from '../helpers/fault-server.js';
import { run } from '../helpers/inprocess.js';

const FULL = process.env.CRM_RELIABILITY === 'full';
const CONTRACT_EXIT_CODES = new Set<number>(EXIT_CODES.map((exit) => exit.code));
/**
 * Cases run at once: enough to keep the run short (most of a case is waiting out a backoff, a
 * Retry-After or a stall), few enough that no healthy request nears the timeout. Processes cost CPU.
 */
const CONCURRENCY = { inProcess: 30, processes: 8 };

type Method = 'GET list' | 'GET one' | 'POST create' | 'PATCH' | 'DELETE';
const METHODS: Method[] = ['GET list', 'GET one', 'POST create', 'PATCH', 'DELETE'];
const IDEMPOTENT = (method: Method) => method !== 'POST create';

/** How many requests crm sent: exactly, or at least (a timed-out attempt may be followed by more). */
type Requests = number | { atLeast: number };
type Outcome = { ok: true; requests?: Requests; notice?: RegExp } | { exit: number; message: RegExp; requests?: Requests };
const ok = (requests?: Requests, notice?: RegExp): Outcome => ({ ok: true, requests, notice });
const fails = (exit: number, message: RegExp, requests?: Requests): Outcome => ({ exit, message, requests });

interface FaultCase {
  name: string;
  /** The fault, given the key (for echoes) and the method's path (for answers shaped like it). */
  fault: (key: string, method: Method) => Fault;
  expect: (method: Method) => Outcome;
  /** A server that is not there at all. */
  closedPort?: boolean;
  /**
   * crm's --timeout in seconds, where the timeout is the case's subject. Elsewhere crm keeps its
   * default (30 s): a healthy answer that a busy machine slows must not turn into a timeout.
   */
  timeout?: number;
  /** Extra checks of what crm printed. */
  check?: (result: { stdout: string; stderr: string }, key: string) => void;
}

const json = (data: unknown, error: unknown = null) => JSON.stringify({ data, error });
const ESCAPES = '\u001b]0;owned\u0007\u001b[2J\u001b[31m';
const date = (msFromNow: number) => new Date(Date.now() + msFromNow).toUTCString();
/** A retried idempotent request succeeds on its second attempt; a POST is not retried. */
const retriedUnlessPost = (postExit: number, postMessage: RegExp) => (method: Method) => (IDEMPOTENT(method) ? ok(2) : fails(postExit, postMessage, 1));
/** The service acted, then the connection failed: retried when idempotent; a POST is reported, not repeated. */
const connectionFault = (postMessage: RegExp) => retriedUnlessPost(6, postMessage);
/** A 2xx whose record is not one (a bare string) where a get, create or update promises one (a delete needs none). */
const notRecord = (method: Method) => (method === 'DELETE' ? ok(1) : fails(6, /malformed response/, 1));
/** A 2xx with no record at all: an update took effect, said on stderr (docs/api-assumptions.md); a get or create has none to show. */
const noRecord = (method: Method) => (method === 'PATCH' ? ok(1, /^crm: warning: the service answered with no contact \(no content\)/) : notRecord(method));

const CASES: FaultCase[] = [
  { name: 'HTTP 500', fault: () => ({ status: 500 }), expect: () => fails(1, /^injected 500$/, 1) },
  { name: 'HTTP 502', fault: () => ({ status: 502 }), expect: retriedUnlessPost(1, /^injected 502$/) },
  { name: 'HTTP 503', fault: () => ({ status: 503 }), expect: retriedUnlessPost(1, /^injected 503$/) },
  { name: 'HTTP 504', fault: () => ({ status: 504 }), expect: retriedUnlessPost(1, /^injected 504$/) },
  ...[301, 302, 307].map((status) => ({
    name: `HTTP ${status} redirect`,
    fault: () => ({ status, headers: { location: 'https://elsewhere.example/api/v1/contacts' }, body: '' }),
    expect: () => fails(1, new RegExp(`redirect \\(HTTP ${status} to https://elsewhere\\.example/api/v1/contacts\\); crm does not follow redirects`), 1),
    check: ({ stderr }: { stderr: string }) => expect(stderr).toContain('hint: check the base URL'),
  })),
  { name: '429 without Retry-After', fault: () => ({ status: 429 }), expect: () => ok(2) },
  { name: '429 Retry-After: 1', fault: () => ({ status: 429, headers: { 'retry-after': '1' } }), expect: () => ok(2) },
  { name: '429 Retry-After: 120 (long)', fault: () => ({ status: 429, headers: { 'retry-after': '120' } }), expect: () => fails(5, /^injected 429 \(retry after 120s, at /, 1) },
  { name: '429 Retry-After: huge (over 2^31 ms)', fault: () => ({ status: 429, headers: { 'retry-after': '99999999999' } }), expect: () => fails(5, /^injected 429 \(retry after \d{4}-\d\d-\d\dT[\d:.]+Z\)$/, 1) },
  { name: '429 Retry-After: past the last date', fault: () => ({ status: 429, headers: { 'retry-after': '9'.repeat(20) } }), expect: () => fails(5, /^injected 429 \(retry after a date too far to show\)$/, 1) },
  { name: '429 Retry-After: a date 2 s ahead', fault: () => ({ status: 429, headers: { 'retry-after': date(2000) } }), expect: () => ok(2) },
  { name: '429 Retry-After: a date a day ahead', fault: () => ({ status: 429, headers: { 'retry-after': date(86_400_000) } }), expect: () => fails(5, /^injected 429 \(retry after \d{4}-\d\d-\d\dT[\d:.]+Z\)$/, 1) },
  { name: '429 Retry-After: junk', fault: () => ({ status: 429, headers: { 'retry-after': 'soon, maybe' } }), expect: () => ok(2) },
  {
    name: '503 Retry-After: 120 (long)',
    fault: () => ({ status: 503, headers: { 'retry-after': '120' } }),
    // A POST is not retried on 503 at all; the others give up on the long wait as a 429 does.
    expect: (method) => (IDEMPOTENT(method) ? fails(5, /^injected 503 \(retry after 120s, at /, 1) : fails(1, /^injected 503$/, 1)),
  },
  { name: 'reset before the answer', fault: () => ({ connection: 'reset-before' }), expect: connectionFault(/^connection to 127\.0\.0\.1:\d+ was reset$/) },
  { name: 'reset during the body', fault: () => ({ connection: 'reset-during' }), expect: connectionFault(/^(the response from 127\.0\.0\.1:\d+ was cut short|connection to 127\.0\.0\.1:\d+ was reset)$/) },
  { name: 'reset after the body', fault: () => ({ connection: 'reset-after' }), expect: () => ok(1) },
  { name: 'clean close mid-body (Content-Length 200, 25 bytes, FIN)', fault: () => ({ connection: 'close-mid-body' }), expect: connectionFault(/^the response from 127\.0\.0\.1:\d+ was cut short$/) },
  {
    name: 'stall past the timeout',
    fault: () => ({ connection: 'stall' }),
    // Long enough that the request reaches the server first even on a busy machine (with 2 s, a POST
    // once timed out before the fault server had read it: 0 requests); the stall itself is endless.
    timeout: 8,
    // The retry after the stall is healthy; on a busy machine it too may outlast the timeout and be retried.
    expect: (method) => (IDEMPOTENT(method) ? ok({ atLeast: 2 }) : fails(6, /^request timed out after 8s$/, 1)),
  },
  { name: 'not JSON', fault: () => ({ status: 200, body: 'all good', headers: { 'content-type': 'text/plain' } }), expect: () => fails(6, /^malformed response from the service \(HTTP 200, not JSON\)$/, 1) },
  { name: 'HTML on a 200', fault: () => ({ status: 200, body: '<html><body>Maintenance</body></html>', headers: { 'content-type': 'text/html' } }), expect: () => fails(6, /not JSON/, 1) },
  { name: 'an HTML gateway page on a 502', fault: () => ({ status: 502, body: '<html><h1>502 Bad Gateway</h1></html>', headers: { 'content-type': 'text/html' } }), expect: retriedUnlessPost(1, /^HTTP 502 Bad Gateway$/) },
  { name: 'an empty 200', fault: () => ({ status: 200, body: '' }), expect: (method) => (method === 'GET list' ? fails(6, /expected a list/, 1) : noRecord(method)) },
  { name: '204 No Content', fault: () => ({ status: 204, body: '' }), expect: (method) => (method === 'GET list' ? fails(6, /expected a list/, 1) : noRecord(method)) },
  { name: 'truncated JSON', fault: () => ({ status: 200, body: '{"data": {"id": "con_tru' }), expect: () => fails(6, /not JSON/, 1) },
  { name: 'both members null', fault: () => ({ status: 200, body: json(null) }), expect: (method) => (method === 'GET list' ? fails(6, /expected a list/, 1) : noRecord(method)) },
  { name: 'a bare string on a 200', fault: () => ({ status: 200, body: json('ok') }), expect: (method) => (method === 'GET list' ? fails(6, /expected a list/, 1) : notRecord(method)) },
  { name: 'a 200 whose error member is set', fault: () => ({ status: 200, body: json(null, 'Workspace is read-only') }), expect: () => fails(1, /^Workspace is read-only$/, 1) },
  {
    name: 'control characters in an error',
    fault: () => ({ status: 400, body: json(null, `${ESCAPES}bad input\ncrm: all is well\r\u0008`) }),
    expect: () => fails(1, /bad input crm: all is well/, 1),
    check: ({ stderr }) => expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/),
  },
  {
    name: 'control characters in a record',
    fault: (_, method) => ({ status: method === 'POST create' ? 201 : 200, body: json(method === 'GET list' ? { contacts: [{ id: 'con_esc', name: `${ESCAPES}Eve` }], total: 1 } : { id: 'con_esc', name: `${ESCAPES}Eve`, deleted: true }) }),
    expect: () => ok(1),
    check: ({ stdout, stderr }) => expect(stdout + stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/),
  },
  {
    name: 'the key echoed back in an error',
    fault: (key) => ({ status: 401, body: json(null, { message: `Invalid API key ${key}`, code: `bad_key_${key}` }) }),
    expect: () => fails(3, /^Invalid API key \*\*\*\*\w{4}$/, 1),
    check: ({ stdout, stderr }, key) => {
      expect(stdout + stderr).not.toContain(key);
      expect(stderr).toContain(`"code":"bad_key_****${key.slice(-4)}"`);
    },
  },
  {
    name: 'the key echoed back in a record',
    fault: (key, method) => ({ status: method === 'POST create' ? 201 : 200, body: json(method === 'GET list' ? { contacts: [{ id: 'con_echo', note: key }], total: 1 } : { id: 'con_echo', note: `key=${key}` }) }),
    expect: () => ok(1),
    check: ({ stdout, stderr }, key) => expect(stdout + stderr).not.toContain(key),
  },
  {
    name: 'the key echoed back in a header',
    fault: (key) => ({ status: 302, headers: { location: `https://elsewhere.example/login?key=${key}`, 'x-echo': key }, body: '' }),
    expect: () => fails(1, /^the service answered with a redirect \(HTTP 302 to https:\/\/elsewhere\.example\/login\?key=\*\*\*\*\w{4}\)/, 1),
    check: ({ stdout, stderr }, key) => expect(stdout + stderr).not.toContain(key),
  },
  {
    name: 'nothing listening (connection refused)',
    fault: () => ({}),
    closedPort: true,
    // Certainly not delivered: even a POST is tried again, then it is a network failure that says so.
    expect: () => fails(6, /^could not connect to 127\.0\.0\.1:\d+ \(connection refused\); tried 4 times$/),
  },
];

/** The workspace every case's own fault server answers for. */
const served = useServedSandbox();
const api = (method: string, path: string, body?: unknown) => served.api(method, path, body);

let serial = 0;
/** The command line of one case, on a contact of its own. */
function commandFor(method: Method): { args: string[]; email?: string } {
  const n = ++serial;
  const email = `fault-${n}@example.com`;
  if (method === 'POST create') return { args: ['contacts', 'create', '--name', `Fault ${n}`, '--email', email], email };
  if (method === 'GET list') return { args: ['contacts', 'list', '--limit', '2'] };
  const id = api('POST', '/contacts', { name: `Fault ${n}`, email }).data.id as string;
  if (method === 'GET one') return { args: ['contacts', 'get', id] };
  if (method === 'PATCH') return { args: ['contacts', 'update', id, '--company', `Company ${n}`] };
  return { args: ['contacts', 'delete', id, '--yes'] };
}

type Runner = (args: string[], env: NodeJS.ProcessEnv) => Promise<{ code: number | null; stdout: string; stderr: string }>;
const inProcess: Runner = (args, env) => run(args, { env });
const asProcess: Runner = (args, env) => crm(args, { env });

/** Runs one case; returns what went wrong (nothing when it held). */
async function tryCase(runner: Runner, faultCase: FaultCase, method: Method): Promise<string | undefined> {
  const server = await startFaultServer(served.sandbox);
  const { args, email } = commandFor(method);
  if (!faultCase.closedPort) server.fault(faultCase.fault(served.sandbox.apiKey, method));
  const url = faultCase.closedPort ? 'http://127.0.0.1:9/api/v1' : server.url;
  const home = freshHome();
  const env = { ...home, CRM_BASE_URL: url, CRM_API_KEY: served.sandbox.apiKey };
  try {
    const result = await runner([...args, '--json', ...(faultCase.timeout ? ['--timeout', String(faultCase.timeout)] : [])], env);
    const expected = faultCase.expect(method);
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(CONTRACT_EXIT_CODES.has(result.code ?? -1), `exit ${result.code} is not in the contract`).toBe(true);
    expect(result.stderr).not.toMatch(/^\s+at |Error:|node:internal/m);
    if ('ok' in expected) {
      expect(result.code, result.stderr).toBe(0);
      expect(lines).toEqual(expected.notice ? [expect.stringMatching(expected.notice)] : []);
      expect(() => JSON.parse(result.stdout)).not.toThrow();
    } else {
      expect(result.code, result.stderr).toBe(expected.exit);
      expect(result.stdout).toBe('');
      // One crm: line, perhaps a hint, and the JSON error carrying the same exit code.
      expect(lines.filter((line) => line.startsWith('crm: '))).toHaveLength(1);
      expect(lines.every((line) => /^(crm|hint): /.test(line) || line.startsWith('{"error":'))).toBe(true);
      expect(lines[0]!.slice('crm: '.length)).toMatch(expected.message);
      expect(JSON.parse(lines.at(-1)!).error.exit_code).toBe(expected.exit);
    }
    const sent = server.requests().length;
    if (typeof expected.requests === 'number') expect(sent, 'requests sent').toBe(expected.requests);
    else if (expected.requests) expect(sent, 'requests sent').toBeGreaterThanOrEqual(expected.requests.atLeast);
    if (email) {
      // A POST never makes a duplicate; and the record is there whenever the service acted on it.
      const { total } = api('GET', `/contacts?search=${encodeURIComponent(email)}`).data;
      const acted = server.log.some((entry) => entry.method === 'POST' && (entry.fault === undefined || !entry.fault.startsWith('HTTP ')));
      expect(total, 'records made by the POST').toBe(acted ? 1 : 0);
    }
    faultCase.check?.(result, served.sandbox.apiKey);
    server.verifyFaults();
    return undefined;
  } catch (error) {
    return `${faultCase.name} / ${method}: ${(error as Error).message.split('\n').slice(0, 6).join(' | ')}`;
  } finally {
    await server.close();
    rmSync(home.HOME!, { recursive: true, force: true });
  }
}

/** Every case, `concurrency` at a time; the list of those that did not hold. */
async function tryEveryCase(runner: Runner, concurrency: number): Promise<{ tried: number; failures: string[] }> {
  const queue = CASES.flatMap((faultCase) => METHODS.map((method) => [faultCase, method] as const));
  const failures: string[] = [];
  let tried = 0;
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const failure = await tryCase(runner, ...next);
      tried++;
      if (failure) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { tried, failures };
}

describe('faults x methods', () => {
  it(`in-process, over a real socket: ${CASES.length} faults x ${METHODS.length} methods`, async () => {
    const { tried, failures } = await tryEveryCase(inProcess, CONCURRENCY.inProcess);
    recordFigure('faults', CASES.length);
    recordFigure('methods', METHODS.length);
    recordFigure('fault cases (in-process)', tried);
    expect(failures).toEqual([]);
    expect(tried).toBe(CASES.length * METHODS.length);
  }, 120_000);

  it.runIf(FULL)('as processes of the built CLI', async () => {
    const { tried, failures } = await tryEveryCase(asProcess, CONCURRENCY.processes);
    recordFigure('fault cases (processes)', tried);
    expect(failures).toEqual([]);
  }, 600_000);
});
