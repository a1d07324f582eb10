// Value rules every layer shares, the sandbox's included: what a JSON object is, and how a span of
// time is written for people.

export type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TEN_MINUTES_MS = 600_000;

/**
 * A span of time for people: 250ms, 1.5s, 45s, 600s, 12m30s, 1h05m. Seconds up to ten minutes (a
 * Retry-After is given in seconds, and says so); minutes and hours beyond.
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms <= TEN_MINUTES_MS) return `${Math.round(ms / 100) / 10}s`;
  const seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const two = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}h${two(minutes)}m` : `${minutes}m${two(seconds % 60)}s`;
}
