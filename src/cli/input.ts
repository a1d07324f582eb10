// Reading what the user typed into values the service accepts: typed flags, --set, --data.
// Every failure here is a usage error (exit 2) raised before anything is sent.

import { readFileSync } from 'node:fs';
import { isObject, type JsonObject } from '../http/envelope.js';
import type { FieldType } from '../api/endpoints.js';
import { usageError } from './errors.js';
import { readAll, type InStream } from './io.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

export function emailProblem(value: string): string | undefined {
  return isEmail(value) ? undefined : `invalid email "${value}"`;
}

/** An integer within bounds, from a flag. */
export function parseInteger(raw: string, label: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `between ${min} and ${max}`;
    throw usageError(`invalid ${label} "${raw}" (expected an integer ${range})`);
  }
  return value;
}

/** YYYY-MM-DD, a full ISO timestamp, or today / tomorrow / +Nd / +Nw. */
export function parseDate(raw: string, label: string, now: Date = new Date()): string {
  const text = raw.trim().toLowerCase();
  const relative = /^\+?(\d+)([dw])$/.exec(text);
  const offsetDays = text === 'today' ? 0 : text === 'tomorrow' ? 1 : relative ? Number(relative[1]) * (relative[2] === 'w' ? 7 : 1) : undefined;
  if (offsetDays !== undefined) {
    const day = new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate() + offsetDays));
    return day.toISOString().slice(0, 10);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    const date = new Date(`${raw}T00:00:00Z`);
    if (!Number.isNaN(date.getTime()) && date.toISOString().startsWith(raw)) return raw;
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(raw) && !Number.isNaN(Date.parse(raw))) {
    return raw;
  }
  throw usageError(`invalid ${label} "${raw}" (expected YYYY-MM-DD, today, tomorrow or +Nd)`);
}

/** Converts a flag's text to the field's type. */
export function parseTyped(raw: string | boolean, type: FieldType | undefined, label: string): unknown {
  if (typeof raw === 'boolean') return raw;
  switch (type) {
    case 'email': {
      const problem = emailProblem(raw);
      if (problem) throw usageError(`${label}: ${problem}`);
      return raw;
    }
    case 'integer':
      return parseInteger(raw, label, 0);
    case 'number': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value)) throw usageError(`invalid ${label} "${raw}" (expected a number)`);
      return value;
    }
    case 'date':
      return parseDate(raw, label);
    default:
      return raw;
  }
}

/** `--set key=value`: the value is JSON when it parses as JSON, else a string; dotted keys nest. */
export function parseSetPairs(pairs: string[]): JsonObject {
  const result: JsonObject = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usageError(`invalid --set "${pair}" (expected key=value)`);
    const key = pair.slice(0, eq).trim();
    const text = pair.slice(eq + 1);
    if (key.split('.').some((part) => part === '')) throw usageError(`invalid --set key "${key}"`);
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // Not JSON: the text itself.
    }
    setPath(result, key.split('.'), value);
  }
  return result;
}

function setPath(target: JsonObject, path: string[], value: unknown): void {
  let node = target;
  for (const part of path.slice(0, -1)) {
    if (!isObject(node[part])) node[part] = {};
    node = node[part] as JsonObject;
  }
  node[path.at(-1)!] = value;
}

/** `--data JSON`, `--data @file` or `--data -` (stdin): a JSON object. */
export async function readDataOption(value: string, stdin: InStream): Promise<JsonObject> {
  let text: string;
  let source: string;
  if (value === '-') {
    text = await readAll(stdin);
    source = 'stdin';
  } else if (value.startsWith('@')) {
    source = value.slice(1);
    try {
      text = readFileSync(source, 'utf8');
    } catch (error) {
      throw usageError(`cannot read --data file ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else {
    text = value;
    source = 'the argument';
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usageError(`invalid JSON in --data (${source}): ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw usageError(`--data must be a JSON object (${source} holds ${Array.isArray(parsed) ? 'an array' : typeof parsed})`);
  return parsed;
}

/** Later layers win; nested objects merge key by key. */
export function deepMerge(...layers: JsonObject[]): JsonObject {
  const result: JsonObject = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      result[key] = isObject(value) && isObject(result[key]) ? deepMerge(result[key] as JsonObject, value) : value;
    }
  }
  return result;
}

/** Ids from text: one a line (blank lines and # comments skipped), or a JSON array of strings. */
export function parseIdList(text: string, source: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw usageError(`invalid JSON array in ${source}: ${(error as Error).message}`);
    }
    if (!Array.isArray(parsed) || parsed.some((item) => typeof item !== 'string' && typeof item !== 'number')) {
      throw usageError(`${source} must be a JSON array of ids`);
    }
    return parsed.map(String).map((id) => id.trim()).filter(Boolean);
  }
  return trimmed
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}
