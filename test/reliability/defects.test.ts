// One test per defect of the adversarial run (issue 8), each failing without its fix: in-process
// where the transport shows it, over a real socket or as a process where only those do.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Choice, Prompter } from '../../src/cli/prompt.js';
import { crm } from '../helpers/crm.js';
import { useServedSandbox } from '../helpers/fault-server.js';
import { BASE_URL, homeEnv, json, recordedSleep, run, useWorkspace } from '../helpers/inprocess.js';

const ws = useWorkspace();
const home = () => homeEnv(mkdtempSync(join(tmpdir(), 'crm-home-')));
const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...home(), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey, ...extra });
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/; // tabs and line breaks are the formats' own
const ESCAPES = '\u001b]0;owned\u0007\u001b[2J\u001b[31m';
const answer = (data: unknown, error: unknown = null) => JSON.stringify({ data, error });
const configFile = (environment: NodeJS.ProcessEnv) => join(environment.XDG_CONFIG_HOME!, 'crm', 'config.json');

/** A sandbox behind the fault server, with enough contacts for walks of many pages. */
const served = useServedSandbox(600);

describe('a response cut short by a clean close (Content-Length 200, 25 bytes, FIN)', () => {
  it('a process gets no hang and no exit 13: a GET is retried, a POST is exit 6 and not repeated', async () => {
    served.server.fault({ match: /^GET/, connection: 'close-mid-body' });
    const list = await crm(['contacts', 'list', '--limit', '1', '-q'], { env: served.env() });
    expect(list.code).toBe(0);
    expect(served.server.requests(/^GET/)).toHaveLength(2);

    served.server.fault({ match: /^POST/, connection: 'close-mid-body' });
    const create = await crm(['contacts', 'create', '--name', 'Cut Short', '--email', 'cut-short@example.com'], { env: served.env() });
    expect(create.code).toBe(6);
    // Not a hang: a crm that hung would end in its timeout (or the helper's kill), not in this line.
    // The service answered, cut short: the contact was made, and the hint says so.
    expect(create.stderr).toMatch(/^crm: the response from 127\.0\.0\.1:\d+ was cut short\nhint: the service may have created it all the same: look \(for example `crm api GET \/contacts`\) before sending it again\n$/);
    expect(served.server.requests(/^POST/)).toHaveLength(1);
  });
});

describe('UTF-8 over 64 KiB from stdin', () => {
  /** The text as a pipe delivers it: 64 KiB chunks, with `é` split between the first two. */
  const piped = (before: string, after: string) => {
    const lead = Buffer.from(before, 'utf8');
    const padding = Buffer.alloc(65_535 - lead.length, ' ');
    const bytes = Buffer.concat([padding, lead, Buffer.from(`é${after}`, 'utf8')]);
    expect(bytes.subarray(65_535, 65_537).toString('utf8')).toBe('é');
    return [bytes.subarray(0, 65_536), bytes.subarray(65_536)];
  };

  it('contacts create --data - sends the name whole', async () => {
    const result = await run(['contacts', 'create', '--data', '-', '-q'], { ws, stdin: piped('{"name":"Zo', '","email":"zoe-utf8@example.com"}') });
    expect(result.code).toBe(0);
    expect(JSON.parse(ws.requests(/POST/)[0]!.body).name).toBe('Zoé');
  });

  it('api POST --input - sends the body whole', async () => {
    const result = await run(['api', 'POST', '/contacts', '--input', '-'], { ws, stdin: piped('{"name":"Zo', '","email":"zoe-api@example.com"}') });
    expect(result.code).toBe(0);
    expect(json(result).name).toBe('Zoé');
  });

  it('sequences enroll - reads every id whole', async () => {
    const sequence = ws.api('POST', '/sequences', { name: 'UTF-8 enrolment' }).data;
    await run(['sequences', 'enroll', sequence.id, '-'], { ws, stdin: piped('# ids\ncon_', 'x\n') });
    expect(JSON.parse(ws.requests(/POST/)[0]!.body).contact_ids).toEqual(['con_éx']);
  });

  it('auth login --with-key sends the key whole', async () => {
    const result = await run(['auth', 'login', '--base-url', BASE_URL, '--with-key'], { ws, env: home(), stdin: piped('key_', 'abcdefghijklmnop') });
    expect(result.code).toBe(3); // not this workspace's key: what matters is what was sent
    expect(ws.requests()[0]!.headers['x-service-api-key']).toBe('key_éabcdefghijklmnop');
  });
});

