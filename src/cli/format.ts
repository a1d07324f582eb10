// Turning values into text: the same rules for table, tsv and csv cells, and for anything from the
// service that reaches a terminal or a model. This is the one place that decides what may: never a
// control character (escape sequences retitle the window, write the clipboard, clear the screen or
// forge a `crm:` line), a bidi override (it reorders what follows) or an invisible character (it
// makes two texts look alike, or hides words from the person who reads what the model reads). On a
// terminal they are replaced (U+FFFD) or, in JSON, escaped; into a pipe the data stays exact; to a
// model (crm mcp) they are written as \uXXXX text, in every string, so that the model sees them.

import { isObject } from '../registry/values.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** C0 and C1 control characters and DEL. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/**
 * What a terminal must not get: controls, bidi marks, embeddings, overrides and isolates (U+061C,
 * U+200E-F, U+202A-E, U+2066-9), invisible characters (soft hyphen, zero-width space, word joiner
 * and invisible operators, BOM, Mongolian vowel separator) and tag characters, except a flag's tag
 * sequence (🏴 + tags). Joiners (ZWJ, ZWNJ) and variation selectors stay: emoji and scripts need them.
 */
const UNSAFE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}|[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{E0000}-\u{E007F}]/gu;

export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIME.test(value);
}

/** Text made safe for a terminal: everything in UNSAFE becomes U+FFFD (a flag's tag sequence stays whole). */
export function safeText(text: string): string {
  return text.replace(UNSAFE, (match) => (match.length > 2 ? match : '\uFFFD'));
}

/** Whether a terminal may get TEXT as it is (nothing in UNSAFE). */
export function isSafeText(text: string): boolean {
  return safeText(text) === text;
}

/** Text of several lines (a bare value, a CSV cell): tabs and line feeds stay, the rest as safeText. */
export function safeLines(text: string): string {
  return text.replace(UNSAFE, (match) => (match === '\n' || match === '\t' || match.length > 2 ? match : '\uFFFD'));
}

/** JSON text for a terminal: what UNSAFE names, which JSON.stringify leaves raw (all but C0), as \u escapes: the same JSON. */
export function escapeForTerminal(json: string): string {
  return json.replace(UNSAFE, (match) => (match === '\n' || match.length > 2 ? match : [...match].map(unicodeEscape).join('')));
}

/**
 * What a model is never given raw (crm mcp's results, messages and progress): C0 controls but tab,
 * line feed and carriage return (JSON escapes them on the wire, but structuredContent is the decoded
 * value: a client that shows it would get the ESC of a terminal sequence, the BEL), C1 controls and DEL,
 * the soft hyphen, bidi marks, embeddings, overrides and isolates (U+061C, U+200E-F, U+202A-E,
 * U+2066-9), zero-width and invisible characters (U+180E, U+200B-D, U+2060-U+206F, U+FEFF) and tag
 * characters (text hidden from people, read by models), and the line and paragraph separators
 * (U+2028-9: a line break JSON leaves raw, where it escapes a line feed).
 */
const HIDDEN_FROM_MODEL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\u{E0000}-\u{E007F}]/gu;

/** Text for a model: each character of HIDDEN_FROM_MODEL as \uXXXX text (two for one beyond the BMP). */
export function escapeForModel(text: string): string {
  return text.replace(HIDDEN_FROM_MODEL, unicodeEscape);
}

/** A value from the service for a model: every string in it, keys too, as escapeForModel writes it. */
export function valueForModel(value: unknown): unknown {
  if (typeof value === 'string') return escapeForModel(value);
  if (Array.isArray(value)) return value.map(valueForModel);
  if (!isObject(value)) return value;
  // A key such as __proto__ stays a plain member: fromEntries defines members, it never sets a prototype.
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [escapeForModel(key), valueForModel(member)]));
}

/** \u escapes of a character (two, a surrogate pair, beyond the BMP). */
function unicodeEscape(char: string): string {
  return [...Array(char.length).keys()].map((at) => `\\u${char.charCodeAt(at).toString(16).padStart(4, '0')}`).join('');
}

const JSON_TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|\b(?:true|false)\b|\bnull\b/g;
const SGR = { key: '\u001b[1;34m', string: '\u001b[32m', boolean: '\u001b[33m', null: '\u001b[36m', reset: '\u001b[0m' };

/** Colours JSON text (JSON.stringify's output) as gh does: keys blue, strings green, true/false yellow, null cyan. */
export function colorJson(json: string): string {
  return json.replace(JSON_TOKEN, (token, string: string | undefined, colon: string | undefined) => {
    if (string !== undefined) return colon ? `${SGR.key}${string}${SGR.reset}${colon}` : `${SGR.string}${string}${SGR.reset}`;
    return `${token === 'null' ? SGR.null : SGR.boolean}${token}${SGR.reset}`;
  });
}

/** The same for one line of a message: line breaks become spaces first. */
export function safeLine(text: string): string {
  return safeText(text.replace(/\r?\n|\r/g, ' '));
}

/** Reads `a.b.c` from nested objects; own members only (never `constructor` or `__proto__`). */
export function getPath(record: unknown, path: string): unknown {
  if (isObject(record) && Object.hasOwn(record, path)) return record[path];
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (!isObject(value) || !Object.hasOwn(value, part)) return undefined;
    value = value[part];
  }
  return value;
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Tab-separated values stay one line a record: tabs, newlines and backslashes are escaped, other controls replaced. */
export function tsvCell(value: unknown): string {
  return cellText(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(CONTROL, '\uFFFD');
}

/** Nested objects as dotted keys (`contacts.by_status.lead`); arrays stay whole. */
export function flatten(record: Record<string, unknown>, prefix = ''): Array<[string, unknown]> {
  return Object.entries(record).flatMap(([key, value]): Array<[string, unknown]> =>
    isObject(value) && Object.keys(value).length > 0 ? flatten(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

const UNITS: Array<[string, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  for (const [unit, size] of UNITS) {
    if (abs >= size) {
      const n = Math.floor(abs / size);
      const label = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return seconds < 0 ? `${label} ago` : `in ${label}`;
    }
  }
  return iso;
}

/**
 * Money and counts for people: 12500 → "12,500", two decimals at most; a rate of 0..1 as a
 * percentage. A value that two decimals would show as 0 (0.004, -0.001) keeps two significant
 * digits instead: a non-zero amount never reads as 0 or -0.
 */
export function formatNumber(value: number, field = ''): string {
  if (/(^|_)rate$/.test(field) && value >= 0 && value <= 1) return `${(value * 100).toFixed(1)}%`;
  if (value === 0) return '0';
  if (Math.abs(value) < 0.005) return value.toLocaleString('en-US', { maximumSignificantDigits: 2 });
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** "by_status" → "By status". */
export function humanize(key: string): string {
  const text = key.replace(/[._]/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a, b, c" for a message: the first ten, and how many more. */
export function firstTen(items: readonly string[]): string {
  return `${items.slice(0, 10).join(', ')}${items.length > 10 ? `, and ${items.length - 10} more` : ''}`;
}
