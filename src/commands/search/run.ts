// crm search QUERY [--types ...]: flat records with a singular `type`, grouped by type under a
// table. Results may come flat ({results: [{type, ...}]}) or grouped ({contacts: [...], ...}).

import { usageError } from '../../cli/errors.js';
import { list } from '../../cli/result.js';
import { PAGE_DEFAULT } from '../../registry/service.js';
import { isObject, type JsonObject } from '../../registry/values.js';
import { listQuery, viewOf, walkList, walks } from '../endpoint.js';
import type { Handler } from '../command.js';
import type { Spec } from './command.js';

const SINGULAR: Record<string, string> = { contacts: 'contact', deals: 'deal', accounts: 'account', tasks: 'task' };

export const run: Handler<Spec> = async (ctx, invocation) => {
  const { command: op, args, options } = invocation;
  const text = args.q?.trim();
  if (!text) throw usageError('the search query is empty');
  const query = { q: text, ...listQuery(invocation) };
  const view = { ...viewOf(op), groupBy: 'type', noun: 'results' };
  const client = await ctx.client();
  const limit = options.limit;
  const offset = options.offset;
  if (walks(invocation)) {
    const walk = await walkList(client, invocation, op.path, { ...query, offset }, limit);
    return list(typed(walk), view, undefined, walk);
  }
  const data = await client.request('GET', op.path, { query: { ...query, limit, offset } });
  const total = isObject(data) && typeof data.total === 'number' ? data.total : undefined;
  const results = flatten(data);
  return list(results, view, { offset: offset ?? 0, total, full: results.length >= (limit ?? PAGE_DEFAULT) });
};

async function* typed(items: AsyncIterable<unknown>): AsyncIterable<JsonObject> {
  for await (const item of items) if (isObject(item)) yield withType(undefined)(item);
}

function flatten(data: unknown): JsonObject[] {
  if (Array.isArray(data)) return data.filter(isObject).map(withType(undefined));
  if (!isObject(data)) return [];
  if (typeof data.type === 'string') return [data];
  const flat = Array.isArray(data.results) ? data.results : Array.isArray(data.items) ? data.items : undefined;
  if (flat) return flat.filter(isObject).map(withType(undefined));
  return Object.entries(data)
    .filter(([, value]) => Array.isArray(value))
    .flatMap(([key, value]) => (value as unknown[]).filter(isObject).map(withType(Object.hasOwn(SINGULAR, key) ? SINGULAR[key] : key)));
}

const withType = (type: string | undefined) => (record: JsonObject): JsonObject => {
  const { type: own, ...rest } = record;
  return { type: own ?? type ?? 'result', ...rest };
};
