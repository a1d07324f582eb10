// The test doubles' fault scripts (test/helpers/faults.ts): a fault a test scripted and no request
// met fails that test, as the GitHub CLI's httpmock Verify does.
import { describe, expect, it } from 'vitest';
import { FaultScript } from '../helpers/faults.js';

describe('FaultScript', () => {
  it('gives each request the first fault that matches, until it has spoilt `times` requests', () => {
    const script = new FaultScript<{ match?: RegExp; times?: number; status: number }>();
    script.add({ match: /^POST /, status: 500, times: 2 });
    script.add({ status: 429 });
    expect(script.take('GET /api/v1/contacts')?.status).toBe(429);
    expect(script.take('GET /api/v1/contacts')).toBeUndefined();
    expect(script.take('POST /api/v1/contacts')?.status).toBe(500);
    expect(script.take('POST /api/v1/contacts')?.status).toBe(500);
    expect(script.take('POST /api/v1/contacts')).toBeUndefined();
    expect(() => script.verify()).not.toThrow();
  });

  it('fails verification naming each fault not used up, then starts empty', () => {
    const script = new FaultScript<{ match?: RegExp; times?: number; status: number }>();
    script.add({ match: /^GET /, status: 503, times: 3 });
    script.add({ match: /^DELETE /, status: 404 });
    script.take('GET /api/v1/contacts');
    expect(() => script.verify()).toThrow(/\/\^GET \/ \{"status":503\}: 2 of 3 never met\n {2}\/\^DELETE \/ \{"status":404\}: 1 of 1 never met$/);
    expect(() => script.verify()).not.toThrow();
    expect(script.take('GET /api/v1/contacts')).toBeUndefined();
  });

  it('keeps a standing fault (times: Infinity) for every request, and fails only when none met it', () => {
    const script = new FaultScript<{ match?: RegExp; times?: number; status: number }>();
    script.add({ match: /^GET /, status: 200, times: Infinity });
    for (let n = 0; n < 5; n++) expect(script.take('GET /api/v1/contacts')?.status).toBe(200);
    expect(() => script.verify()).not.toThrow();
    script.add({ match: /^GET /, status: 200, times: Infinity });
    expect(() => script.verify()).toThrow(/never met/);
  });
});
