// The sandbox's HTTP vocabulary: the request and response a door hands the handler, the errors a route
// throws (each an envelope's error), replies, and reading a list's paging and query.

import { PAGE_DEFAULT, PAGE_MAX } from '../registry/service.js';
import type { Store } from './store.js';

export interface SandboxRequest {
  method: string;
  /** Path and query, e.g. "/api/v1/contacts?limit=5". */
  url: string;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface SandboxResponse {
  status: number;
  /** Lower-case header names: content-type always, retry-after on 429, allow on 405. */
  headers: Record<string, string>;
  /** JSON text of the envelope {data, error}. */
  body: string;
}

/** A failure the client caused or may retry; its message becomes the envelope's error string. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, message);
}

export function notFound(resource: string): ApiError {
  return new ApiError(404, `${resource} not found`);
}

export function conflict(message: string): ApiError {
  return new ApiError(409, message);
}

export interface Reply {
  status: number;
  data: unknown;
}

export function ok(data: unknown): Reply {
  return { status: 200, data };
}

export function created(data: unknown): Reply {
  return { status: 201, data };
}

export interface RequestContext {
  store: Store;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON object of a POST or PATCH; {} for other methods and for an empty body. */
  body: Record<string, unknown>;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Route {
  method: HttpMethod;
  /** Relative to /api/v1; `:name` segments become params. */
  path: string;
  handler: (context: RequestContext) => Reply;
}

export function jsonResponse(status: number, data: unknown, error: string | null, headers: Record<string, string> = {}): SandboxResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify({ data, error }),
  };
}

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): SandboxResponse {
  return jsonResponse(status, null, message, headers);
}

const DEFAULT_LIMIT = PAGE_DEFAULT;
const MAX_LIMIT = PAGE_MAX;

interface Page {
  limit: number;
  offset: number;
}

function wholeNumber(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

export function readPage(query: URLSearchParams): Page {
  const limitText = query.get('limit');
  const offsetText = query.get('offset');
  let limit = DEFAULT_LIMIT;
  if (limitText !== null) {
    const value = wholeNumber(limitText);
    if (value === undefined || value < 1) throw badRequest(`limit must be an integer between 1 and ${MAX_LIMIT}`);
    limit = Math.min(value, MAX_LIMIT);
  }
  let offset = 0;
  if (offsetText !== null) {
    const value = wholeNumber(offsetText);
    if (value === undefined) throw badRequest('offset must be an integer of 0 or more');
    offset = value;
  }
  return { limit, offset };
}

/** A query parameter's value, or undefined when absent or empty. */
export function queryText(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name)?.trim();
  return value ? value : undefined;
}

/** The parts of a filtered list query; every fragment is a constant, every value a parameter. */
export interface ListQuery {
  from: string;
  columns: string;
  where: string[];
  params: unknown[];
  orderBy: string;
}

export function listPage<Row>(store: Store, query: ListQuery, page: Page): { rows: Row[]; total: number } {
  const where = query.where.length > 0 ? `WHERE ${query.where.join(' AND ')}` : '';
  const counted = store.get<{ total: number }>(`SELECT COUNT(*) AS total FROM ${query.from} ${where}`, ...query.params);
  const rows = store.all<Row>(
    `SELECT ${query.columns} FROM ${query.from} ${where} ORDER BY ${query.orderBy} LIMIT ? OFFSET ?`,
    ...query.params,
    page.limit,
    page.offset,
  );
  return { rows, total: counted?.total ?? 0 };
}

/** A case-insensitive substring match of `text` against any of `columns`, as SQL and its parameters. */
export function containsAny(columns: readonly string[], text: string): { sql: string; params: string[] } {
  return {
    sql: `(${columns.map((column) => `instr(lower(COALESCE(${column}, '')), lower(?)) > 0`).join(' OR ')})`,
    params: columns.map(() => text),
  };
}
