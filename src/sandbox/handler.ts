// The sandbox's one request handler, behind both doors (the embedded transport and `crm sandbox
// serve`): the route table, the API-key check, and every answer in the service's {data, error} envelope.

import { API_KEY_HEADER, API_PREFIX } from '../registry/service.js';
import { ApiError, badRequest, errorResponse, jsonResponse, type HttpMethod, type Route, type SandboxRequest, type SandboxResponse } from './http.js';
import { accountRoutes } from './routes/accounts.js';
import { aiRoutes } from './routes/ai.js';
import { analyticsRoutes } from './routes/analytics.js';
import { contactRoutes } from './routes/contacts.js';
import { dealRoutes } from './routes/deals.js';
import { pipelineRoutes } from './routes/pipeline.js';
import { searchRoutes } from './routes/search.js';
import { sequenceRoutes } from './routes/sequences.js';
import { taskRoutes } from './routes/tasks.js';
import { isBusyError } from '../sqlite/database.js';
import type { Store } from './store.js';
import { isObject, NESTING_MAX, nestsTooDeep } from '../registry/values.js';

const BASE_PATH = API_PREFIX;

export const ROUTES: readonly Route[] = [
  ...contactRoutes,
  ...accountRoutes,
  ...dealRoutes,
  ...sequenceRoutes,
  ...taskRoutes,
  ...pipelineRoutes,
  ...searchRoutes,
  ...analyticsRoutes,
  ...aiRoutes,
];

/** How a door compares the key a request gives with the sandbox's. */
type KeyCheck = (given: string, expected: string) => boolean;

/** For requests over a network: in constant time, so that timing the answers tells nothing of the key. */
export const sameSecret: KeyCheck = (given, expected) => {
  const { createHash, timingSafeEqual } = process.getBuiltinModule('node:crypto');
  // Hashing first gives equal lengths, which timingSafeEqual requires, without leaking the key's length.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
};

/**
 * For requests from the process that opened the sandbox (the embedded transport): timing them could
 * tell a caller nothing it cannot read from the database itself, and node:crypto, which the
 * constant-time comparison needs, is about 3 ms of a command's start.
 */
export const sameString: KeyCheck = (given, expected) => given === expected;

function authenticate(headers: SandboxRequest['headers'], apiKey: string, sameKey: KeyCheck): void {
  // Header names arrive in lower case, as Node gives them.
  const header = headers[API_KEY_HEADER.toLowerCase()];
  const given = Array.isArray(header) ? header[0] : header;
  if (!given) throw new ApiError(401, 'Missing API key');
  if (!sameKey(given, apiKey)) throw new ApiError(401, 'Invalid or revoked API key');
}

/** Matches `segments` against a route pattern; returns the `:name` params, or undefined. */
function matchPattern(pattern: string, segments: string[]): Record<string, string> | undefined {
  const parts = pattern.split('/').slice(1);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    if (part.startsWith(':')) params[part.slice(1)] = segments[index];
    else if (part !== segments[index]) return undefined;
  }
  return params;
}

function findRoute(method: string, pathname: string): { route: Route; params: Record<string, string> } {
  const notFoundError = new ApiError(404, `Not found: ${method} ${pathname}`);
  if (!pathname.startsWith(`${BASE_PATH}/`)) throw notFoundError;
  let segments: string[];
  try {
    segments = pathname.slice(BASE_PATH.length + 1).replace(/\/$/, '').split('/').map(decodeURIComponent);
  } catch {
    throw notFoundError;
  }
  const allowed: HttpMethod[] = [];
  for (const route of ROUTES) {
    const params = matchPattern(route.path, segments);
    if (!params) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  if (allowed.length === 0) throw notFoundError;
  throw new ApiError(405, `Method ${method} is not allowed on ${pathname}. Allowed: ${allowed.join(', ')}`, { allow: allowed.join(', ') });
}

function parseBody(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('Invalid JSON body');
  }
  if (!isObject(body)) throw badRequest('The request body must be a JSON object');
  // Kept fields are stored and answered whole: deeper, JSON.stringify overflowed its stack (a 500), or
  // the record was stored and then no crm could read the list that holds it.
  if (nestsTooDeep(body)) throw badRequest(`The request body nests arrays and objects deeper than ${NESTING_MAX} levels`);
  return body;
}

function dispatch(store: Store, apiKey: string, request: SandboxRequest, sameKey: KeyCheck): SandboxResponse {
  const method = request.method.toUpperCase();
  const url = new URL(request.url, 'http://sandbox.invalid');
  authenticate(request.headers, apiKey, sameKey);
  const { route, params } = findRoute(method, url.pathname);
  const body = method === 'POST' || method === 'PATCH' ? parseBody(request.body) : {};
  const context = { store, params, query: url.searchParams, body };
  const reply = method === 'GET' ? store.read(() => route.handler(context)) : store.write(() => route.handler(context));
  return jsonResponse(reply.status, reply.data, null);
}

/** Answers one request with the service's envelope; never throws. */
export function handleRequest(store: Store, apiKey: string, request: SandboxRequest, sameKey: KeyCheck): SandboxResponse {
  try {
    return dispatch(store, apiKey, request, sameKey);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error.status, error.message, error.headers);
    if (isBusyError(error)) return errorResponse(503, 'The sandbox database is busy. Try again.');
    // The response never carries a stack; the crm's debug switch puts it on stderr.
    if (process.env.CRM_DEBUG === '1') process.stderr.write(`crm sandbox: ${error instanceof Error ? error.stack : String(error)}\n`);
    return errorResponse(500, 'Internal error');
  }
}
