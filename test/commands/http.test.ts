// The shared HTTP core seen through the commands, in-process: exit codes, retries, tolerance of
// other workspaces' shapes, debug trace, dry run and the headers sent. The transport injects the
// faults; what only a real socket or process shows is in test/e2e/http.test.ts.
import { describe, expect, it } from 'vitest';
import { BASE_URL, homeEnv, json, recordedSleep, run, useWorkspace } from '../helpers/inprocess.js';
import { VERSION } from '../../src/cli/version.js';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ws = useWorkspace();
const env = () => ({ ...homeEnv(mkdtempSync(join(tmpdir(), 'crm-home-'))), CRM_BASE_URL: BASE_URL, CRM_API_KEY: ws.apiKey });

describe('exit codes', () => {
  it('3: a rejected key, with the service message and a hint naming CRM_API_KEY when the key came from it (crm auth login would not change it)', async () => {
    const result = await run(['contacts', 'list'], { ws, env: { ...env(), CRM_API_KEY: 'sbx_test_wrong' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe("crm: Invalid or revoked API key\nhint: the key is CRM_API_KEY's: check it, or unset it to use the profile's (`crm auth status` says which key is sent)\n");
  });

  it("3: a rejected key of the profile, with a hint to check it or log in again", async () => {
    const home = mkdtempSync(join(tmpdir(), 'crm-home-'));
    // Owner-only, as crm writes it (a file others can read is warned about).
    mkdirSync(join(home, '.config', 'crm'), { recursive: true, mode: 0o700 });
    writeFileSync(join(home, '.config', 'crm', 'config.json'), JSON.stringify({ active_profile: 'default', profiles: { default: { base_url: BASE_URL, api_key: 'sbx_test_revoked' } } }), { mode: 0o600 });
    const result = await run(['contacts', 'list'], { ws, env: homeEnv(home) });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('crm: Invalid or revoked API key\nhint: check the key with `crm auth status`, or run `crm auth login`\n');
  });

  it('3: no key anywhere, with a hint to log in, and nothing sent', async () => {
    const result = await run(['contacts', 'list'], { ws, env: { ...env(), CRM_API_KEY: '' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('crm: no API key configured\nhint: run `crm auth login`, or set CRM_API_KEY\n');
    expect(ws.requests()).toHaveLength(0);
  });

  it('--json also prints the error object on stderr', async () => {
    const result = await run(['contacts', 'get', 'con_nope', '--json'], { ws });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    const [line, object] = result.stderr.trim().split('\n');
    expect(line).toBe('crm: contact con_nope not found');
    expect(JSON.parse(object!)).toEqual({ error: { message: 'contact con_nope not found', status: 404, code: 'http_404', exit_code: 4 } });
  });

  it('--json prints the error object for usage errors too', async () => {
    const result = await run(['contacts', 'list', '--limit', '0', '--json'], { ws });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { exit_code: 2, code: 'usage' } });
    const commander = await run(['contacts', 'list', '--nope', '--json'], { ws });
    expect(commander.code).toBe(2);
    expect(JSON.parse(commander.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { exit_code: 2 } });
  });

  it('5: a long Retry-After is not waited out in a script', async () => {
    ws.fault({ match: /POST \/api\/v1\/ai\/trigger/, status: 429, body: JSON.stringify({ data: null, error: 'Too many requests. Try again in a minute.' }), headers: { 'retry-after': '60' } });
    const { sleep, waits } = recordedSleep();
    const result = await run(['ai', 'trigger', 'con_any'], { ws, sleep });
    expect(result.code).toBe(5);
    expect(waits).toEqual([]);
    expect(result.stderr).toMatch(/^crm: Too many requests\. Try again in a minute\. \(retry after 60s, at \d{4}-\d{2}-\d{2}T[\d:.]+Z\)\nhint: pass --wait to wait it out\n$/);
    expect(ws.requests()).toHaveLength(1);
  });

  it('a short Retry-After is waited out, even for a POST', async () => {
    ws.fault({ match: /POST/, status: 429, body: JSON.stringify({ data: null, error: 'slow down' }), headers: { 'retry-after': '1' } });
    const { sleep, waits } = recordedSleep();
    const result = await run(['contacts', 'create', '--name', 'Retry After', '--email', 'retry-after@example.com', '-q'], { ws, sleep });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^con_/);
    expect(ws.requests()).toHaveLength(2);
    expect(waits).toEqual([1000]);
  });

  it('--wait waits out a long Retry-After in a script, saying so on stderr once', async () => {
    ws.fault({ match: /GET/, status: 429, body: JSON.stringify({ data: null, error: 'Too many requests.' }), headers: { 'retry-after': '11' } });
    const { sleep, waits } = recordedSleep();
    const result = await run(['contacts', 'list', '--limit', '1', '-q', '--wait'], { ws, sleep });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^con_\w+\n$/);
    expect(result.stderr).toBe('Too many requests. Retrying in 11s\n');
    expect(waits).toEqual([11_000]);
    expect(ws.requests()).toHaveLength(2);
  });

  it('a long Retry-After counts down on a terminal, every second, then retries', async () => {
    const contact = ws.api('GET', '/contacts?limit=1').data.contacts[0];
    ws.fault({ match: /POST \/api\/v1\/ai\/trigger/, status: 429, body: JSON.stringify({ data: null, error: 'Too many requests. Try again in a minute.' }), headers: { 'retry-after': '11' } });
    const { sleep, waits } = recordedSleep();
    const result = await run(['ai', 'trigger', contact.id], { ws, sleep, tty: { stdin: true, stdout: true, stderr: true } });
    expect(result.code, result.stderr).toBe(0);
    const frames = result.stderr.split('\r\x1b[2K');
    const countdown = Array.from({ length: 11 }, (_, index) => `Too many requests. Try again in a minute. Retrying in ${11 - index}s (Ctrl-C to stop)`);
    expect(frames.filter((frame) => frame.includes('Retrying'))).toEqual(countdown);
    expect(waits).toEqual(countdown.map(() => 1000));
    expect(result.stdout).toMatch(/scored \d+\/100/);
    expect(ws.requests(/POST/)).toHaveLength(2);
  });

  it('6: a malformed response', async () => {
    ws.fault({ status: 200, body: '<html>maintenance</html>', headers: { 'content-type': 'text/html' } });
    const result = await run(['contacts', 'get', 'con_1'], { ws });
    expect(result.code).toBe(6);
    expect(result.stderr).toBe('crm: malformed response from the service (HTTP 200, not JSON)\n');
  });

  it('7: a bulk command where some items failed', async () => {
    const task = ws.api('POST', '/tasks', { title: 'Partial one' }).data;
    const result = await run(['tasks', 'complete', task.id, 'task_missing'], { ws });
    expect(result.code).toBe(7);
    expect(result.stdout).toBe(`${task.id}\tcompleted\tPartial one\t\ntask_missing\tnot_found\t\ttask task_missing not found\n`);
    expect(result.stderr).toBe('crm: 1 of 2 failed: task_missing\nhint: the report lists each task; completing one again is harmless\n');
  });
});

describe('retries', () => {
  it('a GET is retried on 503 and succeeds', async () => {
    ws.fault({ match: /GET/, status: 503, times: 2 });
    const result = await run(['contacts', 'list', '--limit', '1', '-q'], { ws });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^con_/);
    expect(ws.requests()).toHaveLength(3);
  });

  it('a GET retried after a dropped connection succeeds', async () => {
    ws.fault({ match: /GET/, network: { code: 'ECONNRESET', delivered: true } });
    const result = await run(['contacts', 'list', '--limit', '1', '-q'], { ws });
    expect(result.code).toBe(0);
    expect(ws.requests()).toHaveLength(2);
  });

  it('a GET gives up after 3 retries', async () => {
    ws.fault({ match: /GET/, status: 502, times: 4 });
    const result = await run(['contacts', 'list'], { ws });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('crm: injected 502\n');
    expect(ws.requests()).toHaveLength(4);
  });

  it('a POST is never repeated after a 503', async () => {
    ws.fault({ match: /POST/, status: 503 });
    const result = await run(['contacts', 'create', '--name', 'Once', '--email', 'once@example.com'], { ws });
    expect(result.code).toBe(1);
    expect(ws.requests()).toHaveLength(1);
  });
});

describe('other workspaces', () => {
  it('reads an error member that is an object', async () => {
    ws.fault({ status: 422, body: JSON.stringify({ data: null, error: { message: 'Plan limit reached', code: 'plan_limit' } }) });
    const result = await run(['contacts', 'create', '--name', 'A', '--email', 'a@example.com', '--json'], { ws });
    expect(result.code).toBe(1);
    const [line, object] = result.stderr.trim().split('\n');
    expect(line).toBe('crm: Plan limit reached');
    expect(JSON.parse(object!).error).toMatchObject({ code: 'plan_limit', status: 422, exit_code: 1 });
  });

  it.each([
    ['a bare array', [{ id: 'x1', name: 'Bare' }]],
    ['another array key', { items: [{ id: 'x1', name: 'Bare' }], total: 1 }],
    ['no envelope at all', { data: [{ id: 'x1', name: 'Bare' }], error: null }],
  ])('reads a list given as %s', async (_, body) => {
    ws.fault({ status: 200, body: JSON.stringify(body) });
    const result = await run(['contacts', 'list', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toEqual([{ id: 'x1', name: 'Bare' }]);
  });

  it('a list of one page prints at most --limit records when the service sends more (it ignores limit), and the next --offset follows on', async () => {
    const records = Array.from({ length: 30 }, (_, n) => ({ id: `con_many${n}`, name: `Many ${n}` }));
    ws.fault({ status: 200, body: JSON.stringify({ data: { contacts: records, total: 30 }, error: null }), times: 2 });
    const result = await run(['contacts', 'list', '--limit', '5', '--json'], { ws });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toEqual(records.slice(0, 5));
    const table = await run(['contacts', 'list', '--limit', '5'], { ws, tty: { stdout: true, stderr: true, columns: 120 } });
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(6);
    expect(table.stderr).toMatch(/^Showing 1-5 of 30 contacts; more with --offset 5, or --all\.$/m);
  });

  it('reads a total sent as a string of digits (a SQL count that a driver gives as text): the footer counts it, and a walk of short pages goes on to it', async () => {
    const records = Array.from({ length: 30 }, (_, n) => ({ id: `con_text${n}`, name: `Text ${n}` }));
    ws.fault({ status: 200, body: JSON.stringify({ data: { contacts: records.slice(0, 5), total: '30' }, error: null }) });
    const table = await run(['contacts', 'list', '--limit', '5'], { ws, tty: { stdout: true, stderr: true, columns: 120 } });
    expect(table.stderr).toMatch(/^Showing 1-5 of 30 contacts; more with --offset 5, or --all\.$/m);
    ws.fault({ match: /offset=0/, status: 200, body: JSON.stringify({ data: { contacts: records.slice(0, 20), total: '30' }, error: null }) });
    ws.fault({ match: /offset=19/, status: 200, body: JSON.stringify({ data: { contacts: records.slice(19), total: '30' }, error: null }) });
    const all = await run(['contacts', 'list', '--all', '--json'], { ws });
    expect(all.code, all.stderr).toBe(0);
    expect(json(all)).toEqual(records);
  });

  it.each([['-3'], ['2.5'], ['1e400']])('reads a total of %s as no total: the footer said "of -3" (or 2.5, or Infinity)', async (total) => {
    const records = Array.from({ length: 5 }, (_, n) => ({ id: `con_odd${n}`, name: `Odd ${n}` }));
    ws.fault({ status: 200, body: `{"data": {"contacts": ${JSON.stringify(records)}, "total": ${total}}, "error": null}` });
    const table = await run(['contacts', 'list', '--limit', '5'], { ws, tty: { stdout: true, stderr: true, columns: 120 } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stderr).toMatch(/^Showing 1-5 contacts; more with --offset 5, or --all\.$/m);
  });

  it('a body nested deeper than 500 levels is a malformed response (exit 6, one line): it was "crm: Maximum call stack size exceeded", exit 1', async () => {
    const deep = (depth: number) => `{"data": {"id": "con_deep", "name": "Deep", "nested": ${'['.repeat(depth)}${']'.repeat(depth)}}, "error": null}`;
    for (const format of [[], ['--json'], ['-o', 'csv']]) {
      ws.fault({ match: /con_deep/, status: 200, body: deep(5_000), times: Infinity });
      const result = await run(['contacts', 'get', 'con_deep', ...format], { ws });
      ws.verifyFaults();
      expect(result.code, result.stderr).toBe(6);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^crm: malformed response from the service \(HTTP 200, JSON nested deeper than 503 levels\)\n/);
    }
    // 503 levels, the envelope's and the record's included (a record of 500 in a list's answer), are read and printed; 504 are not.
    ws.fault({ status: 200, body: deep(501) });
    const fine = await run(['contacts', 'get', 'con_deep', '--json'], { ws });
    expect(fine.code, fine.stderr).toBe(0);
    expect(JSON.parse(fine.stdout).name).toBe('Deep');
    ws.fault({ status: 200, body: deep(502) });
    expect((await run(['contacts', 'get', 'con_deep', '--json'], { ws })).code).toBe(6);
  });

  it('-q says on stderr how many records it printed no id for (a workspace that spells it ID or uuid), rather than printing nothing and nothing said', async () => {
    ws.fault({ status: 200, body: JSON.stringify([{ ID: 'u1', name: 'Upper' }, { id: 'x2', name: 'Lower' }, { ID: 'u3', name: 'Upper' }]) });
    const result = await run(['contacts', 'list', '-q'], { ws });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('x2\n');
    expect(result.stderr).toBe('crm: warning: 2 records have no id; -q printed nothing for them (--json shows them whole)\n');
  });

  it('-q of a create whose answer has no id (a workspace that wraps it, {"deal": {...}}) says so on stderr, rather than printing nothing and nothing said', async () => {
    ws.fault({ match: /^POST \/api\/v1\/deals/, status: 201, body: JSON.stringify({ data: { deal: { id: 'deal_wrapped', name: 'Wrapped' } }, error: null }) });
    const result = await run(['deals', 'create', '--name', 'Wrapped', '-q'], { ws });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("crm: warning: the service's answer has no id; -q printed nothing (--json shows it whole)\n");
  });

  it('reads an error member that is a flag, with the message beside it ({"error": true, "message": ...}), not as "true"', async () => {
    ws.fault({ status: 404, body: JSON.stringify({ data: null, error: true, message: 'No such contact', code: 'not_found' }) });
    const result = await run(['contacts', 'get', 'con_flag', '--json'], { ws });
    expect(result.code).toBe(4);
    const [line, object] = result.stderr.trim().split('\n');
    expect(line).toBe('crm: No such contact (contact con_flag)');
    expect(JSON.parse(object!).error).toMatchObject({ code: 'not_found', status: 404 });
    ws.fault({ status: 422, body: JSON.stringify({ data: null, error: true }) });
    const bare = await run(['contacts', 'create', '--name', 'A', '--email', 'flag@example.com'], { ws });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toBe('crm: HTTP 422 Unprocessable Entity\n');
  });

  it('shows a short plain-text error body (a proxy\'s or gateway\'s line), and never an HTML page', async () => {
    ws.fault({ status: 503, body: 'upstream connect error or disconnect/reset before headers', headers: { 'content-type': 'text/plain' }, times: 4 });
    const plainText = await run(['contacts', 'list'], { ws, sleep: async () => {} });
    expect(plainText.code).toBe(1);
    expect(plainText.stderr).toMatch(/^crm: upstream connect error or disconnect\/reset before headers/);
    ws.fault({ status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', headers: { 'content-type': 'text/html' }, times: 4 });
    const html = await run(['contacts', 'list'], { ws, sleep: async () => {} });
    expect(html.code).toBe(1);
    expect(html.stderr).toMatch(/^crm: HTTP 502 Bad Gateway/);
  });

  it('reads a body that starts with a UTF-8 byte order mark (JSON parsers may ignore one), and still masks a key echoed in it with escapes', async () => {
    const escaped = [...ws.apiKey].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    ws.fault({ status: 200, body: `\ufeff{"data":{"id":"con_bom","name":"Bom","note":"${escaped}"},"error":null}` });
    const result = await run(['contacts', 'get', 'con_bom', '--json'], { ws });
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({ id: 'con_bom', name: 'Bom', note: `****${ws.apiKey.slice(-4)}` });
    ws.fault({ status: 404, body: `\ufeff{"data":null,"error":"Contact not found"}` });
    const missing = await run(['contacts', 'get', 'con_gone'], { ws });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toBe('crm: contact con_gone not found\n');
  });
});

describe('debug, dry run, headers, plain HTTP', () => {
  it('--debug traces request and response on stderr with the key redacted', async () => {
    const result = await run(['contacts', 'list', '--limit', '1', '--debug'], { ws });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`> GET ${BASE_URL}/contacts?limit=1`);
    expect(result.stderr).toContain(`X-Service-API-Key: ****${ws.apiKey.slice(-4)}`);
    expect(result.stderr).toMatch(/< 200 OK \(\d+ ms\)/);
    expect(result.stderr).not.toContain(ws.apiKey);
    expect(result.stdout).toMatch(/^con_/);
  });

  it('--dry-run --debug: the answer traced for a write not sent says it is a stand-in; a look-up sent is traced as it came', async () => {
    const result = await run(['contacts', 'delete', 'con_1', '--dry-run', '--debug'], { ws });
    expect(result.code).toBe(0);
    const trace = result.stderr.split('\n');
    expect(trace[trace.findIndex((line) => /^< 200 OK/.test(line)) + 1]).toBe('< x-crm-dry-run: not sent; this answer is a stand-in');
    expect(ws.requests()).toEqual([]);
    const lookUp = await run(['contacts', 'update', 'zane.sato@globexlogistics.com', '--status', 'lead', '--dry-run', '--debug'], { ws });
    expect(lookUp.code, lookUp.stderr).toBe(0);
    expect(lookUp.stderr.match(/x-crm-dry-run/g)).toHaveLength(1);
    expect(ws.requests().map((request) => request.method)).toEqual(['GET']);
  });

  it('--dry-run prints the request and sends nothing (no confirmation needed for a delete)', async () => {
    const result = await run(['contacts', 'delete', 'con_1', '--dry-run'], { ws });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      `DELETE ${BASE_URL}/contacts/con_1`,
      'Accept: application/json',
      expect.stringMatching(/^User-Agent: crm\/\S+ node\/\S+ \w+$/),
      `X-Service-API-Key: ****${ws.apiKey.slice(-4)}`,
      '',
    ]);
    expect(ws.requests()).toHaveLength(0);
  });

  it('sends the User-Agent, Accept and key headers', async () => {
    await run(['contacts', 'list', '--limit', '1'], { ws });
    const headers = ws.requests()[0]!.headers;
    expect(headers['user-agent']).toBe(`crm/${VERSION} node/${process.versions.node} ${process.platform}`);
    expect(headers.accept).toBe('application/json');
    expect(headers['x-service-api-key']).toBe(ws.apiKey);
  });

  it('refuses to send the key over plain HTTP to a non-local host (exit 2)', async () => {
    const result = await run(['contacts', 'list'], { ws, env: { ...env(), CRM_BASE_URL: 'http://crm.example.com' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('crm: refusing to send the API key over plain HTTP to crm.example.com\nhint: use an https:// base URL, or pass --insecure if you accept the risk\n');
  });
});
