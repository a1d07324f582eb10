// The core's own logic (retries, envelope, errors, redaction, paging) against a scripted transport:
// the transport is the core's injection point, so nothing of the core itself is replaced.
import { describe, expect, it } from 'vitest';
import { CliError, toCliError } from '../../src/cli/errors.js';
import { ApiClient, type ClientOptions } from '../../src/http/core.js';
import { HttpError } from '../../src/http/errors.js';
import { maskKey } from '../../src/http/redact.js';
import { PAGES_IN_FLIGHT, WalkOutpaced, walk } from '../../src/http/paginate.js';
import { createRecordingTransport, type PlannedRequest } from '../../src/transport/recording.js';
import { TransportError, type TransportRequest, type TransportResponse } from '../../src/transport/types.js';

type Step = TransportResponse | TransportError;

const ok = (data: unknown, status = 200): TransportResponse => ({ status, headers: {}, body: JSON.stringify({ data, error: null }) });
const fail = (status: number, error: unknown, headers: Record<string, string> = {}): TransportResponse => ({
  status,
  headers,
  body: JSON.stringify({ data: null, error }),
});

function client(steps: Step[], options: Partial<ClientOptions> = {}) {
  const requests: TransportRequest[] = [];
  const sleeps: number[] = [];
  // A clock that the sleeps move on.
  let clock = Date.parse('2026-11-21T10:00:00Z');
  const api = new ApiClient({
    baseUrl: 'https://crm.test/api/v1',
    apiKey: 'key_live_abcdefghijklmnopqrstuvwxyz123456',
    userAgent: 'crm/test',
    transport: async (request) => {
      requests.push(request);
      const step = steps.shift();
      if (!step) throw new Error('no more scripted responses');
      if (step instanceof TransportError) throw step;
      return step;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => clock,
    random: () => 0.5,
    ...options,
  });
  return { api, requests, sleeps };
}

/** The failure as a user sees it: the core's HttpError through the CLI's one mapping to exit codes. */
async function failure(promise: Promise<unknown>): Promise<CliError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return toCliError(error);
    throw error;
  }
  throw new Error('expected a failure');
}

describe('requests', () => {
  it('sends the key, JSON body, Accept and User-Agent, and returns the data', async () => {
    const { api, requests } = client([ok({ id: 'c1' }, 201)]);
    await expect(api.request('POST', '/contacts', { body: { name: 'Ada' } })).resolves.toEqual({ id: 'c1' });
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: 'https://crm.test/api/v1/contacts',
      body: '{"name":"Ada"}',
      headers: {
        'X-Service-API-Key': 'key_live_abcdefghijklmnopqrstuvwxyz123456',
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'User-Agent': 'crm/test',
      },
    });
  });

  it.each([
    [401, 3],
    [403, 3],
    [404, 4],
    [400, 1],
    [409, 1],
    [422, 1],
    [500, 1],
  ])('maps HTTP %i to exit %i with the service message', async (status, exitCode) => {
    const { api } = client([fail(status, 'Nope')]);
    const error = await failure(api.request('POST', '/contacts'));
    expect(error).toMatchObject({ exitCode, status, message: 'Nope' });
  });

  it('treats an error member on a 200 as a failure', async () => {
    const { api } = client([fail(200, { message: 'insufficient credits', code: 'credits' })]);
    expect(await failure(api.request('POST', '/ai/trigger'))).toMatchObject({ exitCode: 1, code: 'credits', message: 'insufficient credits' });
  });

  it('reports a non-JSON success body as a malformed response (exit 6)', async () => {
    const { api } = client([{ status: 200, headers: {}, body: '<html>' }]);
    expect(await failure(api.request('GET', '/contacts'))).toMatchObject({ exitCode: 6, code: 'malformed_response' });
  });

  it('reports a non-JSON error body by its status', async () => {
    const { api } = client([{ status: 404, headers: {}, body: '<html>not here</html>' }]);
    expect(await failure(api.request('POST', '/x'))).toMatchObject({ exitCode: 4, message: 'HTTP 404 Not Found' });
  });

  it('names a request too long by its status (a search of megabytes: 414, 431), and a status it cannot name by its number alone', async () => {
    const { api } = client([{ status: 414, headers: {}, body: '' }, { status: 431, headers: {}, body: '' }, { status: 418, headers: {}, body: '' }]);
    expect(await failure(api.request('POST', '/x'))).toMatchObject({ message: 'HTTP 414 URI Too Long' });
    expect(await failure(api.request('POST', '/x'))).toMatchObject({ message: 'HTTP 431 Request Header Fields Too Large' });
    expect(await failure(api.request('POST', '/x'))).toMatchObject({ message: 'HTTP 418' });
  });

  it('reads {"message": ...} error bodies without an envelope', async () => {
    const { api } = client([{ status: 422, headers: {}, body: '{"message":"email taken","code":"conflict"}' }]);
    expect(await failure(api.request('POST', '/contacts'))).toMatchObject({ exitCode: 1, message: 'email taken', code: 'conflict' });
  });
});

