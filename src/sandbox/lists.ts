// List endpoints, declared: each route names the SQL of every filter the registry gives its
// endpoint, and nothing else. The registry and the sandbox cannot drift apart: a filter without
// its SQL, or SQL for a filter the registry does not have, stops the sandbox from loading.

import { ENDPOINTS } from '../registry/endpoints.js';
import type { Endpoint, FieldSpec } from '../registry/types.js';
import { badRequest, containsAny, listPage, ok, queryText, readPage, type ListQuery, type Reply, type RequestContext } from './http.js';
import type { Store } from './store.js';

/** The SQL condition and parameters for one filter value (already checked against the registry). */
export type Filter = (value: string, store: Store) => { sql: string; params: unknown[] };

export const equals =
  (column: string): Filter =>
  (value) => ({ sql: `${column} = ?`, params: [value] });

export const equalsIgnoringCase =
  (column: string): Filter =>
  (value) => ({ sql: `lower(${column}) = lower(?)`, params: [value] });

export const matchesAny =
  (columns: readonly string[]): Filter =>
  (value) =>
    containsAny(columns, value);

/** The endpoint of the registry at this method and path (`/contacts/{id}/notes`). */
export function endpointAt(method: string, path: string): Endpoint {
  const op = Object.values(ENDPOINTS).find((candidate) => candidate.method === method && candidate.path === path);
  if (!op) throw new Error(`The registry has no ${method} ${path}`);
  return op;
}

/** Checks at load time that `filters` covers exactly the registry's filters of the endpoint. */
export function declareFilters(op: Endpoint, filters: Record<string, Filter>): Record<string, Filter> {
  const wanted = op.query.map((field) => field.name).sort();
  const given = Object.keys(filters).sort();
  if (wanted.join(',') !== given.join(',')) {
    throw new Error(`The sandbox's filters of ${op.method} ${op.path} (${given.join(', ')}) differ from the registry's (${wanted.join(', ')})`);
  }
  return filters;
}

/** A filter's value from the query, checked as the registry describes it: a known value, a boolean. */
function filterValue(query: URLSearchParams, field: FieldSpec): string | undefined {
  const value = queryText(query, field.name);
  if (value === undefined) return undefined;
  const values = field.type === 'boolean' ? ['true', 'false'] : Array.isArray(field.known) ? (field.known as readonly string[]) : undefined;
  if (!values) return value;
  const choice = values.find((candidate) => candidate === value.toLowerCase());
  if (!choice) throw badRequest(`${field.name} must be one of: ${values.join(', ')}`);
  return choice;
}

export interface ListSpec {
  op: Endpoint;
  /** FROM, columns, the conditions every row meets and its order. */
  base: Omit<ListQuery, 'params'> & { params?: unknown[] };
  filters: Record<string, Filter>;
  /** The member of the answer that holds the records: {contacts: [...], total}. */
  key: string;
  toRecord?: (row: Record<string, unknown>) => unknown;
}

/** A page of the list with the filters applied: `{<key>: [...], total}`. */
export function listReply({ store, query }: RequestContext, spec: ListSpec): Reply {
  const page = readPage(query);
  const list: ListQuery = { ...spec.base, where: [...spec.base.where], params: [...(spec.base.params ?? [])] };
  for (const field of spec.op.query) {
    const value = filterValue(query, field);
    if (value === undefined) continue;
    const condition = spec.filters[field.name]!(value, store);
    list.where.push(condition.sql);
    for (const param of condition.params) list.params.push(param);
  }
  const { rows, total } = listPage<Record<string, unknown>>(store, list, page);
  return ok({ [spec.key]: spec.toRecord ? rows.map(spec.toRecord) : rows, total });
}
