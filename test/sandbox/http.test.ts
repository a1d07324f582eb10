import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSandbox } from '../../src/sandbox/index.js';
import { startSandbox, type Json, type TestSandbox } from './helpers.js';
import { until } from '../helpers/wait.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

/** Every method and path of service-api.md section 4, with {id} filled in by `ids`. */
const ENDPOINTS = [
  'GET /contacts', 'POST /contacts', 'GET /contacts/{contact}', 'PATCH /contacts/{contact}', 'DELETE /contacts/{contact}',
  'GET /contacts/{contact}/notes', 'POST /contacts/{contact}/notes', 'POST /contacts/{contact}/tasks', 'POST /contacts/{contact}/sequences',
  'GET /accounts', 'POST /accounts', 'GET /accounts/{account}', 'PATCH /accounts/{account}', 'DELETE /accounts/{account}',
  'GET /deals', 'POST /deals', 'GET /deals/{deal}', 'PATCH /deals/{deal}', 'DELETE /deals/{deal}', 'POST /deals/{deal}/stage',
  'GET /sequences', 'POST /sequences', 'GET /sequences/{sequence}', 'PATCH /sequences/{sequence}', 'DELETE /sequences/{sequence}',
  'POST /sequences/{sequence}/enroll', 'GET /sequences/{sequence}/contacts',
  'GET /tasks', 'POST /tasks', 'GET /tasks/{task}', 'PATCH /tasks/{task}', 'DELETE /tasks/{task}', 'POST /tasks/{task}/complete',
  'GET /pipeline/stages', 'GET /pipeline/deals', 'GET /search', 'GET /analytics',
  'GET /ai/suggestions', 'POST /ai/suggestions/{suggestion}/accept', 'POST /ai/trigger',
];

describe('routing', () => {
  it('serves all 40 endpoints of the spec', async () => {
    expect(ENDPOINTS).toHaveLength(40);
    const ids: Record<string, string> = {
      contact: 'con_x', account: 'acc_x', deal: 'deal_x', sequence: 'seq_x', task: 'task_x', suggestion: 'sug_x',
    };
    for (const endpoint of ENDPOINTS) {
      const [method, template] = endpoint.split(' ');
      const path = template.replace(/\{(\w+)\}/g, (_, kind: string) => ids[kind]);
      const { status, body } = await sb.api(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      // Any answer but "no such route": 2xx, or a 400/404 about the body or the id.
      expect(status, endpoint).not.toBe(405);
      expect(body.error ?? '', endpoint).not.toMatch(/^Not found:/);
    }
  });

  it('answers 404 naming an unknown path, and 405 with Allow for a wrong method', async () => {
    const unknown = await sb.api('GET', '/widgets?x=1');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ data: null, error: 'Not found: GET /api/v1/widgets' });
    expect((await sb.api('GET', '/contacts/con_x/emails')).body.error).toBe('Not found: GET /api/v1/contacts/con_x/emails');

    const wrongMethod = await sb.api('PUT', '/contacts/con_x', {});
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect(wrongMethod.body.data).toBeNull();
    expect(wrongMethod.body.error).toMatch(/PUT/);
    expect((await sb.api('DELETE', '/contacts')).headers.get('allow')).toBe('GET, POST');
  });

  it('tolerates a trailing slash and encoded ids', async () => {
    expect((await sb.api('GET', '/pipeline/stages/')).status).toBe(200);
    const contact = (await sb.api('GET', '/contacts?limit=1')).body.data.contacts[0];
    expect((await sb.api('GET', `/contacts/${encodeURIComponent(contact.id)}`)).body.data.id).toBe(contact.id);
  });
});