describe('retries', () => {
  it('retries a GET on 503 up to 3 times with growing backoff, then fails', async () => {
    const { api, requests, sleeps } = client([fail(503, 'busy'), fail(503, 'busy'), fail(503, 'busy'), fail(503, 'still busy')]);
    expect(await failure(api.request('GET', '/contacts'))).toMatchObject({ exitCode: 1, status: 503, message: 'still busy' });
    expect(requests).toHaveLength(4);
    expect(sleeps).toEqual([225, 450, 900]);
  });

  it('succeeds when a retry does', async () => {
    const { api, requests } = client([fail(502, 'bad gateway'), ok([1])]);
    await expect(api.request('GET', '/contacts')).resolves.toEqual([1]);
    expect(requests).toHaveLength(2);
  });

  it('never retries a POST that may have been delivered', async () => {
    const { api, requests } = client([fail(503, 'busy')]);
    await failure(api.request('POST', '/contacts', { body: {} }));
    expect(requests).toHaveLength(1);
    const timedOut = client([new TransportError('timed out', 'ETIMEDOUT', true)]);
    expect(await failure(timedOut.api.request('POST', '/contacts', { body: {} }))).toMatchObject({ exitCode: 6 });
    expect(timedOut.requests).toHaveLength(1);
  });

  it('retries a POST that was certainly not delivered (connection refused)', async () => {
    const { api, requests } = client([new TransportError('refused', 'ECONNREFUSED', false), ok({ id: 1 }, 201)]);
    await expect(api.request('POST', '/contacts', { body: {} })).resolves.toEqual({ id: 1 });
    expect(requests).toHaveLength(2);
  });

  it('reports network failures as exit 6 after the retries', async () => {
    const refused = () => new TransportError('could not connect', 'ECONNREFUSED', false);
    const { api, requests } = client([refused(), refused(), refused(), refused()]);
    expect(await failure(api.request('GET', '/contacts'))).toMatchObject({ exitCode: 6, message: 'could not connect; tried 4 times' });
    expect(requests).toHaveLength(4);
  });

  it('honours a short Retry-After on 429, for a POST too', async () => {
    const { api, sleeps } = client([fail(429, 'Too many requests. Try again in a minute.', { 'retry-after': '2' }), ok({ score: 50 })]);
    await expect(api.request('POST', '/ai/trigger', { body: { contact_id: 'c' } })).resolves.toEqual({ score: 50 });
    expect(sleeps).toEqual([2000]);
  });

  it('gives up at once on a long Retry-After in a script: exit 5 with the message and when to retry', async () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    const { api, requests, sleeps } = client([fail(429, 'Too many requests. Try again in a minute.', { 'retry-after': '60' })], { now: () => now });
    const error = await failure(api.request('POST', '/ai/trigger', { body: {} }));
    expect(error.exitCode).toBe(5);
    expect(error.message).toBe('Too many requests. Try again in a minute. (retry after 60s, at 2026-11-21T10:01:00.000Z)');
    expect(error.hint).toContain('--wait');
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('waits a long Retry-After when the wait policy allows (--wait, or a countdown on a terminal)', async () => {
    const waits: number[] = [];
    const { api } = client([fail(429, 'slow down', { 'retry-after': '30' }), ok('done')], {
      waitLong: async (ms) => {
        waits.push(ms);
        return true;
      },
    });
    await expect(api.request('GET', '/x')).resolves.toBe('done');
    expect(waits).toEqual([30_000]);
  });

  it('with --wait, each long wait counts as a retry: a service that always says wait is given up on (exit 5)', async () => {
    const waits: number[] = [];
    const busy = () => fail(429, 'slow down', { 'retry-after': '30' });
    const { api, requests } = client([busy(), busy(), busy(), busy(), busy()], {
      waitLong: async (ms) => {
        waits.push(ms);
        return true;
      },
    });
    expect(await failure(api.request('GET', '/x'))).toMatchObject({ exitCode: 5, message: expect.stringMatching(/^slow down \(retry after 30s, at /) });
    expect(waits).toEqual([30_000, 30_000, 30_000]);
    expect(requests).toHaveLength(4);
  });

  it('never hands a wait over an hour to the wait policy, however long it would wait', async () => {
    const waits: number[] = [];
    const { api, requests } = client([fail(429, 'later', { 'retry-after': '3601' })], {
      waitLong: async (ms) => {
        waits.push(ms);
        return true;
      },
    });
    expect(await failure(api.request('GET', '/x'))).toMatchObject({ exitCode: 5 });
    expect(waits).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('exits 5 when 429s outlast the retries', async () => {
    const busy = () => fail(429, 'Too many requests');
    const { api, requests } = client([busy(), busy(), busy(), busy()]);
    expect(await failure(api.request('GET', '/x'))).toMatchObject({ exitCode: 5 });
    expect(requests).toHaveLength(4);
  });

  it('takes a 404 on a repeated DELETE as the deletion having happened', async () => {
    const { api } = client([new TransportError('reset', 'ECONNRESET', true), fail(404, 'Contact not found')]);
    await expect(api.request('DELETE', '/contacts/c1')).resolves.toEqual({ deleted: true });
  });

  it('still reports a 404 on a first DELETE', async () => {
    const { api } = client([fail(404, 'Contact not found')]);
    expect(await failure(api.request('DELETE', '/contacts/c1'))).toMatchObject({ exitCode: 4 });
  });
});

describe('bulk work and the rate limit', () => {
  const tooMany = () => fail(429, 'Too many requests', { 'retry-after': '1' });

  it('waits out short 429s for a row however often they come, without counting them as retries', async () => {
    const { api, requests, sleeps } = client([tooMany(), tooMany(), tooMany(), tooMany(), tooMany(), ok({ id: 'c1' }, 201)]);
    await expect(api.request('POST', '/contacts', { body: { name: 'Ada' }, waitOutRateLimit: true })).resolves.toEqual({ id: 'c1' });
    expect(requests).toHaveLength(6);
    expect(sleeps.filter((ms) => ms === 1000)).toHaveLength(5);
  });

  it('a single command still gives up after the allowed retries (exit 5)', async () => {
    const { api, requests } = client([tooMany(), tooMany(), tooMany(), tooMany()]);
    expect(await failure(api.request('POST', '/contacts', { body: { name: 'Ada' } }))).toMatchObject({ exitCode: 5 });
    expect(requests).toHaveLength(4);
  });

  it('gives up on a row once its 429s have cost a minute of waiting', async () => {
    const minute = () => fail(429, 'Too many requests', { 'retry-after': '10' });
    const { api, requests } = client([minute(), minute(), minute(), minute(), minute(), minute(), minute(), minute(), minute(), minute()]);
    expect(await failure(api.request('POST', '/contacts', { body: { name: 'Ada' }, waitOutRateLimit: true }))).toMatchObject({ exitCode: 5 });
    // Six waits of 10 s fill the minute; then the usual 3 retries.
    expect(requests).toHaveLength(10);
  });

  it('work under a long window waits out every 429, as long as it says and however often, telling each wait', async () => {
    const later = (seconds: string) => fail(429, 'Too many requests', { 'retry-after': seconds });
    const { api, requests, sleeps } = client([later('40'), later('120'), later('40'), later('40'), later('40'), ok({ score: 42 })]);
    const told: Array<[number, string]> = [];
    const scoring = { unsaidMs: 60_000, onWait: (ms: number, reason: string) => told.push([ms, reason]) };
    await expect(api.request('POST', '/ai/trigger', { body: { contact_id: 'c1' }, waitOutEveryRateLimit: scoring })).resolves.toEqual({ score: 42 });
    expect(requests).toHaveLength(6);
    expect(sleeps).toEqual([40_000, 120_000, 40_000, 40_000, 40_000]);
    expect(told).toEqual(sleeps.map((ms) => [ms, 'Too many requests']));
  });

  it('a 429 that says nothing of when waits the whole window; one that says more than an hour is not waited (exit 5)', async () => {
    const { api, sleeps } = client([fail(429, 'Too many requests'), ok({ score: 42 })]);
    await expect(api.request('POST', '/ai/trigger', { body: { contact_id: 'c1' }, waitOutEveryRateLimit: { unsaidMs: 60_000 } })).resolves.toEqual({ score: 42 });
    expect(sleeps).toEqual([60_000]);
    const { api: patient, requests } = client([fail(429, 'Too many requests', { 'retry-after': '7200' })]);
    expect(await failure(patient.request('POST', '/ai/trigger', { body: { contact_id: 'c1' }, waitOutEveryRateLimit: { unsaidMs: 60_000 } }))).toMatchObject({ exitCode: 5 });
    expect(requests).toHaveLength(1);
  });

  it('a request waiting out its Retry-After holds no place on the wire: the others go on', async () => {
    let releaseSleep: () => void = () => {};
    const order: string[] = [];
    const api = new ApiClient({
      baseUrl: 'https://crm.test/api/v1',
      apiKey: 'key_live_abcdefghijklmnopqrstuvwxyz123456',
      userAgent: 'crm/test',
      transport: async (request) => {
        const name = JSON.parse(request.body!).name as string;
        order.push(name);
        return name === 'A' && order.filter((n) => n === 'A').length === 1 ? fail(429, 'slow down', { 'retry-after': '1' }) : ok({ id: name }, 201);
      },
      // A's Retry-After lasts until released; the pace's own short waits pass at once.
      sleep: (ms) => (ms === 1000 ? new Promise<void>((resolve) => (releaseSleep = resolve)) : Promise.resolve()),
    });
    api.pace.maxInFlight = 1;
    const a = api.request('POST', '/contacts', { body: { name: 'A' }, waitOutRateLimit: true });
    await new Promise((resolve) => setImmediate(resolve));
    // A waits its Retry-After; B takes the one place meanwhile.
    await expect(api.request('POST', '/contacts', { body: { name: 'B' }, waitOutRateLimit: true })).resolves.toEqual({ id: 'B' });
    releaseSleep();
    await expect(a).resolves.toEqual({ id: 'A' });
    expect(order).toEqual(['A', 'B', 'A']);
  });

  it('a 429 slows every request of the client down to the pace the service takes', async () => {
    const { api } = client([...Array.from({ length: 30 }, () => ok({})), tooMany(), ok({})]);
    for (let n = 0; n < 30; n++) await api.request('GET', '/contacts');
    expect(api.pace.requestsPerSecond).toBe(Infinity);
    await api.request('GET', '/contacts');
    expect(api.pace.requestsPerSecond).toBeLessThan(Infinity);
  });
});

describe('failures of the transport', () => {
  it('a POST that timed out says the service may have created it, and how to look', async () => {
    const { api } = client([new TransportError('request timed out after 2s', 'ETIMEDOUT', true)]);
    expect(await failure(api.request('POST', '/contacts', { body: { name: 'Ada' } }))).toMatchObject({
      exitCode: 6,
      message: 'request timed out after 2s',
      hint: 'the service may have created it all the same: look (for example `crm api GET /contacts`) before sending it again',
    });
    const action = client([new TransportError('request timed out after 2s', 'ETIMEDOUT', true)]);
    expect(await failure(action.api.request('POST', '/deals/d1/stage', { body: { stage: 'won' } }))).toMatchObject({ hint: 'the service may have acted on the POST all the same: check before sending it again' });
  });

  it('a POST reset or cut short after it was sent, answered unreadably or with a 5xx, says it may have taken effect; one never sent does not', async () => {
    const created = 'the service may have created it all the same: look (for example `crm api GET /contacts`) before sending it again';
    const outcomes: Step[] = [
      new TransportError('connection to crm.test was reset', 'ECONNRESET', true),
      new TransportError('the response from crm.test was cut short', 'ETRUNCATED', true),
      new TransportError('malformed response from crm.test: bad chunk', 'EPROTO', true, { malformed: true }),
      { status: 200, headers: {}, body: '<html>ok</html>' },
      fail(502, 'Bad gateway'),
      fail(500, 'Internal error'),
    ];
    for (const outcome of outcomes) {
      const { api, requests } = client([outcome]);
      expect(await failure(api.request('POST', '/contacts', { body: { name: 'Ada' } })), String(outcome)).toMatchObject({ hint: created, mayHaveActed: true });
      expect(requests).toHaveLength(1);
    }
    // Never sent: safe to send again, and sent again.
    const refused = client([new TransportError('connection refused', 'ECONNREFUSED', false), ok({ id: 'c1' })]);
    expect(await refused.api.request('POST', '/contacts', { body: { name: 'Ada' } })).toEqual({ id: 'c1' });
    // Refused in words (a 4xx): nothing was done.
    expect(await failure(client([fail(422, 'email taken')]).api.request('POST', '/contacts', { body: {} }))).toMatchObject({ mayHaveActed: false, hint: undefined });
    // A GET (or a PATCH) may be sent again whatever happened to it.
    expect(await failure(client([fail(500, 'Internal error')]).api.request('GET', '/contacts/c1'))).toMatchObject({ mayHaveActed: false });
  });

  it('a GET that timed out is retried, and then says nothing of effects', async () => {
    const timedOut = () => new TransportError('request timed out after 2s', 'ETIMEDOUT', true);
    const { api, requests } = client([timedOut(), timedOut(), timedOut(), timedOut()]);
    const error = await failure(api.request('GET', '/contacts'));
    // 4 tries of 2 s each and the waits between: the message says it was not one.
    expect(error).toMatchObject({ exitCode: 6, message: 'request timed out after 2s; tried 4 times' });
    expect(error.hint).toBeUndefined();
    expect(requests).toHaveLength(4);
  });

  it('a certificate that fails verification is not retried, and says how to trust a private CA', async () => {
    const { api, requests } = client([new TransportError('TLS error talking to crm.test: self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT', false, { final: true, hint: 'set NODE_EXTRA_CA_CERTS' })]);
    expect(await failure(api.request('GET', '/contacts'))).toMatchObject({ exitCode: 6, hint: 'set NODE_EXTRA_CA_CERTS' });
    expect(requests).toHaveLength(1);
  });

  it('a malformed answer is exit 6 at once; a request that cannot be written is exit 2', async () => {
    const malformed = client([new TransportError('malformed response from crm.test: a status of 600', 'EPROTO', true, { malformed: true })]);
    expect(await failure(malformed.api.request('GET', '/contacts'))).toMatchObject({ exitCode: 6, code: 'malformed_response' });
    expect(malformed.requests).toHaveLength(1);
    const invalid = client([new TransportError('the URL cannot be sent', 'EINVALIDURL', false, { invalid: true })]);
    expect(await failure(invalid.api.request('GET', '/contacts'))).toMatchObject({ exitCode: 2 });
  });
});

describe('cancellation', () => {
  it('ends a backoff at once: exit 130, nothing more sent', async () => {
    const controller = new AbortController();
    const requests: TransportRequest[] = [];
    const api = new ApiClient({
      baseUrl: 'https://crm.test/api/v1',
      apiKey: 'key_live_abcdefghijklmnopqrstuvwxyz123456',
      userAgent: 'crm/test',
      signal: controller.signal,
      transport: async (request) => {
        requests.push(request);
        setImmediate(() => controller.abort(new Error('Ctrl-C')));
        return fail(503, 'busy');
      },
    });
    const started = Date.now();
    expect(await failure(api.request('GET', '/contacts'))).toMatchObject({ exitCode: 130, message: 'cancelled' });
    expect(requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a POST cancelled after it was sent says it may have taken effect; until then it is among the writes unanswered', async () => {
    const controller = new AbortController();
    let unanswered: string[] = [];
    const api: ApiClient = new ApiClient({
      baseUrl: 'https://crm.test/api/v1',
      apiKey: 'key_live_abcdefghijklmnopqrstuvwxyz123456',
      userAgent: 'crm/test',
      transport: (request) =>
        new Promise((_, reject) => {
          request.onSent?.();
          unanswered = api.writesUnanswered();
          request.signal!.addEventListener('abort', () => reject(new TransportError('cancelled', 'ECANCELLED', true)));
          controller.abort();
        }),
    });
    expect(await failure(api.withSignal(controller.signal).request('POST', '/contacts', { body: { name: 'Ada' } }))).toMatchObject({
      exitCode: 130,
      hint: 'POST /contacts was sent: it may have taken effect on the service',
    });
    expect(unanswered).toEqual(['POST /contacts']);
    expect(api.writesUnanswered()).toEqual([]);
  });
});

describe('debug trace and dry run', () => {
  it('traces requests and responses with the key redacted', async () => {
    const lines: string[] = [];
    const { api } = client([ok({ echoed: 'key_live_abcdefghijklmnopqrstuvwxyz123456' })], { trace: (line) => lines.push(line) });
    await api.request('GET', '/contacts');
    const trace = lines.join('\n');
    expect(trace).toContain('> GET https://crm.test/api/v1/contacts');
    expect(trace).toContain('< 200 OK');
    expect(trace).toContain('X-Service-API-Key: ****3456');
    expect(trace).not.toContain('abcdefghijklmnop');
  });

  it('masks the key in any header of an answer before anything reads it (a redirect\'s Location)', async () => {
    const key = 'key_live_abcdefghijklmnopqrstuvwxyz123456';
    const redirect = (headers: TransportResponse['headers']): TransportResponse => ({ status: 302, headers, body: '' });
    const { api } = client([redirect({ 'x-other': 'kept', location: `https://elsewhere.test/?k=${key}` }), redirect({ 'set-cookie': [`c=${key}`], location: `https://elsewhere.test/?k=${key}` })]);
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await api.request('GET', '/contacts').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).message).toContain('to https://elsewhere.test/?k=****3456');
      expect(JSON.stringify(error)).not.toContain('abcdefghijklmnop');
    }
  });

  describe('keys of every length', () => {
    // Letters and digits as a key has them; LENGTH of them.
    const keyOf = (length: number) => 'q7Zk2Xw9Rm4Tb8Vn3Hc6Ld5Fj1'.slice(0, length);

    it('the masked key never shows a key under 16 characters at all, and 4 of the last characters of a longer one', () => {
      for (let length = 1; length <= 26; length++) {
        const key = keyOf(length);
        expect(maskKey(key)).toBe(length < 16 ? '****' : `****${key.slice(-4)}`);
        expect(maskKey(key)).not.toContain(key);
      }
    });

    it.each([1, 2, 3, 4, 8, 12, 15])('a %i-character key: the data that holds its text by chance is untouched, the key the service echoes is masked, the trace never holds it', async (length) => {
      const key = keyOf(length);
      const lines: string[] = [];
      // Its text inside words, an id, a number's digits, a path; the key itself as a value and in a message.
      const record = { id: `con_${key}x`, name: `x${key} ${key}y`, score: Number.parseInt(`1${length}`, 10), echoed: key, said: `bad key: ${key}.` };
      const { api } = client([ok({ contacts: [record], total: 1 })], { apiKey: key, trace: (line) => lines.push(line) });
      const answer = (await api.request('GET', '/contacts')) as { contacts: Array<typeof record> };
      expect(answer.contacts[0]).toEqual({ ...record, echoed: '****', said: 'bad key: ****.' });
      expect(lines).toContain('> X-Service-API-Key: ****');
      expect(lines).toContain('> GET https://crm.test/api/v1/contacts');
      for (const line of lines) expect(line).not.toMatch(new RegExp(`(^|[\\s":=])${key}($|[\\s",.])`));
    });

    it('a 1-character key that is a digit breaks no number of the answer', async () => {
      const { api } = client([ok({ contacts: [{ id: 'c1', score: 1 }], total: 1 })], { apiKey: '1' });
      expect(await api.request('GET', '/contacts')).toEqual({ contacts: [{ id: 'c1', score: 1 }], total: 1 });
    });
  });

  it('with --dry-run records every request, answers with stand-ins, and sends nothing', async () => {
    const plan: PlannedRequest[] = [];
    const mask = (request: TransportRequest) => ({ ...request, headers: { ...request.headers, 'X-Service-API-Key': '****3456' } });
    const api = new ApiClient({ baseUrl: 'https://crm.test/api/v1', apiKey: 'key_live_abcdefghijklmnopqrstuvwxyz123456', userAgent: 'crm/test', transport: createRecordingTransport(plan, mask) });
    const created = (await api.request('POST', '/contacts', { body: { name: 'A' } })) as { id: string };
    expect(created.id).toBe('<new contact id>');
    await api.request('POST', '/ai/trigger', { body: { contact_id: created.id } });
    expect(plan).toEqual([
      { method: 'POST', url: 'https://crm.test/api/v1/contacts', headers: expect.objectContaining({ 'X-Service-API-Key': '****3456' }), body: { name: 'A' } },
      { method: 'POST', url: 'https://crm.test/api/v1/ai/trigger', headers: expect.any(Object), body: { contact_id: '<new contact id>' } },
    ]);
  });
});

describe('paging', () => {
  const page = (ids: number[], total?: number) => ok({ contacts: ids.map((id) => ({ id: `c${id}` })), ...(total === undefined ? {} : { total }) });
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => from + index);
  const collect = async (items: AsyncIterable<unknown>) => {
    const ids: string[] = [];
    for await (const item of items) ids.push((item as { id: string }).id);
    return ids;
  };
  const offsetsOf = (requests: TransportRequest[]) => requests.map((request) => Number(new URL(request.url).searchParams.get('offset')));

  /**
   * A list on a server that answers each page when it gets to it: `gate(offset)` holds the page at
   * that offset until `release(offset)`, and `before(n, change)` changes the list before the n-th
   * answer, so a test can change the list between two answers.
   */
  function liveList(count: number, options: Partial<ClientOptions> & { withTotal?: boolean } = {}) {
    const ids = range(0, count).map((id) => `c${id}`);
    const offsets: number[] = [];
    const gates = new Map<number, { opened: Promise<void>; open: () => void }>();
    const changes = new Map<number, () => void>();
    const failOnce = new Set<number>();
    /** The signal each page was asked with, by offset. */
    const signals = new Map<number, AbortSignal | undefined>();
    let answered = 0;
    const api = new ApiClient({
      baseUrl: 'https://crm.test/api/v1',
      apiKey: 'key_live_abcdefghijklmnopqrstuvwxyz123456',
      userAgent: 'crm/test',
      sleep: async () => {},
      ...options,
      transport: async (request) => {
        const query = new URL(request.url).searchParams;
        const offset = Number(query.get('offset'));
        offsets.push(offset);
        signals.set(offset, request.signal);
        await gates.get(offset)?.opened;
        changes.get(++answered)?.();
        if (failOnce.delete(offset)) return fail(500, { message: 'busy' });
        const contacts = ids.slice(offset, offset + Number(query.get('limit'))).map((id) => ({ id }));
        return ok(options.withTotal === false ? { contacts } : { contacts, total: ids.length });
      },
    });
    return {
      api,
      ids,
      offsets,
      failOnce,
      signals,
      before: (answer: number, change: () => void) => changes.set(answer, change),
      gate(offset: number) {
        let open = () => {};
        const opened = new Promise<void>((resolve) => (open = resolve));
        gates.set(offset, { opened, open });
      },
      release: (offset: number) => gates.get(offset)!.open(),
    };
  }
  const settle = async (done: () => boolean) => {
    for (let turn = 0; turn < 1000 && !done(); turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(done()).toBe(true);
  };

  it('walks pages of 50, each starting on the last record of the one before, until a short page', async () => {
    const { api, requests } = client([page(range(0, 50)), page(range(49, 99)), page(range(98, 120))]);
    expect(await collect(walk(api, '/contacts', { status: 'lead' }, { key: 'contacts' }))).toEqual(range(0, 120).map((id) => `c${id}`));
    expect(requests.map((request) => new URL(request.url).search)).toEqual([
      '?status=lead&limit=50&offset=0',
      '?status=lead&limit=50&offset=49',
      '?status=lead&limit=50&offset=98',
    ]);
  });

  it('records created at the head push the rest later: what follows the last record taken is taken, nothing twice', async () => {
    const list = liveList(150);
    list.before(2, () => list.ids.unshift('new1', 'new2', 'new3'));
    expect(await collect(walk(list.api, '/contacts', {}))).toEqual(range(0, 150).map((id) => `c${id}`));
    expect(list.offsets).toEqual([0, 49, 98, 147]);
  });

  it.each([
    ['with a total', true],
    ['without a total', false],
  ])('a record deleted before the walk pulls the next page past its first record: the walk looks half a page back, then takes the page it missed (%s)', async (_, withTotal) => {
    const list = liveList(200, { withTotal });
    list.before(2, () => list.ids.splice(10, 1)); // c10, already read
    expect(await collect(walk(list.api, '/contacts', {}))).toEqual(range(0, 200).map((id) => `c${id}`));
    // The page at 49 starts at c50, past c49 (held back): 24 is asked for (c25..c74), then the page
    // at 49 follows on from c74; the pages after it start a little earlier (the margin), then less.
    expect(list.offsets.slice(0, 4)).toEqual([0, 49, 24, 97]);
    expect(list.offsets.length).toBeLessThanOrEqual(7);
  });

  it('a page that asks for a list of exactly 50 records once more finds the end (a total is never trusted to end a walk)', async () => {
    const { api, requests } = client([page(range(0, 50), 50), page([49], 50)]);
    expect(await collect(walk(api, '/contacts', {}))).toHaveLength(50);
    expect(offsetsOf(requests)).toEqual([0, 49]);
  });

  it('fails with WalkOutpaced, after the records it could prove, when the service ignores offset (also for records without ids)', async () => {
    // The first page, then FRUITLESS_PAGES (10) that bring nothing new.
    const same = client(Array.from({ length: 11 }, () => page(range(0, 50))));
    const given: string[] = [];
    const failure = await (async () => {
      for await (const item of walk(same.api, '/contacts', {})) given.push((item as { id: string }).id);
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WalkOutpaced);
    expect(toCliError(failure)).toMatchObject({ exitCode: 1, code: 'walk_outpaced', message: expect.stringContaining('or the service ignores offset') });
    expect(given).toEqual(range(0, 49).map((id) => `c${id}`));
    expect(same.requests).toHaveLength(11);
    const anonymous = () => ok({ contacts: range(0, 50).map((n) => ({ n })) });
    const noIds = client(Array.from({ length: 11 }, anonymous));
    await expect(collect(walk(noIds.api, '/contacts', {}))).rejects.toBeInstanceOf(WalkOutpaced);
  });

  it('--limit is a total: pages of at most 50, the last one asks only for what is left (and one more, to know whether more exist)', async () => {
    const { api, requests } = client([page(range(0, 50), 500), page(range(49, 99), 500), page(range(98, 121), 500)]);
    expect(await collect(walk(api, '/contacts', {}, { limit: 120 }))).toEqual(range(0, 120).map((id) => `c${id}`));
    expect(requests.map((request) => new URL(request.url).search)).toEqual(['?limit=50&offset=0', '?limit=50&offset=49', '?limit=23&offset=98']);
  });

  it('a long walk keeps its pages in flight, each starting on the last record of the one before, none past the total', async () => {
    const list = liveList(230);
    expect(await collect(walk(list.api, '/contacts', {}, { concurrency: PAGES_IN_FLIGHT }))).toEqual(list.ids);
    expect(list.offsets).toEqual([0, 49, 98, 147, 196]);
  });

  it('a page in flight answered before records were created is not trusted: nothing skipped, nothing twice', async () => {
    const list = liveList(200);
    list.gate(49);
    const walked = collect(walk(list.api, '/contacts', {}, { concurrency: PAGES_IN_FLIGHT }));
    // The page at 98 is answered at once (c98..c147); then three contacts are created at the head, and
    // the page at 49 is answered after them (c46..c95). Taken on trust, the page at 98 would skip c96, c97.
    await settle(() => list.offsets.includes(147));
    await new Promise((resolve) => setImmediate(resolve));
    list.ids.unshift('new1', 'new2', 'new3');
    list.release(49);
    const ids = await walked;
    expect(ids.filter((id) => id.startsWith('c'))).toEqual(range(0, 200).map((id) => `c${id}`));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a page in flight answered after records were deleted: nothing skipped', async () => {
    const list = liveList(200);
    list.gate(49);
    const walked = collect(walk(list.api, '/contacts', {}, { concurrency: PAGES_IN_FLIGHT }));
    await settle(() => list.offsets.includes(147));
    list.ids.splice(10, 5); // c10..c14, already written, deleted
    list.release(49);
    expect(await walked).toEqual(range(0, 200).map((id) => `c${id}`));
  });

  it('a walk that ends early (its reader stopped) cancels the pages still in flight', async () => {
    const list = liveList(400);
    for (const offset of [98, 147, 196]) list.gate(offset);
    const taken: string[] = [];
    for await (const record of walk(list.api, '/contacts', {}, { concurrency: PAGES_IN_FLIGHT })) {
      taken.push((record as { id: string }).id);
      if (taken.length === 60) break;
    }
    await settle(() => list.offsets.includes(196));
    for (const offset of [98, 147, 196]) expect(list.signals.get(offset)?.aborted, `page ${offset}`).toBe(true);
    expect(list.signals.get(0)?.aborted).toBe(true); // one signal for the walk: nothing of it is left running
  });

  it('a page in flight that failed is asked for again, with fewer pages in flight; a page asked for alone that fails is the failure', async () => {
    const list = liveList(300, { maxRetries: 0 });
    list.failOnce.add(49);
    expect(await collect(walk(list.api, '/contacts', {}, { concurrency: PAGES_IN_FLIGHT }))).toEqual(list.ids);
    expect(list.offsets.filter((offset) => offset === 49)).toHaveLength(2);
    const alone = liveList(300, { maxRetries: 0 });
    alone.failOnce.add(49);
    await expect(collect(walk(alone.api, '/contacts', {}))).rejects.toMatchObject({ kind: 'status', status: 500 });
  });
});