describe('Retry-After', () => {
  const tooMany = (retryAfter: string) => ({ match: /GET/, status: 429, body: answer(null, 'Too many requests.'), headers: { 'retry-after': retryAfter } });

  it.each([
    ['over an hour', '7200'],
    ['past 2^31 ms (setTimeout would fire at once)', '99999999999'],
    ['a far HTTP date', 'Fri, 01 Jan 2100 00:00:00 GMT'],
  ])('with --wait, a wait %s is never waited: exit 5 at once, saying when', async (_, retryAfter) => {
    ws.fault(tooMany(retryAfter));
    const { sleep, waits } = recordedSleep();
    const result = await run(['contacts', 'list', '--wait'], { ws, sleep });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^crm: Too many requests\. \(retry after \d{4}-\d\d-\d\dT[\d:.]+Z\)\n$/);
    expect(waits).toEqual([]);
    expect(ws.requests()).toHaveLength(1);
  });

  it('a 503 with a long Retry-After is exit 5, as a 429 is', async () => {
    ws.fault({ match: /GET/, status: 503, body: answer(null, 'Down for maintenance'), headers: { 'retry-after': '600' } });
    const result = await run(['contacts', 'list'], { ws });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^crm: Down for maintenance \(retry after 600s, at .+\)\nhint: pass --wait to wait it out\n$/);
  });
});

describe('prototype names', () => {
  const remote = () => env({ CRM_BASE_URL: 'http://crm.example.com/api/v1' });

  it.each([
    ['--set', ['--set', '__proto__.insecure=1']],
    ['--set through constructor', ['--set', 'constructor.prototype.insecure=1']],
    ['--data', ['--data', '{"__proto__": {"insecure": true}}']],
  ])('%s cannot reach Object.prototype, nor make crm send the key over plain HTTP', async (_, flags) => {
    const result = await run(['contacts', 'create', '--name', 'Proto', '--email', 'proto@example.com', ...flags], { ws, env: remote() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^crm: .*"(__proto__|constructor)" is not allowed/);
    expect(({} as Record<string, unknown>).insecure).toBeUndefined();
    expect(ws.requests()).toHaveLength(0);
  });
});

describe('auth login verifies the key with an answer that looks like the service', () => {
  it.each([
    ['a redirect', { status: 302, body: '', headers: { location: 'https://login.example.com/' } }, 1, /redirect/],
    ['an empty 200', { status: 200, body: '' }, 6, /did not answer like a CRM workspace/],
    ['both members null', { status: 200, body: answer(null) }, 6, /did not answer like a CRM workspace/],
  ])('%s saves nothing', async (_, fault, exitCode, message) => {
    const environment = home();
    ws.fault(fault);
    const result = await run(['auth', 'login', '--base-url', BASE_URL, '--with-key'], { ws, env: environment, stdin: ws.apiKey });
    expect(result.code).toBe(exitCode);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('hint: nothing was saved');
    expect(() => readFileSync(configFile(environment))).toThrow(/ENOENT/);
  });
});

describe('a 2xx without a record', () => {
  it.each([
    ['204', { status: 204, body: '' }],
    ['an empty 201', { status: 201, body: '' }],
    ['data: null', { status: 201, body: answer(null) }],
    ['a bare string', { status: 201, body: answer('created') }],
  ])('`id=$(crm contacts create -q)` never gets an empty id with exit 0 (%s)', async (_, fault) => {
    ws.fault({ match: /POST/, ...fault });
    const result = await run(['contacts', 'create', '--name', 'No Record', '--email', 'no-record@example.com', '-q'], { ws });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('crm: malformed response from the service (no contact in the answer)\n');
  });
});

describe('DELETE repeated after a failure', () => {
  const contact = () => ws.api('POST', '/contacts', { name: 'Delete Me', email: `delete-${Math.random().toString(36).slice(2)}@example.com` }).data.id as string;

  it.each([
    ['429', { status: 429 }],
    ['503', { status: 503 }],
  ])('a 404 after an answered %s means what it says (exit 4)', async (_, refusal) => {
    ws.fault({ match: /DELETE/, ...refusal });
    const result = await run(['contacts', 'delete', 'con_never_was', '--yes'], { ws });
    expect(result.code).toBe(4);
    expect(ws.requests(/DELETE/)).toHaveLength(2);
  });

  it('a 404 after an attempt that got no answer is the first attempt having deleted it (exit 0)', async () => {
    const id = contact();
    ws.api('DELETE', `/contacts/${id}`); // what the unanswered attempt did
    ws.fault({ match: /DELETE/, network: { code: 'ECONNRESET', delivered: true } });
    const result = await run(['contacts', 'delete', id, '--yes'], { ws, tty: { stderr: true } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`✓ Deleted contact ${id}\n`);
    expect(ws.requests(/DELETE/)).toHaveLength(2);
  });
});

describe('--all against a server that ignores offset', () => {
  it.each([
    ['with ids', (n: number) => ({ id: `con_${n}`, name: `Same ${n}` })],
    ['without ids', (n: number) => ({ name: `Same ${n}` })],
  ])('fails loudly (exit 1) after the records it could prove, within a few requests (%s)', async (_, item) => {
    const page = answer({ contacts: Array.from({ length: 50 }, (__, n) => item(n)) });
    ws.fault({ match: /GET/, status: 200, body: page, times: Infinity });
    const result = await run(['contacts', 'list', '--all', '-o', 'ndjson'], { ws });
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split('\n')).toHaveLength(49);
    expect(result.stderr).toMatch(/^crm: the list changed faster than crm could walk it: .*or the service ignores offset.*49 records were written, others may be missing\n/);
    // The first page, the pages that brought nothing new (FRUITLESS_PAGES, 10), and one more in flight.
    expect(ws.requests().length).toBeLessThanOrEqual(12);
  });
});

describe('a walk of many pages over HTTP', () => {
  it('adds no listener per request to kept-alive sockets (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const result = await run(['contacts', 'list', '--all', '-q'], { env: served.env() });
      expect(result.code).toBe(0);
      expect(result.stdout.trim().split('\n').length).toBeGreaterThan(550);
      expect(served.server.requests(/offset=/).length).toBeGreaterThan(10); // more than 10 pages
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.includes('MaxListeners'))).toEqual([]);
  });
});