describe('authentication', () => {
  it('refuses a missing key with 401 on every kind of route, and sends the envelope', async () => {
    for (const [method, path] of [['GET', '/contacts'], ['POST', '/deals'], ['GET', '/analytics'], ['POST', '/ai/trigger'], ['GET', '/nowhere']]) {
      const response = await fetch(`${sb.url}${path}`, { method });
      expect(response.status, path).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({ data: null, error: 'Missing API key' });
    }
  });

  it('refuses a wrong key with 401', async () => {
    for (const [method, path] of [['GET', '/contacts'], ['DELETE', '/contacts/con_x'], ['GET', '/ai/suggestions'], ['GET', '/search?q=a']]) {
      const { status, body } = await sb.api(method, path, undefined, { 'x-service-api-key': `${sb.sandbox.apiKey}x` });
      expect(status, path).toBe(401);
      expect(body).toEqual({ data: null, error: 'Invalid or revoked API key' });
    }
    expect((await sb.api('GET', '/contacts', undefined, { 'x-service-api-key': 'sbx_test_' })).status).toBe(401);
  });

  it('answers a request from its own process (the embedded transport) as it answers one over the network', async () => {
    const inProcess = await openSandbox({ dbPath: sb.dbPath, inProcess: true });
    try {
      const answer = (key: string | undefined) => {
        const response = inProcess.handle({ method: 'GET', url: '/api/v1/contacts?limit=1', headers: key === undefined ? {} : { 'x-service-api-key': key }, body: '' });
        return { status: response.status, body: JSON.parse(response.body) };
      };
      expect(answer(undefined)).toEqual({ status: 401, body: { data: null, error: 'Missing API key' } });
      for (const key of [`${inProcess.apiKey}x`, inProcess.apiKey.slice(0, -1), 'sbx_test_']) expect(answer(key)).toEqual({ status: 401, body: { data: null, error: 'Invalid or revoked API key' } });
      expect(answer(inProcess.apiKey)).toMatchObject({ status: 200, body: { error: null } });
    } finally {
      inProcess.close();
    }
  });

  it('issues a sbx_test_ key of 32 random characters', () => {
    expect(sb.sandbox.apiKey).toMatch(/^sbx_test_[A-Za-z0-9]{32}$/);
  });
});

