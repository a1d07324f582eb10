// The service answers {data, error}. Workspaces differ in the details, so the reading here is tolerant:
// a body without the envelope is taken as the data itself, and an error may be a string or an object.

import { cutText, isObject, type JsonObject } from '../registry/values.js';

export interface ErrorMember {
  message: string;
  code?: string;
}

interface ParsedBody {
  data: unknown;
  /** Non-null when the service reported a failure. */
  error: ErrorMember | null;
}

/** A record's id as text, when it has one (a string or a number). */
export function recordId(record: unknown): string | undefined {
  if (!isObject(record)) return undefined;
  return typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : undefined;
}

/** When a record was created, as the service wrote it (text), when it says. */
export function recordCreatedAt(record: unknown): string | undefined {
  return isObject(record) && typeof record.created_at === 'string' ? record.created_at : undefined;
}

/** Throws a SyntaxError for a body that is not JSON (the caller maps that to a malformed response). */
export function parseBody(text: string): ParsedBody {
  return readEnvelope(text.trim() === '' ? null : JSON.parse(text));
}

/** The envelope of an already parsed body (null: an empty body). */
export function readEnvelope(json: unknown): ParsedBody {
  if (json === null) return { data: null, error: null };
  if (isObject(json) && ('data' in json || 'error' in json)) {
    return { data: json.data ?? null, error: json.error === true ? readErrorFlag(json) : readError(json.error) };
  }
  // No envelope: a bare payload, or an error body such as {"message": "..."}.
  return { data: json, error: null };
}

/**
 * What of the service's message is kept: it becomes a line for a person or a model (stderr, the
 * --json error, an MCP tool error), and a message of megabytes is no line.
 */
const MESSAGE_MAX_CHARS = 2_000;

export function readError(error: unknown): ParsedBody['error'] {
  const read = readErrorWhole(error);
  if (!read) return read;
  const { kept, cut } = cutText(read.message, MESSAGE_MAX_CHARS);
  return cut === 0 ? read : { ...read, message: `${kept}… (${cut} more characters)` };
}

/**
 * `"error": true` is a flag, not a message: the message, when there is one, is beside it
 * (`{"error": true, "message": "..."}`). Without one the message is empty, and the status says it.
 */
function readErrorFlag(body: JsonObject): ErrorMember {
  const message = firstString(body, ['message', 'detail', 'description', 'title']);
  const code = firstString(body, ['code', 'type']);
  return { message: readError(message ?? '')?.message ?? '', ...(code ? { code } : {}) };
}

function readErrorWhole(error: unknown): ParsedBody['error'] {
  if (error === null || error === undefined || error === false) return null;
  if (typeof error === 'string') return { message: error };
  if (isObject(error)) {
    const message = firstString(error, ['message', 'error', 'detail', 'description', 'title']);
    const code = firstString(error, ['code', 'type']);
    return { message: message ?? JSON.stringify(error), ...(code ? { code } : {}) };
  }
  if (Array.isArray(error)) return { message: error.map((e) => readError(e)?.message ?? String(e)).join('; ') };
  return { message: String(error) };
}

function firstString(object: JsonObject, keys: string[]): string | undefined {
  for (const key of keys) {
    const value = object[key];
    if (typeof value === 'string' && value) return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

export interface ListPage {
  items: unknown[];
  /** The service's count of all matching records, when it sent one. */
  total?: number;
  /** The member that held the array, e.g. "contacts"; undefined for a bare array. */
  key?: string;
}

/**
 * The count of a list: a whole number, or digits as text (a SQL count that a database driver gives as
 * a string). Anything else (-3, 2.5, 1e400, which JSON reads as Infinity) counts nothing: it is no total.
 */
function totalOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * Finds the records of a list response: `{"contacts": [...], "total": N}`, a bare array,
 * or any object with a single array member. `preferredKey` wins when several arrays are present.
 */
export function unwrapList(data: unknown, preferredKey?: string): ListPage | null {
  if (Array.isArray(data)) return { items: data };
  if (!isObject(data)) return null;
  const total = totalOf(data.total);
  if (preferredKey && Array.isArray(data[preferredKey])) {
    return { items: data[preferredKey] as unknown[], total, key: preferredKey };
  }
  const arrays = Object.entries(data).filter(([, value]) => Array.isArray(value));
  if (arrays.length === 1) {
    const [key, items] = arrays[0]!;
    return { items: items as unknown[], total, key };
  }
  for (const key of ['data', 'items', 'results', 'records']) {
    if (Array.isArray(data[key])) return { items: data[key] as unknown[], total, key };
  }
  return null;
}