describe('escape sequences from the service', () => {
  const hostile = { id: 'con_hostile', name: `${ESCAPES}Eve\ncrm: forged line`, email: 'eve@example.com', company: `\u009b31mAcme` };
  const plain = { NO_COLOR: '1' };

  it.each([
    ['a table on a terminal', { stdout: true, stderr: true }],
    ['tsv in a pipe', {}],
  ])('are replaced in records: %s', async (_, tty) => {
    ws.fault({ match: /GET/, status: 200, body: answer({ contacts: [hostile], total: 1 }) });
    const result = await run(['contacts', 'list'], { ws, env: env(plain), tty });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Eve');
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stdout.split('\n').filter((line) => line.startsWith('crm:'))).toEqual([]);
  });

  it('are replaced in one record, every field as key<TAB>value', async () => {
    ws.fault({ match: /GET/, status: 200, body: answer(hostile) });
    const result = await run(['contacts', 'get', 'con_hostile'], { ws });
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stdout.split('\n')).toHaveLength(5);
  });

  it('are replaced in the --debug trace', async () => {
    ws.fault({ match: /GET/, status: 502, body: `<html>${ESCAPES}Bad gateway</html>` });
    const result = await run(['contacts', 'list', '--limit', '1', '--debug'], { ws });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Bad gateway');
    expect(result.stderr).not.toMatch(CONTROL);
  });

  it('are replaced in a warning', async () => {
    ws.fault({ match: /GET/, status: 403, body: answer(null, `${ESCAPES}scope missing`) });
    const result = await run(['auth', 'login', '--base-url', BASE_URL, '--with-key'], { ws, env: home(), stdin: ws.apiKey });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('scope missing');
    expect(result.stderr).not.toMatch(CONTROL);
  });

  it("are replaced in a prompt's question and choices", async () => {
    const deal = ws.api('POST', '/deals', { name: 'Hostile Deal' }).data;
    ws.fault({ match: /GET \/api\/v1\/pipeline\/stages/, status: 200, body: answer({ stages: [{ id: 'closed_won', name: `${ESCAPES}Won` }, { id: 'closed_lost', name: 'Lost\u0007' }] }) });
    ws.fault({ match: /GET \/api\/v1\/deals\//, status: 200, body: answer({ id: deal.id, name: `${ESCAPES}Hostile`, stage: 'closed_won' }) });
    const shown: string[] = [];
    const prompter: Prompter = {
      input: async () => '',
      password: async () => '',
      confirm: async () => false,
      checkbox: async () => [],
      search: async () => '',
      async select(message: string, choices: Choice[]) {
        shown.push(message, ...choices.flatMap((choice) => [choice.name ?? choice.value, choice.description ?? '']));
        return 'closed_lost';
      },
    };
    const result = await run(['deals', 'stage', deal.id], { ws, tty: { stdin: true, stdout: true, stderr: true }, prompter });
    expect(result.code).toBe(0);
    expect(shown.join('\n')).toContain('Hostile');
    expect(shown.join('')).not.toMatch(CONTROL);
  });

  it('are replaced in a dry run plan', async () => {
    const result = await run(['contacts', 'create', '--name', `${ESCAPES}Mallory`, '--email', 'mallory@example.com', '--dry-run'], { ws });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Mallory');
    expect(result.stdout).not.toMatch(CONTROL);
    expect(ws.requests()).toHaveLength(0);
  });
});

