// Turning values into text cells: the same rules for table, tsv and csv.

import { isObject } from '../http/envelope.js';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIME.test(value);
}

/** Reads `a.b.c` from nested objects. */
export function getPath(record: unknown, path: string): unknown {
  if (isObject(record) && path in record) return record[path];
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (!isObject(value)) return undefined;
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

/** Tab-separated values stay one line a record: tabs, newlines and backslashes are escaped. */
export function tsvCell(value: unknown): string {
  return cellText(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

/** RFC 4180: quote a field holding a comma, quote or line break; double the quotes inside. */
export function csvCell(value: unknown): string {
  const text = cellText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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
  if (width < 2 || text.length <= width) return text;
  return `${text.slice(0, width - 1)}…`;
}

/** Money and counts for people: 12500 → "12,500". */
export function formatNumber(value: unknown): string {
  return typeof value === 'number' ? value.toLocaleString('en-US', { maximumFractionDigits: 2 }) : cellText(value);
}
