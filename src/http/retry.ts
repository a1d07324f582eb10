// When to try a request again, and how long to wait first. Pure functions: the core applies them.

export const DEFAULT_MAX_RETRIES = 3;
/** A Retry-After longer than this is not waited out in a script (exit 5 at once; --wait waits). */
export const RETRY_AFTER_CAP_MS = 10_000;
/** Even with --wait, a Retry-After longer than this is not waited out (exit 5 saying when). */
export const MAX_WAIT_MS = 3_600_000;
/** Bulk work waits out short 429s for one request up to this long in all (the service's published window is a minute). */
export const RATE_LIMIT_BUDGET_MS = 60_000;

/**
 * How the waits between attempts grow: doubling from `baseMs` up to `maxMs`; with jitter, half of
 * each step is random ("equal jitter"), so that clients refused together do not come back together.
 */
interface Backoff {
  baseMs: number;
  maxMs: number;
  jitter: boolean;
}

/** The retries of a request: the core's, and watch's forwards. */
const REQUEST_BACKOFF: Backoff = { baseMs: 300, maxMs: 5_000, jitter: true };

export type Outcome =
  | { kind: 'status'; status: number }
  /** A transport failure; `delivered` is false only when the request certainly never reached the service. */
  | { kind: 'network'; delivered: boolean };

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** GET, HEAD, PUT, PATCH and DELETE repeat safely: our PATCH bodies set absolute values. */
export function isIdempotent(method: string): boolean {
  return method !== 'POST';
}

export function shouldRetry(method: string, outcome: Outcome): boolean {
  if (outcome.kind === 'network') return isIdempotent(method) || !outcome.delivered;
  if (outcome.status === 429) return true; // refused before it was processed
  return isIdempotent(method) && RETRYABLE_STATUSES.has(outcome.status);
}

/**
 * The wait before attempt `attempt + 1`: the one backoff of crm, for a request's retries (by
 * default) and for the loops that wait between tries of their own (watch's polls).
 */
export function backoffDelay(attempt: number, random: () => number = Math.random, backoff: Backoff = REQUEST_BACKOFF): number {
  const step = Math.min(backoff.maxMs, backoff.baseMs * 2 ** attempt);
  return backoff.jitter ? Math.round(step / 2 + random() * (step / 2)) : step;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.min(Number.MAX_SAFE_INTEGER, Math.round(Number(trimmed) * 1000));
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