describe('low', () => {
  it.each([
    ['/contacts/a b', '/api/v1/contacts/a%20b'],
    ['/contacts/é', '/api/v1/contacts/%C3%A9'],
  ])('crm api GET %j is percent-encoded', async (path, sent) => {
    const result = await run(['api', 'GET', path], { ws });
    expect(result.code).toBe(4);
    expect(ws.requests()[0]!.url).toBe(sent);
  });

  it('http://[::ffff:127.0.0.1] is this machine; *.localhost is not trusted unresolved', async () => {
    const mapped = await run(['contacts', 'list', '--limit', '1', '-q'], { ws, env: env({ CRM_BASE_URL: 'http://[::ffff:127.0.0.1]:9/api/v1' }) });
    expect(mapped.code).toBe(0);
    const named = await run(['contacts', 'list'], { ws, env: env({ CRM_BASE_URL: 'http://evil.localhost/api/v1' }) });
    expect(named.code).toBe(2);
    expect(named.stderr.split('\n')[0]).toBe('crm: refusing to send the API key over plain HTTP to evil.localhost');
  });

  it('the config directory is made owner-only (0700), also when it existed wider, and the file 0600', async () => {
    const environment = home();
    const dir = join(environment.XDG_CONFIG_HOME!, 'crm');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o755);
    const result = await run(['auth', 'login', '--base-url', BASE_URL, '--with-key'], { ws, env: environment, stdin: ws.apiKey });
    expect(result.code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(configFile(environment)).mode & 0o777).toBe(0o600);
  });

  it.skipIf(process.platform === 'win32')('every file crm writes, and its directory, is owner-only', async () => {
    const environment = home();
    // The embedded sandbox (database, WAL, the notice marker), then a stored profile.
    expect((await run(['contacts', 'create', '--name', 'Modes', '--email', 'modes@example.com'], { env: environment, tty: { stderr: true } })).code).toBe(0);
    expect((await run(['auth', 'login', '--base-url', BASE_URL, '--with-key'], { ws, env: environment, stdin: ws.apiKey })).code).toBe(0);
    const modes = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        const mode = (statSync(path).mode & 0o777).toString(8);
        return [`${path.slice(environment.HOME!.length)} ${mode}`, ...(entry.isDirectory() ? modes(path) : [])];
      });
    const written = [...modes(join(environment.XDG_CONFIG_HOME!, 'crm')), ...modes(join(environment.XDG_DATA_HOME!, 'crm'))];
    expect(written.map((line) => line.split(' ')[0]!.split('/').pop())).toEqual(expect.arrayContaining(['config.json', 'sandbox.db', 'sandbox-notice-shown']));
    expect(written.filter((line) => !/ 600$/.test(line))).toEqual([]);
    expect((statSync(join(environment.XDG_CONFIG_HOME!, 'crm')).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(join(environment.XDG_DATA_HOME!, 'crm')).mode & 0o777).toString(8)).toBe('700');
  });

  it.each([
    ['piped to auth login', ['auth', 'login', '--base-url', BASE_URL, '--with-key'], {}, 'abc\ndef'],
    ['in CRM_API_KEY', ['contacts', 'list'], { CRM_API_KEY: 'sbx_test_abc\ndef' }, undefined],
    ['outside Latin-1 in CRM_API_KEY', ['contacts', 'list'], { CRM_API_KEY: 'sbx_test_€uro' }, undefined],
  ])('a key with a line break inside, or that HTTP cannot carry, is exit 2 (%s)', async (_, args, extra, stdin) => {
    const result = await run(args, { ws, env: env(extra), stdin });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^crm: (the API key contains whitespace|the API key cannot be sent: it holds a line break)/);
    expect(ws.requests()).toHaveLength(0);
  });
});