describe('request bodies', () => {
  it('takes JSON whatever the content type, or none, and an empty body as {} (the spec is silent: docs/api-assumptions.md)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const name = `Typed ${type ?? 'none'} Inc`;
      // A Uint8Array body: fetch adds no Content-Type of its own.
      const response = await fetch(`${sb.url}/accounts`, {
        method: 'POST',
        headers: { 'x-service-api-key': sb.sandbox.apiKey, ...(type ? { 'content-type': type } : {}) },
        body: new TextEncoder().encode(JSON.stringify({ name })),
      });
      expect(response.status, type).toBe(201);
      expect(((await response.json()) as { data: { name: string } }).data.name).toBe(name);
    }
    expect((await sb.api('POST', '/accounts')).body.error).toBe('name is required');
  });

  it('answers 413 past 1 MiB', async () => {
    const { status, body } = await sb.api('POST', '/contacts', { name: 'x'.repeat(1024 * 1024), email: 'big@example.com' });
    expect(status).toBe(413);
    expect(body).toEqual({ data: null, error: 'Request body too large: the limit is 1 MiB' });
  });

  it('answers 413 as soon as a body is past 1 MiB, and closes the connection: declared (Content-Length), or read so far (chunked); a body of any size was read to its end first', async () => {
    const { port } = new URL(sb.url);
    const head = (framing: string) => `POST /api/v1/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Service-API-Key: ${sb.sandbox.apiKey}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;
    const chunk = 'a'.repeat(64 * 1024);
    const chunked = `${(chunk.length).toString(16)}\r\n${chunk}\r\n`.repeat(20); // 1.25 MiB, and no last chunk
    for (const [name, request] of [
      ['a Content-Length of 1 TB, 64 KiB of it sent', `${head('Content-Length: 1000000000000')}${chunk}`],
      ['chunks past 1 MiB, never ended', `${head('Transfer-Encoding: chunked')}${chunked}`],
    ] as const) {
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      let closed = false;
      socket.on('data', (data) => (answer += data.toString('latin1')));
      socket.on('error', () => {}); // the server may close while the rest is in flight
      socket.on('close', () => (closed = true));
      socket.write(request); // and then nothing more: the client stalls
      try {
        await until(() => closed, `${name}: the 413 and the connection closed`);
        expect(answer, name).toMatch(/^HTTP\/1\.1 413 /);
        expect(answer.toLowerCase(), name).toContain('connection: close');
        expect(answer, name).toContain('{"data":null,"error":"Request body too large: the limit is 1 MiB"}');
      } finally {
        socket.destroy();
      }
    }
  });

  it('logs each request with its status through onRequest', async () => {
    const before = sb.log.length;
    await sb.api('POST', '/accounts', { name: 'Logged Ltd' });
    const entry = sb.log[before];
    expect(entry).toMatchObject({ method: 'POST', url: '/api/v1/accounts', body: JSON.stringify({ name: 'Logged Ltd' }), status: 201 });
    expect(entry.headers['x-service-api-key']).toBe(sb.sandbox.apiKey);
  });
});

describe('paging', () => {
  it('walks every contact with limit 7: newest first, no duplicate, no gap, total consistent', async () => {
    const everything = await sb.api('GET', '/contacts?limit=50');
    const total = everything.body.data.total;
    const seen: Json[] = [];
    for (let offset = 0; offset < total + 7; offset += 7) {
      const { body } = await sb.api('GET', `/contacts?limit=7&offset=${offset}`);
      expect(body.data.total).toBe(total);
      expect(body.data.contacts.length).toBe(Math.max(0, Math.min(7, total - offset)));
      seen.push(...body.data.contacts);
    }
    const ids = seen.map((contact) => contact.id);
    expect(new Set(ids).size).toBe(total);
    expect(ids.slice(0, 50)).toEqual(everything.body.data.contacts.map((contact: Json) => contact.id));
    for (let index = 1; index < seen.length; index++) expect(seen[index - 1].created_at >= seen[index].created_at).toBe(true);
  });

  it('breaks created_at ties by insertion order', async () => {
    const frozen = mkdtempSync(join(tmpdir(), 'crm-sandbox-'));
    const at = new Date('2030-01-01T00:00:00.000Z');
    const sandbox = await openSandbox({ dbPath: join(frozen, 'sandbox.db'), seed: false, now: () => at });
    try {
      const headers = { 'x-service-api-key': sandbox.apiKey };
      const ids = ['a', 'b', 'c'].map((name) => JSON.parse(sandbox.handle({ method: 'POST', url: '/api/v1/contacts', headers, body: JSON.stringify({ name, email: `${name}@example.com` }) }).body).data.id);
      const pages = [0, 1, 2].map((offset) => JSON.parse(sandbox.handle({ method: 'GET', url: `/api/v1/contacts?limit=1&offset=${offset}`, headers, body: '' }).body).data.contacts[0].id);
      expect(pages).toEqual([...ids].reverse());
    } finally {
      sandbox.close();
      rmSync(frozen, { recursive: true, force: true });
    }
  });

  it('defaults to 20, caps at 50 silently and rejects bad values', async () => {
    expect((await sb.api('GET', '/contacts')).body.data.contacts).toHaveLength(20);
    expect((await sb.api('GET', '/contacts?limit=500')).body.data.contacts).toHaveLength(50);
    for (const query of ['limit=0', 'limit=-1', 'limit=abc', 'limit=2.5']) {
      expect((await sb.api('GET', `/contacts?${query}`)).body, query).toEqual({ data: null, error: 'limit must be an integer between 1 and 50' });
    }
    for (const query of ['offset=-1', 'offset=x', 'offset=1.5']) {
      expect((await sb.api('GET', `/tasks?${query}`)).body, query).toEqual({ data: null, error: 'offset must be an integer of 0 or more' });
    }
    expect((await sb.api('GET', '/contacts?offset=100000')).body.data.contacts).toEqual([]);
  });
});

describe('failures', () => {
  it('answers an unexpected failure with 500 "Internal error" and no stack', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crm-sandbox-'));
    try {
      const sandbox = await openSandbox({ dbPath: join(dir, 'sandbox.db'), seed: false });
      sandbox.close();
      const response = sandbox.handle({ method: 'GET', url: '/api/v1/contacts', headers: { 'x-service-api-key': sandbox.apiKey }, body: '' });
      expect(response).toEqual({
        status: 500,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ data: null, error: 'Internal error' }),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
