import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, shouldRetry } from '../../src/http/retry.js';

describe('shouldRetry', () => {
  it('retries idempotent requests on 429, 502, 503, 504 and network errors', () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      for (const status of [429, 502, 503, 504]) expect(shouldRetry(method, { kind: 'status', status })).toBe(true);
      expect(shouldRetry(method, { kind: 'network', delivered: true })).toBe(true);
    }
  });
  it('never retries client errors or 500', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 500]) expect(shouldRetry('GET', { kind: 'status', status })).toBe(false);
  });
  it('retries a POST only when it certainly was not delivered, or on 429', () => {
    expect(shouldRetry('POST', { kind: 'network', delivered: false })).toBe(true);
    expect(shouldRetry('POST', { kind: 'network', delivered: true })).toBe(false);
    expect(shouldRetry('POST', { kind: 'status', status: 503 })).toBe(false);
    expect(shouldRetry('POST', { kind: 'status', status: 502 })).toBe(false);
    expect(shouldRetry('POST', { kind: 'status', status: 429 })).toBe(true);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially with jitter in [step/2, step] and is capped', () => {
    expect(backoffDelay(0, () => 0)).toBe(150);
    expect(backoffDelay(0, () => 1)).toBe(300);
    expect(backoffDelay(2, () => 0)).toBe(600);
    expect(backoffDelay(2, () => 1)).toBe(1200);
    expect(backoffDelay(20, () => 1)).toBe(5000);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter(['7'])).toBe(7000);
  });
  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
