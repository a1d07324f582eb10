// Value rules every layer shares, the sandbox's included: what a JSON object is, how deep JSON may
// nest, how a span of time is written for people, and how a file crm could not read, write or create is said.

export type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Arrays and objects inside one another a body may hold. JSON.parse reads any depth, but crm's
 * readers and writers (JSON.stringify among them) recurse: a body of 10 KB nested 5,000 deep ended a
 * command with 'crm: Maximum call stack size exceeded' (exit 1). No record of a CRM nests so deep.
 */
export const NESTING_MAX = 500;

/**
 * A parsed body (the service's answer, JSON input, a request body the sandbox reads) nests arrays and
 * objects deeper than `max`. It walks the containers, not the text: a page of 50 records is a
 * hundred or so of them, where a pass over its 15 KB of text in JavaScript cost every command 2-3 ms
 * of start-up. The walk keeps its own stack: it must not recurse.
 */
export function nestsTooDeep(value: unknown, max = NESTING_MAX): boolean {
  const containers: unknown[] = [value];
  const depths: number[] = [1];
  while (containers.length > 0) {
    const container = containers.pop();
    const depth = depths.pop()!;
    if (typeof container !== 'object' || container === null) continue;
    if (depth > max) return true;
    for (const inner of Array.isArray(container) ? container : Object.values(container)) {
      if (typeof inner !== 'object' || inner === null) continue;
      containers.push(inner);
      depths.push(depth + 1);
    }
  }
  return false;
}

/** The first MAX characters of TEXT, never half of a surrogate pair; `cut`: how many were left out. */
export function cutText(text: string, max: number): { kept: string; cut: number } {
  if (text.length <= max) return { kept: text, cut: 0 };
  const end = /[\ud800-\udbff]/.test(text[max - 1]!) ? max - 1 : max;
  return { kept: text.slice(0, end), cut: text.length - end };
}

/** YYYY-MM-DD of a day the calendar has (2026-02-30 and 2026-13-01 are none). */
export function isCalendarDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) && new Date(text).toISOString().startsWith(text);
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

/** The name among `names` that `typed` most likely misspells (for "did you mean"), if one is close enough. */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  const wanted = typed.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(wanted, name.toLowerCase());
    if (!best || distance < best.distance) best = { name, distance };
  }
  // At most a third of the name wrong: "contacts_lsit" is contacts_list, "bogus" is nothing.
  return best && best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance, a swap of two neighbours counting once (Damerau). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = distance;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * Why a file operation failed, in the system's words as `cat` says them ("no such file or directory",
 * "permission denied"), rather than its code (ENOENT, EACCES) or Node's message, which names the
 * system call and the path again.
 */
export function fileProblem(error: unknown): string {
  const { code, message } = (error ?? {}) as NodeJS.ErrnoException;
  if (code === 'EISDIR') return 'is a directory';
  // "not a directory" says nothing of which part: a file stands where a directory of the path should be.
  if (code === 'ENOTDIR') return 'a part of the path is a file, not a directory';
  // Node's message: "ENOENT: no such file or directory, open 'x.csv'".
  const words = code && typeof message === 'string' && message.startsWith(`${code}: `) ? message.slice(code.length + 2).split(',')[0] : undefined;
  return words || code || (typeof message === 'string' ? message : String(error));
}

/**
 * The one way crm words a file it could not use, in one line: "cannot read --data file x.json: no such
 * file or directory". WHAT names the file (a flag's, or what it is for, and its path).
 */
export function cannotUseFile(action: 'read' | 'write' | 'create' | 'delete', what: string, error: unknown): string {
  return `cannot ${action} ${what}: ${typeof error === 'string' ? error : fileProblem(error)}`;
}

/** Below this an epoch number is seconds, from it milliseconds: 1e11 seconds is the year 5138, 1e11 ms is 1973. */
const EPOCH_SECONDS_BELOW = 1e11;

/**
 * A timestamp the service sent, as ISO 8601 text: text as it is; a number (the spec writes ISO text,
 * a workspace may send epoch numbers) as seconds since the epoch below 1e11, else milliseconds.
 * Undefined for anything else. The replica's columns read them by the same rule (src/mirror/schema.ts).
 */
export function timestampText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const date = new Date(Math.abs(value) < EPOCH_SECONDS_BELOW ? value * 1000 : value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
