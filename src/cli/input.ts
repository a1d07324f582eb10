// Reading what the user typed into values the service accepts: typed flags, --set, --data, id lists.
// Every failure here is a usage error (exit 2) raised before anything is sent.

import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { TIMEOUT_MAX_SECONDS } from '../registry/global.js';
import { cannotUseFile, fileProblem, formatDuration, isCalendarDate, isObject, NESTING_MAX, nestsTooDeep, timestampText, type JsonObject } from '../registry/values.js';
import { DATE_FORMS, isEmail, type FieldSpec, type ValueType } from '../registry/types.js';
import { usageError } from './errors.js';
import { decodeText } from './encoding.js';
import { isSafeText } from './format.js';
import { readAllBytes, type InStream } from './io.js';

/** Names that would reach an object's prototype: refused wherever crm reads a name. */
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

function isPrototypeName(name: string): boolean {
  return PROTOTYPE_NAMES.has(name);
}

/** Refuses a name that is empty or a prototype name, naming where it came from. */
export function checkName(name: string, label: string): string {
  if (name.trim() === '') throw usageError(`${label}: empty name`);
  if (isPrototypeName(name)) throw usageError(`${label}: "${name}" is not allowed as a name`);
  return name;
}

export function emailProblem(value: string): string | undefined {
  return isEmail(value) ? undefined : `invalid email "${value}"`;
}

/**
 * A number as people write one in decimal: 12, -3, +4, 2.5, .5, 5., 1e3, 2.5E-3, with spaces around
 * it. Not what Number() also reads (0x10, 0o17, 0b11, Infinity, an empty text), nor 1_000 or 5abc.
 */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Whether a DECIMAL text is a whole number as written: 1e3, 5., 5.0 and 1.5e1 are; 2.5 and 1.0000000000000001 are not. */
function isWholeText(text: string): boolean {
  const [, whole = '', fraction = '', exponent = '0'] = /^[+-]?(\d*)\.?(\d*)(?:e([+-]?\d+))?$/i.exec(text)!;
  const point = whole.length + Number(exponent);
  return /^0*$/.test((whole + fraction).slice(Math.max(0, point)));
}

/**
 * The number a flag's text holds, within bounds (an integer's must be whole), or a usage error
 * naming the flag and the text: what is not a decimal number, what is out of bounds, and what a
 * double cannot keep (1e400 is Infinity; an integer beyond 2^53 - 1, such as 12345678901234567890,
 * would be sent changed), as JSON input's numbers are checked (checkJsonInput).
 */
function parseNumber(raw: string, label: string, bounds: { integer?: boolean; min?: number; max?: number; expected?: string } = {}): number {
  const { integer = false, min, max } = bounds;
  const kind = integer ? 'an integer' : 'a number';
  const range = min === undefined ? (max === undefined ? '' : ` <= ${max}`) : max === undefined ? ` >= ${min}` : ` between ${min} and ${max}`;
  const invalid = (why = `expected ${bounds.expected ?? `${kind}${range}`}`) => usageError(`invalid ${label} "${raw}" (${why})`);
  const text = raw.trim();
  if (!DECIMAL.test(text)) throw invalid();
  // -0 is 0: JSON and a query string write it so.
  const value = Number(text) + 0;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) throw invalid();
  if (!Number.isFinite(value)) throw invalid('a number too large to send');
  if (value === 0 && /[1-9]/.test(text.split(/e/i)[0]!)) throw invalid('a number too small to send: it reads as 0');
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) throw invalid(`an integer beyond ${Number.MAX_SAFE_INTEGER}: it would be sent changed`);
  if (integer && !isWholeText(text)) throw invalid();
  return value;
}

/** An integer within bounds, from a flag. */
export function parseInteger(raw: string, label: string, min: number, max?: number): number {
  return parseNumber(raw, label, { integer: true, min, max });
}

const MAX_RELATIVE_DAYS = 36_525; // a hundred years

/** The day (YYYY-MM-DD) an instant falls on in a time zone (IANA name; the machine's when undefined). */
export function localDay(instant: Date | number, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)!.value;
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

