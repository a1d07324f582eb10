// crm api as gh api (issue 22, point 6): the method may be left out (GET, POST when fields are
// given), -X names it, -H adds headers (never the key's), -i prints the status line and headers.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/registry/demo.js';
import { json, run, useWorkspace, type Workspace } from '../helpers/inprocess.js';

const ws = useWorkspace();
const sent = () => ws.requests().map((request) => `${request.method} ${request.url}`);

describe('crm api: the method', () => {
  it('is GET when only a path is given', async () => {
    const result = await run(['api', `/contacts/${DEMO.contact}`], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ id: DEMO.contact });
    expect(sent()).toEqual([`GET /api/v1/contacts/${DEMO.contact}`]);
  });

  it('is POST when fields or --input are given, with the fields as the body', async () => {
    const result = await run(['api', '/contacts', '-f', 'name=Posted', '-f', 'email=posted@example.com'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ name: 'Posted' });
    expect(sent()).toEqual(['POST /api/v1/contacts']);
    expect(JSON.parse(ws.requests()[0]!.body)).toEqual({ name: 'Posted', email: 'posted@example.com' });
  });

  it('is GET with --paginate, whose fields are the query', async () => {
    const result = await run(['api', '/contacts', '-f', 'status=customer', '--paginate'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(sent().every((request) => request.startsWith('GET /api/v1/contacts?status=customer'))).toBe(true);
  });

  it('--paginate of an endpoint that answers one record (a get, /analytics) is exit 2, nothing sent: it printed an array of the record (a sequence\'s steps, a contact\'s list_ids: [])', async () => {
    for (const path of [`/contacts/${DEMO.contact}`, `/api/v1/sequences/${DEMO.sequence}`, 'analytics']) {
      const result = await run(['api', path, '--paginate'], { ws });
      expect(result.code, `${path}: ${result.stdout}`).toBe(2);
      expect(result.stderr).toMatch(/^crm: --paginate walks a list: GET \/(contacts\/\{id\}|sequences\/\{id\}|analytics) answers one record\nhint: leave out --paginate\n$/);
    }
    expect(sent()).toEqual([]);
    // A list, and a path crm does not know (a workspace's own), are walked as before.
    const notes = await run(['api', `/contacts/${DEMO.contact}/notes`, '--paginate'], { ws });
    expect(notes.code, notes.stderr).toBe(0);
    expect(Array.isArray(json(notes))).toBe(true);
  });

  it('--input or --raw with --paginate is exit 2, nothing sent: the body and the envelope were left out unsaid', async () => {
    for (const [flags, message] of [
      [['--input', '-'], 'crm: --input and --paginate cannot be used together'],
      [['--raw'], 'crm: --raw and --paginate cannot be used together'],
    ] as const) {
      const result = await run(['api', '/contacts', '--paginate', ...flags], { ws, stdin: '{"status": "lead"}' });
      expect(result.code, flags.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(message);
    }
    expect(ws.requests()).toEqual([]);
  });

  it('--paginate starts at an offset given once as a whole number, as --offset is read; another is exit 2, nothing sent: it sent offset=NaN, -3 or 1.5', async () => {
    for (const [argv, message] of [
      [['/contacts?offset=abc'], 'crm: invalid offset "abc" (expected an integer >= 0)'],
      [['/contacts', '-f', 'offset=-3'], 'crm: invalid offset "-3" (expected an integer >= 0)'],
      [['/contacts', '-F', 'offset=1.5'], 'crm: invalid offset "1.5" (expected an integer >= 0)'],
      [['/contacts?offset=1&offset=2'], 'crm: offset is given twice: --paginate starts at one'],
    ] as const) {
      const result = await run(['api', ...argv, '--paginate', '--dry-run'], { ws });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(message);
    }
    expect(ws.requests()).toEqual([]);
    const started = await run(['api', '/contacts?offset=48', '--paginate', '-q'], { ws });
    expect(started.code, started.stderr).toBe(0);
    expect(sent()[0]).toBe('GET /api/v1/contacts?limit=50&offset=48');
  });

  it('-X names it (in any case), as a first argument does; both must agree', async () => {
    const result = await run(['api', '-X', 'get', '/contacts', '-f', 'limit=1'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(sent()).toEqual(['GET /api/v1/contacts?limit=1']);
    const same = await run(['api', 'GET', '/contacts', '-X', 'GET', '-f', 'limit=1'], { ws });
    expect(same.code, same.stderr).toBe(0);

    const before = ws.requests().length;
    for (const [argv, message] of [
      [['api', 'PATCH', '/contacts', '-X', 'GET'], 'crm: the method is given twice: PATCH and -X GET'],
      [['api', '-X', 'FETCH', '/contacts'], 'crm: invalid --method "FETCH" (expected one of: GET, POST, PATCH, PUT, DELETE)'],
      [['api', 'DELETE'], 'crm: crm api DELETE: the path is missing'],
    ] as const) {
      const refused = await run([...argv], { ws });
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stderr.split('\n')[0]).toBe(message);
    }
    expect(ws.requests()).toHaveLength(before);
  });
});

describe('crm api -H', () => {
  it('sends the header, in place of crm\'s own of the same name; on every page of --paginate', async () => {
    const result = await run(['api', '/contacts', '-f', 'limit=1', '-X', 'GET', '-H', 'X-Request-Source: nightly job', '-H', 'accept: application/json; q=1'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const [request] = ws.requests();
    expect(request!.headers).toMatchObject({ 'x-request-source': 'nightly job', accept: 'application/json; q=1', 'x-service-api-key': ws.apiKey });
    expect(Object.keys(request!.headers).filter((name) => name === 'accept')).toHaveLength(1);

    for (let at = 0; at < 55; at++) ws.api('POST', '/accounts', { name: `Header Co ${at}` });
    const walk = await run(['api', '/accounts', '--paginate', '-H', 'X-Request-Source: walk'], { ws });
    expect(walk.code, walk.stderr).toBe(0);
    const pages = ws.requests(/^GET \/api\/v1\/accounts/);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.every((page) => page.headers['x-request-source'] === 'walk')).toBe(true);
  });

  it('Content-Type: crm sends application/json with every body; -H \'Content-Type: text/plain\' is sent in its place, once, and the sandbox reads the JSON all the same (docs/api-assumptions.md)', async () => {
    // The headers as crm hands them to the transport, names in crm's own case: one Content-Type, not two of different case.
    const sent: Array<{ line: string; body: string; types: string[] }> = [];
    const recording: Workspace['transport'] = (request) => {
      const types = Object.entries(request.headers).filter(([name]) => name.toLowerCase() === 'content-type').map(([, value]) => value);
      sent.push({ line: `${request.method} ${new URL(request.url).pathname}`, body: request.body ?? '', types });
      return ws.transport(request);
    };
    const recorded = { ...ws, transport: recording } as Workspace;
    for (const argv of [
      ['accounts', 'create', '--name', 'Typed Co'],
      ['api', 'POST', '/accounts', '-f', 'name=Typed Api Co'],
      ['contacts', 'update', DEMO.contact, '--company', 'Typed'],
      ['contacts', 'get', DEMO.contact],
    ]) {
      const result = await run(argv, { ws: recorded });
      expect(result.code, result.stderr).toBe(0);
    }
    expect(sent.filter((request) => request.body !== '').map((request) => [request.line, request.types])).toEqual([
      ['POST /api/v1/accounts', ['application/json']],
      ['POST /api/v1/accounts', ['application/json']],
      ['PATCH /api/v1/contacts/' + DEMO.contact, ['application/json']],
    ]);
    expect(sent.filter((request) => request.body === '').every((request) => request.types.length === 0)).toBe(true);

    sent.length = 0;
    const plain = await run(['api', 'POST', '/accounts', '-f', 'name=Plain Co', '-H', 'Content-Type: text/plain'], { ws: recorded });
    expect(plain.code, plain.stderr).toBe(0);
    expect(sent).toEqual([{ line: 'POST /api/v1/accounts', body: '{"name":"Plain Co"}', types: ['text/plain'] }]);
    expect(JSON.parse(plain.stdout)).toMatchObject({ name: 'Plain Co' });
  });

  it('sends a credential given with -H (Authorization, Proxy-Authorization, Cookie) as given, and --debug and --dry-run show it masked, as gh does: --debug printed it whole', async () => {
    const credentials = ['-H', 'Authorization: Bearer tok_s3cret_bearer', '-H', 'Proxy-Authorization: Basic cHJveHk6czNjcmV0', '-H', 'Cookie: sid=c00kie_s3cret'];
    const traced = await run(['api', '/contacts', '-f', 'limit=1', '-X', 'GET', ...credentials, '--debug'], { ws });
    expect(traced.code, traced.stderr).toBe(0);
    const [request] = ws.requests();
    expect([request!.headers.authorization, request!.headers['proxy-authorization'], request!.headers.cookie]).toEqual(['Bearer tok_s3cret_bearer', 'Basic cHJveHk6czNjcmV0', 'sid=c00kie_s3cret']);
    const planned = await run(['api', '/contacts', '-f', 'name=Dry', ...credentials, '--dry-run'], { ws });
    expect(planned.code, planned.stderr).toBe(0);
    expect(json(planned)[0].headers).toMatchObject({ Authorization: '****', 'Proxy-Authorization': '****', Cookie: '****' });
    for (const output of [traced.stderr, traced.stdout, planned.stdout, planned.stderr]) expect(output).not.toMatch(/s3cret|cHJveHk6czNjcmV0/);
    expect(traced.stderr).toMatch(/^> Authorization: \*\*\*\*$/m);
    expect(ws.requests()).toHaveLength(1);
    // A cookie the service sets is traced masked too; -i, asked for the headers, prints them as received.
    ws.fault({ status: 200, body: '{"data": {"id": "x"}, "error": null}', headers: { 'content-type': 'application/json', 'set-cookie': 'session=s3cret_set' }, times: 2 });
    const answered = await run(['api', '/contacts/x', '--debug'], { ws });
    expect(answered.stderr).toMatch(/^< set-cookie: \*\*\*\*$/m);
    expect(answered.stderr).not.toMatch(/s3cret/);
    expect((await run(['api', '-i', '/contacts/x'], { ws })).stdout).toContain('set-cookie: session=s3cret_set');
  });

  it('never sets the key header, nor framing ones; a malformed header is exit 2; nothing is sent', async () => {
    for (const [header, message] of [
      ['X-Service-API-Key: stolen', "crm: -H cannot set X-Service-API-Key: the key is the profile's"],
      ['x-service-api-key:stolen', "crm: -H cannot set X-Service-API-Key: the key is the profile's"],
      ['Host: elsewhere.example', 'crm: -H cannot set Host: crm sets it from what it sends'],
      ['Content-Length: 5', 'crm: -H cannot set Content-Length: crm sets it from what it sends'],
      ['no colon here', 'crm: invalid -H "no colon here" (expected "Name: value")'],
      ['Bad Name: x', 'crm: invalid -H "Bad Name: x" (expected "Name: value")'],
      ['X-Split: a\r\nX-Injected: b', 'crm: -H X-Split: the value holds a line break or a control character'],
    ]) {
      for (const extra of [[], ['--dry-run']]) {
        const result = await run(['api', '/contacts', '-H', header!, ...extra], { ws });
        expect(result.code, header).toBe(2);
        expect(result.stderr.split('\n')[0]).toBe(message);
        expect(result.stdout).toBe('');
      }
    }
    expect(ws.requests()).toEqual([]);
  });
});

describe('crm api PATH: the path stays under the base URL', () => {
  it('refuses . and .. segments in every spelling a server may decode (.%2e, %2e., %2E%2e): exit 2, nothing sent', async () => {
    for (const path of ['/contacts/../admin', '/contacts/./x', '/%2e%2e/admin', '/contacts/.%2e/.%2e/admin', '/contacts/%2e./admin', '/contacts/%2E%2e', '/contacts/%2e', 'contacts/.%2E']) {
      for (const extra of [[], ['--dry-run']]) {
        const result = await run(['api', path, ...extra], { ws });
        expect(result.code, path).toBe(2);
        expect(result.stderr.split('\n')[0]).toBe(`crm: invalid path "${path}" (no . or .. segments)`);
      }
    }
    expect(ws.requests()).toEqual([]);
  });

  it('refuses a .. behind an encoded slash or backslash (..%2F, %2e%2e%5C, ..\\), which a server that decodes %2F, or takes \\ for /, steps up with: exit 2, nothing sent', async () => {
    for (const path of ['/contacts/..%2F..%2Fadmin', '/contacts/x%2f%2e%2e', '/contacts/%2e%2e%5Cadmin', '/contacts/..\\admin', '/contacts/a%2F.%2Fb']) {
      const result = await run(['api', path, '--dry-run'], { ws });
      expect(result.code, path).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(`crm: invalid path "${path}" (no . or .. segments)`);
    }
    expect(ws.requests()).toEqual([]);
    // An encoded slash among other characters is an id's own: sent as it is.
    const kept = await run(['api', '/contacts/a%2Fb..c', '--dry-run'], { ws });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain('/api/v1/contacts/a%2Fb..c');
  });

  it('keeps segments that only hold dots among other characters', async () => {
    const result = await run(['api', '/contacts/..x', '--dry-run'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('/api/v1/contacts/..x');
  });
});

describe('crm api: the query string', () => {
  it("sends -F's false and null (as false and empty), as gh api does: they were left out, and -F overdue=false listed every task", async () => {
    const result = await run(['api', '/tasks', '-X', 'GET', '-F', 'overdue=false', '-F', 'deal_id=null', '-F', 'limit=50'], { ws });
    expect(sent()).toEqual(['GET /api/v1/tasks?overdue=false&deal_id=&limit=50']);
    expect(result.code, result.stderr).toBe(0);
    expect(json(result).tasks.length).toBeGreaterThan(0);
  });

  it("keeps PATH's query string as written, a name given twice sent twice, and adds the fields after it (DELETE too)", async () => {
    for (const [argv, url] of [
      [['api', '/search?q=globex&types=contacts&types=deals'], '/api/v1/search?q=globex&types=contacts&types=deals'],
      [['api', '/search?q=globex&types=contacts', '-X', 'GET', '-f', 'types=deals', '-F', 'limit=5'], '/api/v1/search?q=globex&types=contacts&types=deals&limit=5'],
      [['api', '/contacts?__proto__=x&constructor=y&limit=1'], '/api/v1/contacts?__proto__=x&constructor=y&limit=1'],
      [['api', 'DELETE', '/tasks/task_none?hard=1', '-F', 'hard=true'], '/api/v1/tasks/task_none?hard=1&hard=true'],
    ] as const) {
      const before = ws.requests().length;
      await run([...argv], { ws });
      expect(ws.requests().slice(before).map((request) => request.url), argv.join(' ')).toEqual([url]);
    }
  });

  it('with --paginate, the filters PATH repeats are on every page', async () => {
    const result = await run(['api', '/search?q=a&types=contacts&types=deals', '--paginate', '-q'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(ws.requests().every((request) => request.url.startsWith('/api/v1/search?q=a&types=contacts&types=deals&limit='))).toBe(true);
  });
});

describe('crm api -i', () => {
  it('prints the status line and the headers, an empty line, then the body (in every format, --jq included)', async () => {
    ws.fault({ match: /^GET \/api\/v1\/contacts\//, status: 200, headers: { 'x-ratelimit-remaining': '59' }, body: JSON.stringify({ data: { id: 'con_i', email: 'i@example.com' }, error: null }) });
    const result = await run(['api', '-i', '/contacts/con_i'], { ws });
    expect(result.code, result.stderr).toBe(0);
    const [head, body] = result.stdout.split('\n\n');
    expect(head!.split('\n')).toEqual(['HTTP/1.1 200 OK', 'content-type: application/json', 'x-ratelimit-remaining: 59']);
    expect(JSON.parse(body!)).toEqual({ id: 'con_i', email: 'i@example.com' });

    ws.fault({ match: /^GET \/api\/v1\/contacts\//, status: 200, headers: { 'x-ratelimit-remaining': '58' }, body: JSON.stringify({ data: { id: 'con_i', email: 'i@example.com' }, error: null }) });
    const filtered = await run(['api', '-i', '/contacts/con_i', '--jq', '.email'], { ws });
    expect(filtered.stdout).toBe('HTTP/1.1 200 OK\ncontent-type: application/json\nx-ratelimit-remaining: 58\n\ni@example.com\n');
  });

  it('never prints the key, even when the service echoes it in a header; a terminal gets no control characters', async () => {
    ws.fault({ match: /^GET/, status: 200, headers: { 'x-echo': `key=${ws.apiKey}`, 'x-note': 'a\u001b]0;owned\u0007b' }, body: JSON.stringify({ data: [], error: null }) });
    const result = await run(['api', '-i', '/contacts'], { ws, tty: { stdout: true, stderr: true } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(ws.apiKey);
    expect(result.stdout).toMatch(/^x-echo: key=\S*\n/m);
    expect(result.stdout).not.toMatch(/\u001b\]|\u0007/);
    expect(result.stdout).not.toMatch(/X-Service-API-Key/i);
  });

  it('an answer with no data (204, data null) prints nothing but the head, as gh api does', async () => {
    for (const answer of [{ status: 204, body: '' }, { status: 200, body: '{"data": null, "error": null}' }]) {
      ws.fault({ match: /^DELETE \/api\/v1\/contacts\//, ...answer });
      const result = await run(['api', '-X', 'DELETE', '/contacts/con_gone', '--json'], { ws });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      ws.fault({ match: /^DELETE \/api\/v1\/contacts\//, ...answer });
      const head = await run(['api', '-i', '-X', 'DELETE', '/contacts/con_gone'], { ws });
      expect(head.stdout).toMatch(new RegExp(`^HTTP/1.1 ${answer.status} [^\n]*\ncontent-type: application/json\n\n$`));
    }
  });

  it('with --paginate is exit 2, nothing sent', async () => {
    const result = await run(['api', '-i', '/contacts', '--paginate'], { ws });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('crm: -i and --paginate cannot be used together');
    expect(ws.requests()).toEqual([]);
  });
});

describe('crm api: a path the service has no endpoint for', () => {
  it('its 404 says which endpoint it most likely meant, the ids given kept; a known path (a record not found) and one near nothing have no hint', async () => {
    for (const [argv, meant] of [
      [['api', '/contact'], '/contacts'],
      [['api', `/contacts/${DEMO.contact}/note`], `/contacts/${DEMO.contact}/notes`],
      [['api', '-X', 'POST', `/contacts/${DEMO.contact}/sequence`, '-f', `sequence_id=${DEMO.sequence}`], `/contacts/${DEMO.contact}/sequences`],
      [['api', '/pipeline/stage'], '/pipeline/stages'],
    ] as const) {
      const result = await run([...argv], { ws });
      expect(result.code, argv.join(' ')).toBe(4);
      const path = argv.find((arg) => arg.startsWith('/'))!;
      expect(result.stderr.split('\n')[1], argv.join(' ')).toBe(`hint: no endpoint ${path} in the service's API: did you mean ${meant}?`);
    }
    const missing = await run(['api', '/contacts/con_missing'], { ws });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toBe('crm: Contact not found\n');
    const nowhere = await run(['api', '/nothing/here'], { ws });
    expect(nowhere.code).toBe(4);
    expect(nowhere.stderr).toBe('crm: Not found: GET /api/v1/nothing/here\n');
  });
});
