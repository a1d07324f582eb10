// Turning values into text: the same rules for table, tsv and csv cells, and for anything from the
// service that reaches a terminal (it never does raw: control characters are replaced).

import { isObject } from '../http/envelope.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** C0 and C1 control characters and DEL: escape sequences that retitle, clear or forge lines. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIME.test(value);
}

/** Text from the service made safe for a terminal: every control character becomes U+FFFD. */
export function safeText(text: string): string {
  return text.replace(CONTROL, '\uFFFD');
}

/** Text of several lines (a bare value): tabs and line feeds stay, every other control character goes. */
export function safeLines(text: string): string {
  return text.replace(CONTROL, (char) => (char === '\n' || char === '\t' ? char : '\uFFFD'));
}

/** JSON text for a terminal: C1 control characters, which JSON.stringify leaves raw, as \u escapes. */
export function escapeC1(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
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

/** Whether a record has the field (directly or by a dotted path). */
export function hasPath(record: unknown, path: string): boolean {
  return getPath(record, path) !== undefined || (isObject(record) && Object.hasOwn(record, path));
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Tab-separated values stay one line a record: tabs, newlines and backslashes are escaped. */
export function tsvCell(value: unknown): string {
  return safeText(cellText(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n'));
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

export function truncate(text: string, width: number): string {
  if (width < 2 || [...text].length <= width) return text;
  return `${[...text].slice(0, width - 1).join('')}…`;
}

/** Money and counts for people: 12500 → "12,500"; a rate of 0..1 as a percentage. */
export function formatNumber(value: number, field = ''): string {
  if (/(^|_)rate$/.test(field) && value >= 0 && value <= 1) return `${(value * 100).toFixed(1)}%`;
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** "by_status" → "By status". */
export function humanize(key: string): string {
  const text = key.replace(/[._]/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