/**
 * The day a date the service sent is on, for the user: a date (YYYY-MM-DD) is that day wherever
 * one is; a timestamp with a time, or an epoch number (timestampText's rule), is the day it falls on
 * in the time zone. Undefined for anything else.
 */
export function calendarDay(given: unknown, timeZone?: string): string | undefined {
  const value = timestampText(given);
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d/.test(value)) return value.slice(0, 10);
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? value.slice(0, 10) : localDay(instant, timeZone);
}

/** A date and time as RFC 3339 writes it, its seconds and zone optional here (each is checked). */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * One of DATE_FORMS, or a full ISO timestamp with its zone (sent as given), spaces around it
 * ignored. A day the calendar lacks, a time without a zone (whose day depends on where it is read)
 * and a time that is none (25:00, a leap second, +24:00) are refused, saying which.
 */
export function parseDate(raw: string, label: string, now: Date, timeZone?: string): string {
  const given = raw.trim();
  const text = given.toLowerCase();
  const relative = /^\+?(\d{1,9})([dw])$/.exec(text);
  const offsetDays = text === 'today' ? 0 : text === 'tomorrow' ? 1 : relative ? Number(relative[1]) * (relative[2] === 'w' ? 7 : 1) : undefined;
  if (offsetDays !== undefined && offsetDays <= MAX_RELATIVE_DAYS) {
    const [year, month, date] = localDay(now, timeZone).split('-').map(Number) as [number, number, number];
    return new Date(Date.UTC(year, month - 1, date + offsetDays)).toISOString().slice(0, 10);
  }
  const invalid = (why: string) => usageError(`invalid ${label} "${raw}" (${why})`);
  const stamp = TIMESTAMP.exec(given);
  const day = stamp ? stamp[1]! : /^\d{4}-\d{2}-\d{2}$/.test(given) ? given : undefined;
  if (day !== undefined && !isCalendarDate(day)) throw invalid(`no such date: ${day}`);
  if (!stamp) {
    if (day !== undefined) return day;
    throw invalid(`expected ${offsetDays !== undefined ? `at most +${MAX_RELATIVE_DAYS}d` : DATE_FORMS}`);
  }
  if (stamp[3] === undefined) throw invalid('a time needs its zone: Z, or an offset such as +02:00');
  if (stamp[2] === '60') throw invalid('a leap second, which crm cannot place: give :59');
  if (Number.isNaN(Date.parse(given))) throw invalid('no such time');
  return given;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

/** 30s, 5m, 1h, or a number of seconds; as milliseconds, at least `minMs`. */
function parseDuration(raw: string, label: string, minMs = 1): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match?.[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = match ? Math.round(Number(match[1]) * unit) : NaN;
  if (!Number.isFinite(ms) || ms <= 0) throw usageError(`invalid ${label} "${raw}" (expected a duration such as 30s, 5m or 1h)`);
  // The longest a timer waits.
  if (ms > MAX_TIMER_MS) throw usageError(`invalid ${label} "${raw}" (at most ${formatDuration(MAX_TIMER_MS)})`);
  if (ms < minMs) throw usageError(`invalid ${label} "${raw}" (at least ${minMs % 1000 === 0 ? `${minMs / 1000}s` : `${minMs}ms`})`);
  return ms;
}

/** A value the spec fixes: one of `choices`, matched without regard to case. */
export function parseChoice(raw: string, choices: readonly string[], label: string): string {
  const choice = choices.find((candidate) => candidate.toLowerCase() === raw.trim().toLowerCase());
  if (choice === undefined) throw usageError(`invalid ${label} "${raw}" (expected one of: ${choices.join(', ')})`);
  return choice;
}

/** A comma-separated list; with choices, every item must be one of them. */
function parseList(raw: string, label: string, choices?: readonly string[]): string[] {
  const items = [...new Set(raw.split(',').map((item) => item.trim()).filter(Boolean))];
  if (items.length === 0) throw usageError(`invalid ${label} "${raw}" (expected a comma-separated list${choices ? ` of: ${choices.join(', ')}` : ''})`);
  return choices ? items.map((item) => parseChoice(item, choices, label)) : items;
}

/** The array a text holds when it is a JSON array of strings and numbers; else undefined. */
function jsonArrayIn(text: string): unknown[] | undefined {
  if (!text.trimStart().startsWith('[')) return undefined;
  const value = parseJsonOrUndefined(text);
  return Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number') ? value : undefined;
}

type Value = string | number | boolean | string[] | unknown;

/** What "today" is for a date flag: the Context's clock, and the zone crm decides days in (the machine's when undefined). */
export interface Today {
  now: Date;
  timeZone?: string;
}

/**
 * Converts a flag's text (or an already typed value, from an MCP tool call) to the field's type.
 * Values the spec fixes (`choices`) are checked here; values a workspace defines (`known`) are not,
 * only trimmed, their case kept: a workspace may spell them otherwise.
 */
export function parseValue(raw: unknown, field: Pick<FieldSpec, 'type' | 'choices' | 'known' | 'min' | 'max'>, label: string, today?: Today): Value {
  if (raw === undefined || raw === null) return raw;
  const type: ValueType = field.type;
  if (type === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    return parseChoice(String(raw), ['true', 'false'], label) === 'true';
  }
  if (type === 'json') return typeof raw === 'string' ? parseJsonValue(raw, label) : raw;
  if (type === 'ids' || type === 'list') {
    // A JSON array as text is what -o csv writes for a list (`["lst_a","lst_b"]`, `[]`): an export reads back.
    const listed = typeof raw === 'string' ? jsonArrayIn(raw) : raw;
    const items = Array.isArray(listed) ? listed.map((item) => String(item).trim()).filter(Boolean) : parseList(String(raw), label, field.choices);
    return field.choices ? items.map((item) => parseChoice(item, field.choices!, label)) : items;
  }
  if (typeof raw === 'number' && (type === 'integer' || type === 'number')) return parseValue(String(raw), field, label);
  if (typeof raw !== 'string') throw usageError(`invalid ${label}: expected text, got ${Array.isArray(raw) ? 'a list' : typeof raw}`);
  if (field.choices) return parseChoice(raw, field.choices, label);
  switch (type) {
    case 'email': {
      const problem = emailProblem(raw.trim());
      if (problem) throw usageError(`${label}: ${problem}`);
      return raw.trim();
    }
    case 'integer':
      return parseInteger(raw, label, field.min ?? 0, field.max);
    case 'number':
      return parseNumber(raw, label, { min: field.min, max: field.max });
    case 'date':
      // today, +3d: the day the Context's clock is on where the user is, never the machine's own clock.
      if (!today) throw new Error(`${label}: a date is read against the Context's clock (parseValue's today)`);
      return parseDate(raw, label, today.now, today.timeZone);
    case 'duration':
      return parseDuration(raw, label, field.min);
    case 'id':
      return parseId(raw, label);
    case 'file':
      if (raw.trim() === '') throw usageError(`${label}: empty file name`);
      return raw;
    default:
      // A value a workspace defines (a status, a stage) has no space around it: ' won' would select nothing.
      return field.known ? raw.trim() : raw;
  }
}

/**
 * Characters an id may have: far more than any service's (the sandbox's are 21), well under the
 * request line of about 8 KiB most servers take (a longer one is refused, 414 or 431, after it is sent).
 */
const ID_MAX_LENGTH = 1_024;

/**
 * An id: the service defines its format, but an id is one path segment, so it never holds what
 * would take a request elsewhere on a server that decodes it (`/`, `\\`, `?`, `#`), whitespace
 * (two ids pasted as one), a control, bidi or invisible character, nor more than ID_MAX_LENGTH
 * characters; nor is it `.`, `..` or `-` (stdin's name).
 */
export function parseId(raw: string, label: string): string {
  const id = raw.trim();
  if (id === '') throw usageError(`invalid ${label} ${JSON.stringify(raw)} (${raw === '' ? 'empty' : 'only whitespace'})`);
  // Not quoted back: a line of megabytes (a file that is no list of ids) would fill the terminal.
  if (id.length > ID_MAX_LENGTH) throw usageError(`invalid ${label} (${id.length.toLocaleString('en-US')} characters: an id is at most ${ID_MAX_LENGTH.toLocaleString('en-US')})`);
  if (id === '.' || id === '..') throw usageError(`invalid ${label} ${JSON.stringify(raw)} (a step in a path, not an id)`);
  if (id === '-') throw usageError(`invalid ${label} "-" (one id is taken here, not ids from stdin)`);
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) throw usageError(`invalid ${label} (it holds a control character)`);
  // Pasted in unseen (a zero-width space, a bidi mark): the service would answer "not found" for an id that looks right.
  if (!isSafeText(id)) throw usageError(`invalid ${label} (it holds a bidi or invisible character)`);
  const character = /[\s/\\?#]/.exec(id)?.[0];
  if (character) throw usageError(`invalid ${label} ${JSON.stringify(id)} (an id holds no ${/\s/.test(character) ? 'whitespace' : `"${character}"`})`);
  return id;
}

function parseJsonValue(text: string, label: string): unknown {
  try {
    return checkJsonInput(JSON.parse(text), label);
  } catch (error) {
    if (error instanceof SyntaxError) throw usageError(`invalid JSON in ${label}: ${error.message}`);
    throw error;
  }
}

/**
 * Refuses what a parsed JSON input cannot be sent as it was written, naming the field (a dotted
 * path): a prototype name as a key anywhere; a number JSON.parse read as Infinity (`1e400`, which
 * JSON.stringify would send as null); an integer beyond 2^53 - 1, which JSON.parse rounded (an id of
 * another system, such as 12345678901234567890, would be sent as 12345678901234567000).
 */
export function checkJsonInput<T>(value: T, label: string, path = ''): T {
  // Deeper than any record, and than crm's readers and writers recurse ('Maximum call stack size exceeded'): refused before any of them walks it.
  if (nestsTooDeep(value)) throw usageError(`${label}: ${nameOfDeepest(value, path)} nests arrays and objects deeper than ${NESTING_MAX} levels`);
  checkMembers(value, label, path);
  return value;
}

function checkMembers(value: unknown, label: string, path: string): void {
  if (typeof value === 'number') checkNumber(value, label, path);
  else if (Array.isArray(value)) value.forEach((item, index) => checkMembers(item, label, `${path}[${index}]`));
  else if (isObject(value)) {
    for (const [key, member] of Object.entries(value)) {
      if (isPrototypeName(key)) throw usageError(`${label}: "${key}" is not allowed as a field name`);
      checkMembers(member, label, path === '' ? key : `${path}.${key}`);
    }
  }
}

/** The member of an object that nests too deep, by name ("the value" when it is not one member's). */
function nameOfDeepest(value: unknown, path: string): string {
  const member = isObject(value) ? Object.keys(value).find((key) => nestsTooDeep(value[key], NESTING_MAX - 1)) : undefined;
  const name = member === undefined ? path : path === '' ? member : `${path}.${member}`;
  return name === '' ? 'the value' : `"${name}"`;
}

function checkNumber(value: number, label: string, path: string): void {
  const where = `${label}: ${path === '' ? 'the value' : `"${path}"`}`;
  if (!Number.isFinite(value)) throw usageError(`${where} is a number too large to send (it reads as ${value}, which JSON sends as null)`);
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
    throw usageError(`${where} is an integer beyond ${Number.MAX_SAFE_INTEGER}: it would be sent changed`, 'if it is an id, give it as a string, in double quotes');
  }
}

