// crm search QUERY [--types ...]: grouped by type on a terminal; flat records with a `type` field
// in json, ndjson, csv and tsv.

import { usageError } from '../../cli/errors.js';
import { isObject, type JsonObject } from '../../http/envelope.js';
import type { Query } from '../../http/url.js';
import { listQuery, type Handler } from '../run.js';
import type { Context } from '../../cli/context.js';

export const SEARCH_TYPES = ['contacts', 'deals', 'accounts', 'tasks'] as const;
const SINGULAR: Record<string, string> = { contacts: 'contact', deals: 'deal', accounts: 'account', tasks: 'task' };

export const run: Handler = async (ctx, invocation) => {
  const { op, args, options } = invocation;
  const text = String(args.query ?? '').trim();
  if (!text) throw usageError('the search query is empty');
  const query: Query = { ...listQuery(invocation), q: text };
  if (typeof options.types === 'string') query.types = parseTypes(options.types).join(',');

  const client = await ctx.client();
  let results: JsonObject[];
  if (options.all) {
    results = [];
    for await (const item of client.paginate(op.path, query, op.listKey)) if (isObject(item)) results.push(withType(undefined)(item));
  } else {
    const data = await client.request('GET', op.path, { query });
    results = flatten(data);
  }
  await print(ctx, results, op.columns ?? []);
};

export function parseTypes(value: string): string[] {
  const types = value.split(',').map((type) => type.trim().toLowerCase()).filter(Boolean);
  const unknown = types.filter((type) => !(SEARCH_TYPES as readonly string[]).includes(type));
  if (types.length === 0 || unknown.length > 0) {
    throw usageError(`invalid --types "${value}" (valid types: ${SEARCH_TYPES.join(', ')})`);
  }
  return [...new Set(types)];
}

/**
 * Results may come flat ({results: [{type, ...}]}) or grouped ({contacts: [...], deals: [...]}):
 * both become flat records with a singular `type` first.
 */
export function flatten(data: unknown): JsonObject[] {
  if (Array.isArray(data)) return data.filter(isObject).map(withType(undefined));
  if (!isObject(data)) return [];
  if (typeof data.type === 'string') return [data];
  const flat = Array.isArray(data.results) ? data.results : Array.isArray(data.items) ? data.items : undefined;
  if (flat) return flat.filter(isObject).map(withType(undefined));
  return Object.entries(data)
    .filter(([, value]) => Array.isArray(value))
    .flatMap(([key, value]) => (value as unknown[]).filter(isObject).map(withType(SINGULAR[key] ?? key)));
}

const withType = (type: string | undefined) => (record: JsonObject): JsonObject => {
  const { type: own, ...rest } = record;
  return { type: own ?? type ?? 'result', ...rest };
};

async function print(ctx: Context, results: JsonObject[], columns: readonly string[]): Promise<void> {
  if (ctx.printer.format !== 'table' || ctx.options.quiet) return ctx.printer.records(results, { columns });
  if (results.length === 0) {
    ctx.info('No results.');
    return;
  }
  const groups = new Map<string, JsonObject[]>();
  for (const result of results) {
    const type = String(result.type);
    groups.set(type, [...(groups.get(type) ?? []), result]);
  }
  for (const [type, records] of groups) {
    ctx.printer.write(`\n${type.toUpperCase()}S (${records.length})\n`);
    await ctx.printer.records(records, { columns: columns.filter((column) => column !== 'type') });
  }
}
