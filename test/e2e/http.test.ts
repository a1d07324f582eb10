// The shared HTTP core seen from outside: exit codes, retries, timeouts, tolerance of other
// workspaces' shapes, debug trace, dry run, and the plain-HTTP guard.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CRM_BIN, crm, freshHome, json } from '../helpers/crm.js';
import { api, useTestServer } from '../helpers/server.js';

const live = useTestServer();

describe('exit codes', () => {
  it('3: a rejected key, with the service message and a hint', async () => {
    const result = await crm(['contacts', 'list'], { env: { ...live.env, CRM_API_KEY: 'sbx_test_wrong' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('crm: Invalid or revoked API key\nhint: check the key with `crm auth status`, or run `crm auth login`\n');
  });

  it('3: no key anywhere, with a hint to log in, and nothing sent', async () => {
    const result = await crm(['contacts', 'list'], { env: { ...freshHome(), CRM_BASE_URL: live.server.url } });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('crm: no API key configured\nhint: run `crm auth login`, or set CRM_API_KEY\n');
    expect(live.server.requests()).toHaveLength(0);
  });

  it('--json also prints the error object on stderr', async () => {
    const result = await crm(['contacts', 'get', 'con_nope', '--json'], { env: live.env });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    const [line, object] = result.stderr.trim().split('\n');
    expect(line).toBe('crm: Contact not found');
    expect(JSON.parse(object!)).toEqual({ error: { message: 'Contact not found', status: 404, code: 'http_404', exit_code: 4 } });
  });

  it('--json prints the error object for usage errors too', async () => {
    const result = await crm(['contacts', 'list', '--limit', '0', '--json'], { env: live.env });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { exit_code: 2, code: 'usage' } });
    const commander = await crm(['contacts', 'list', '--nope', '--json'], { env: live.env });
    expect(commander.code).toBe(2);
    expect(JSON.parse(commander.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { exit_code: 2 } });
  });

  it('5: a long Retry-After is not waited out in a script', async () => {
    live.server.fault({ match: /POST \/api\/v1\/ai\/trigger/, status: 429, body: JSON.stringify({ data: null, error: 'Too many requests. Try again in a minute.' }), headers: { 'retry-after': '60' } });
    const started = Date.now();
    const result = await crm(['ai', 'trigger', 'con_any'], { env: live.env });
    expect(result.code).toBe(5);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.stderr).toMatch(/^crm: Too many requests\. Try again in a minute\. \(retry after 60s, at \d{4}-\d{2}-\d{2}T[\d:.]+Z\)\nhint: pass --wait to wait it out\n$/);
    expect(live.server.requests()).toHaveLength(1);
  });

  it('a short Retry-After is waited out, even for a POST', async () => {
    live.server.fault({ match: /POST/, status: 429, body: JSON.stringify({ data: null, error: 'slow down' }), headers: { 'retry-after': '1' } });
    const result = await crm(['contacts', 'create', '--name', 'Retry After', '--email', 'retry-after@example.com', '-q'], { env: live.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^con_/);
    expect(live.server.requests()).toHaveLength(2);
  });

  it('6: nothing listening (connection refused)', async () => {
    const closed = await crm(['contacts', 'list'], { env: { ...live.env, CRM_BASE_URL: 'http://127.0.0.1:9/api/v1' } });
    expect(closed.code).toBe(6);
    expect(closed.stderr).toBe('crm: could not connect to 127.0.0.1:9 (connection refused)\n');
  });

  it('6: a request that outlives --timeout (a POST is not repeated)', async () => {
    live.server.fault({ match: /POST/, delayMs: 3000 });
    const result = await crm(['contacts', 'create', '--name', 'Slow', '--email', 'slow@example.com', '--timeout', '0.5'], { env: live.env });
    expect(result.code).toBe(6);
    expect(result.stderr).toBe('crm: request timed out after 0.5s\n');
    expect(live.server.requests()).toHaveLength(1);
  });

  it('6: a malformed response', async () => {
    live.server.fault({ status: 200, body: '<html>maintenance</html>', headers: { 'content-type': 'text/html' } });
    const result = await crm(['contacts', 'get', 'con_1'], { env: live.env });
    expect(result.code).toBe(6);
    expect(result.stderr).toBe('crm: malformed response from the service (HTTP 200, not JSON)\n');
  });

  it('7: a bulk command where some items failed', async () => {
    const task = (await api(live.server, 'POST', '/tasks', { title: 'Partial one' })).data;
    const result = await crm(['tasks', 'complete', task.id, 'task_missing'], { env: live.env });
    expect(result.code).toBe(7);
    expect(result.stdout.split('\t')[0]).toBe(task.id);
    expect(result.stderr).toBe('crm: task_missing: Task not found\ncrm: 1 of 2 failed: task_missing\n');
  });
});

describe('retries', () => {
  it('a GET is retried on 503 and succeeds', async () => {
    live.server.fault({ match: /GET/, status: 503, times: 2 });
    const result = await crm(['contacts', 'list', '--limit', '1', '-q'], { env: live.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^con_/);
    expect(live.server.requests()).toHaveLength(3);
  });

  it('a GET gives up after 3 retries', async () => {
    live.server.fault({ match: /GET/, status: 502, times: 4 });
    const result = await crm(['contacts', 'list'], { env: live.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('crm: injected 502\n');
    expect(live.server.requests()).toHaveLength(4);
  });

  it('a POST is never repeated after a 503', async () => {
    live.server.fault({ match: /POST/, status: 503 });
    const result = await crm(['contacts', 'create', '--name', 'Once', '--email', 'once@example.com'], { env: live.env });
    expect(result.code).toBe(1);
    expect(live.server.requests()).toHaveLength(1);
  });

  it('a dropped connection on a GET is retried', async () => {
    live.server.fault({ match: /GET/, destroy: true });
    const result = await crm(['contacts', 'list', '--limit', '1', '-q'], { env: live.env });
    expect(result.code).toBe(0);
    expect(live.server.requests()).toHaveLength(2);
  });
});

describe('other workspaces', () => {
  it('reads an error member that is an object', async () => {
    live.server.fault({ status: 422, body: JSON.stringify({ data: null, error: { message: 'Plan limit reached', code: 'plan_limit' } }) });
    const result = await crm(['contacts', 'create', '--name', 'A', '--email', 'a@example.com', '--json'], { env: live.env });
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
    live.server.fault({ status: 200, body: JSON.stringify(body) });
    const result = await crm(['contacts', 'list', '--json'], { env: live.env });
    expect(result.code).toBe(0);
    expect(json(result)).toEqual([{ id: 'x1', name: 'Bare' }]);
  });
});

describe('debug, dry run, headers, plain HTTP', () => {
  it('--debug traces request and response on stderr with the key redacted', async () => {
    const result = await crm(['contacts', 'list', '--limit', '1', '--debug'], { env: live.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`> GET ${live.server.url}/contacts?limit=1`);
    expect(result.stderr).toContain(`X-Service-API-Key: ****${live.server.apiKey.slice(-4)}`);
    expect(result.stderr).toMatch(/< 200 OK \(\d+ ms\)/);
    expect(result.stderr).not.toContain(live.server.apiKey);
    expect(result.stdout).toMatch(/^con_/);
  });

  it('--dry-run prints the request and sends nothing (no confirmation needed for a delete)', async () => {
    const result = await crm(['contacts', 'delete', 'con_1', '--dry-run'], { env: live.env });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      `DELETE ${live.server.url}/contacts/con_1`,
      'Accept: application/json',
      expect.stringMatching(/^User-Agent: crm\/\S+ node\/\S+ \w+$/),
      `X-Service-API-Key: ****${live.server.apiKey.slice(-4)}`,
      '',
    ]);
    expect(live.server.requests()).toHaveLength(0);
  });

  it('sends the User-Agent, Accept and key headers', async () => {
    await crm(['contacts', 'list', '--limit', '1'], { env: live.env });
    const headers = live.server.requests()[0]!.headers;
    expect(headers['user-agent']).toMatch(/^crm\/\d+\.\d+\.\d+ node\/20\.\d+\.\d+ linux$/);
    expect(headers.accept).toBe('application/json');
    expect(headers['x-service-api-key']).toBe(live.server.apiKey);
  });

  it('refuses to send the key over plain HTTP to a non-local host (exit 2)', async () => {
    const result = await crm(['contacts', 'list'], { env: { ...live.env, CRM_BASE_URL: 'http://crm.example.com' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('crm: refusing to send the API key over plain HTTP to crm.example.com\nhint: use an https:// base URL, or pass --insecure if you accept the risk\n');
  });

  it('appends /api/v1 to a base URL without a path', async () => {
    const bare = live.server.url.replace(/\/api\/v1$/, '/');
    const result = await crm(['contacts', 'list', '--limit', '1', '-q'], { env: { ...live.env, CRM_BASE_URL: bare } });
    expect(result.code).toBe(0);
    expect(live.server.requests()[0]!.url).toBe('/api/v1/contacts?limit=1');
  });

  it('ends quietly with exit 0 when the reader of a pipe goes away (| head -1)', async () => {
    for (let start = 0; start < 600; start += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, offset) => api(live.server, 'POST', '/contacts', { name: `Bulk ${start + offset}`, email: `bulk-${start + offset}@example.com` })),
      );
    }
    const child = spawn('bash', ['-c', `set -o pipefail; "${process.execPath}" "${CRM_BIN}" contacts list --all -o json | head -1`], { env: live.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stdout).toBe('[\n');
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('--wait', () => {
  it('waits out a long Retry-After in a script, saying so on stderr', async () => {
    live.server.fault({ match: /GET/, status: 429, body: JSON.stringify({ data: null, error: 'Too many requests.' }), headers: { 'retry-after': '11' } });
    const result = await crm(['contacts', 'list', '--limit', '1', '-q', '--wait'], { env: live.env, timeoutMs: 25_000 });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^con_/);
    expect(result.stderr).toBe('Too many requests. Retrying in 11s\n');
    expect(live.server.requests()).toHaveLength(2);
  }, 30_000);
});