/** `--set key=value`: the value is JSON when it parses as JSON, else a string; dotted keys nest. */
export function parseSetPairs(pairs: readonly string[], label = '--set'): JsonObject {
  const result: JsonObject = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usageError(`invalid ${label} "${pair}" (expected key=value)`);
    const key = pair.slice(0, eq).trim();
    const text = pair.slice(eq + 1);
    const path = key.split('.');
    if (path.some((part) => part === '')) throw usageError(`invalid ${label} key "${key}"`);
    for (const part of path) if (isPrototypeName(part)) throw usageError(`invalid ${label} key "${key}" ("${part}" is not allowed as a name)`);
    let value: unknown = text;
    try {
      value = checkJsonInput(JSON.parse(text), label, key);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      // Not JSON: the text itself.
    }
    setPath(result, path, value);
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

/** The text of a file argument: a path, or - for stdin. Unreadable files and text that is not UTF-8 are usage errors. */
export async function readSource(source: string, stdin: InStream, label: string): Promise<string> {
  // A byte order mark (editors on Windows write one) is not part of the text: JSON.parse refuses it.
  return decodeText(await readSourceBytes(source, stdin, label), source === '-' ? `${label} (stdin)` : `${label} ${source}`).text;
}

/** What read each stdin already: it can be read once, and a second `-` would read nothing. */
const stdinReaders = new WeakMap<InStream, string>();

/** The bytes of a file argument: a path, or - for stdin (once: two `-` of one command are exit 2). */
export async function readSourceBytes(source: string, stdin: InStream, label: string): Promise<Buffer> {
  if (source === '-') {
    const first = stdinReaders.get(stdin);
    if (first !== undefined) throw usageError(`${first} and ${label} both read stdin`, 'give one of them a file');
    stdinReaders.set(stdin, label);
    return readAllBytes(stdin);
  }
  try {
    return readFileSync(source);
  } catch (error) {
    throw usageError(cannotUseFile('read', `${label} ${source}`, error));
  }
}

/**
 * A file crm will write (--errors, --checkpoint), checked before anything is sent: its directory
 * exists and is writable, and the file, when it exists, is a writable file. `replaced`: a regular
 * file is written beside itself and renamed over (src/config/atomic.ts), which its directory (a
 * link's target's) must allow even when the file exists; a pipe or a device (/dev/stderr) is written
 * where it is.
 */
export function checkOutputFileWritable(path: string, label: string, { replaced = false } = {}): void {
  const problem = (why: unknown) => usageError(cannotUseFile('write', `${label} ${path}`, why));
  let exists = true;
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw problem(error);
    exists = false;
  }
  if (exists) {
    const stats = statSync(path);
    if (stats.isDirectory()) throw problem('is a directory');
    if (!replaced || !stats.isFile()) return;
  }
  const directory = dirname(exists ? realpathSync(path) : path);
  try {
    accessSync(directory, constants.W_OK);
  } catch (error) {
    throw problem((error as NodeJS.ErrnoException).code === 'ENOENT' ? missingDirectory(path) : `the directory ${directory}: ${fileProblem(error)}`);
  }
}

/** Why a file cannot be created: its directory does not exist. */
export const missingDirectory = (path: string): string => `the directory ${dirname(path)} does not exist`;

/** `--data JSON`, `--data @file` or `--data -` (stdin): a JSON object. */
export async function readDataOption(value: string, stdin: InStream): Promise<JsonObject> {
  const fromFile = value === '-' || value.startsWith('@');
  const source = value === '-' ? 'stdin' : fromFile ? value.slice(1) : 'the argument';
  const text = fromFile ? await readSource(value === '-' ? '-' : value.slice(1), stdin, value === '-' ? '--data -' : '--data file') : value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usageError(`invalid JSON in --data (${source}): ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw usageError(`--data must be a JSON object (${source} holds ${Array.isArray(parsed) ? 'an array' : typeof parsed})`);
  return checkJsonInput(parsed, '--data');
}

/** Later layers win; nested objects merge key by key. Keys were checked for prototype names. */
export function deepMerge(...layers: JsonObject[]): JsonObject {
  const result: JsonObject = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      result[key] = isObject(value) && isObject(result[key]) ? deepMerge(result[key] as JsonObject, value) : value;
    }
  }
  return result;
}

/** One value read from a list of records: the text, and where it was (for a message). */
interface ListedValue {
  value: string;
  /** "stdin line 3", "ids.txt item 2". */
  where: string;
}

/**
 * The records a text lists, as crm's own output gives them, so that one crm command can feed
 * another: one value a line (`-q`; blank lines and # comments skipped; a JSON string a line, as jq
 * prints ids, is its text), JSON (an array of ids or of records, or one record: `--json`), NDJSON
 * (a record a line), TSV (a record a line, its id the
 * first cell; one record as key<TAB>value lines, its id on the `id` line), or CSV with a header row
 * naming an `id` column (`-o csv`). A record gives its `id`. A line that is none of these is a usage
 * error naming it.
 */
export async function parseListedValues(text: string, source: string): Promise<ListedValue[]> {
  const trimmed = text.trim();
  if (isCsvWithIds(trimmed)) return csvIds(trimmed, source);
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    const whole = parseJsonOrUndefined(trimmed);
    if (Array.isArray(whole)) return whole.map((item, index) => ({ value: idOf(item, `${source} item ${index + 1}`), where: `${source} item ${index + 1}` }));
    if (whole !== undefined) return [{ value: idOf(whole, source), where: source }];
    if (trimmed.startsWith('[')) throw usageError(`invalid JSON array in ${source}`);
  }
  const lines = text.split(/\r?\n/).map((line, index) => ({ line: line.trim(), where: `${source} line ${index + 1}` })).filter(({ line }) => line !== '' && !line.startsWith('#'));
  // One record as tsv prints it: key<TAB>value lines, the id on its own.
  const idLine = lines[0]?.line.startsWith('id\t') ? lines[0] : undefined;
  if (idLine) return [{ value: unescapeTsv(idLine.line.slice(3)), where: idLine.where }];
  return lines.map(({ line, where }) => {
    if (line.startsWith('{')) {
      const record = parseJsonOrUndefined(line);
      if (record === undefined) throw usageError(`${where}: invalid JSON`, 'give one id a line, or what a crm command printed (--json, -o ndjson, tsv)');
      return { value: idOf(record, where), where };
    }
    // An id as a JSON string (what jq prints without -r): the id, not its quotes.
    if (line.startsWith('"')) {
      const id = parseJsonOrUndefined(line);
      if (typeof id === 'string') return { value: id, where };
    }
    return { value: line.includes('\t') ? unescapeTsv(line.slice(0, line.indexOf('\t'))) : line, where };
  });
}

/**
 * What `-o csv` printed: a header row (no tab) whose comma-separated names include `id`. A list of
 * names with commas ("Acme, Inc.") names no `id` column.
 */
function isCsvWithIds(text: string): boolean {
  const header = text.slice(0, text.search(/\r?\n|$/));
  return !header.includes('\t') && header.split(',').some((name) => name.trim().replace(/^"(.*)"$/, '$1') === 'id');
}

/** The `id` cell of each row of CSV (quoted cells, line breaks in them: csv-parse, loaded only here). */
async function csvIds(text: string, source: string): Promise<ListedValue[]> {
  const { parse } = await import('csv-parse/sync');
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    throw usageError(`${source}: not valid CSV: ${(error as Error).message}`);
  }
  const column = rows[0]!.map((name) => name.trim()).indexOf('id');
  return rows.slice(1).map((row, index) => {
    const where = `${source} row ${index + 1}`;
    const value = row[column]?.trim() ?? '';
    if (value === '') throw usageError(`${where}: a record without an "id"`);
    return { value, where };
  });
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return checkJsonInput(JSON.parse(text), 'the input');
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** An id as given (a string or a number), or a record's `id`. */
function idOf(item: unknown, where: string): string {
  if (typeof item === 'string' || typeof item === 'number') return String(item);
  const id = isObject(item) ? item.id : undefined;
  if (typeof id === 'string' || typeof id === 'number') return String(id);
  throw usageError(`${where}: ${isObject(item) ? 'a record without an "id"' : 'neither an id nor a record'}`);
}

/** A tsv cell as crm writes it (./format.ts tsvCell), back to its text. */
function unescapeTsv(cell: string): string {
  return cell.replace(/\\([\\tnr])/g, (_, code: string) => ({ t: '\t', n: '\n', r: '\r' })[code] ?? '\\');
}

/** A request timeout in seconds: a millisecond at least (what a timer can wait), at most the registry's bound. */
export function parseTimeout(raw: string, label: string): number {
  return parseNumber(raw, label, { min: 0.001, max: TIMEOUT_MAX_SECONDS, expected: `seconds, at least 0.001 and at most ${TIMEOUT_MAX_SECONDS}` });
}
