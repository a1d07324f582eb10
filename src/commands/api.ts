// crm api METHOD PATH: raw access to any endpoint through the same core (auth, retries, errors).

import { readFileSync } from 'node:fs';
import { usageError } from '../cli/errors.js';
import { readAll } from '../cli/io.js';
import { deepMerge, parseSetPairs } from '../cli/input.js';
import { isObject } from '../http/envelope.js';
import { API_PREFIX, type Query } from '../http/url.js';
import type { LocalHandler } from './local.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export const run: LocalHandler = async (ctx, { args, options }) => {
  const method = String(args[0]).toUpperCase();
  if (!METHODS.includes(method)) throw usageError(`invalid method "${String(args[0])}" (expected one of: ${METHODS.join(', ')})`);
  const { path, query } = splitPath(String(args[1]));

  const strings = ((options.field as string[] | undefined) ?? []).map(asStringPair);
  const fields = deepMerge(parseSetPairs(strings), parseSetPairs(((options.typedField as string[] | undefined) ?? []).map(readFileValue)));
  let body: unknown;
  if (typeof options.input === 'string') {
    body = await readInput(options.input, ctx.io.stdin);
    Object.assign(query, flatQuery(fields)); // with a body from --input, fields go to the query string
  } else if (method === 'GET' || method === 'DELETE') {
    Object.assign(query, flatQuery(fields));
  } else if (Object.keys(fields).length > 0) {
    body = fields;
  }
  if (options.paginate && method !== 'GET') throw usageError('--paginate works with GET only');

  const client = await ctx.client();
  const explicitFormat = Boolean(ctx.options.output || ctx.options.json);
  if (options.paginate) {
    if (explicitFormat) {
      await ctx.printer.stream(client.paginate(path, query));
    } else {
      ctx.io.stdout.write(`${JSON.stringify(await collect(client.paginate(path, query)), null, 2)}\n`);
    }
    return;
  }
  const { data, envelope } = await client.exchange(method, path, { query, body });
  if (options.raw) {
    ctx.io.stdout.write(`${JSON.stringify(envelope, null, 2)}\n`);
  } else if (explicitFormat && Array.isArray(data)) {
    await ctx.printer.records(data);
  } else if (explicitFormat) {
    await ctx.printer.record(data);
  } else if (data !== null && data !== undefined) {
    ctx.io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  }
};

/** A path relative to the base URL; a query string in it is kept; a repeated /api/v1 is dropped. */
function splitPath(input: string): { path: string; query: Query } {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) throw usageError('give a path relative to the base URL, not a full URL');
  const [rawPath = '', search = ''] = input.split(/\?(.*)/s, 2);
  let path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) path = path.slice(API_PREFIX.length) || '/';
  if (path.split('/').some((segment) => segment === '..' || segment === '.')) throw usageError(`invalid path "${input}" (no . or .. segments)`);
  return { path, query: Object.fromEntries(new URLSearchParams(search)) };
}

/** -f values are always strings: quote them so that --set's JSON reading keeps them as text. */
function asStringPair(pair: string): string {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw usageError(`invalid -f "${pair}" (expected key=value)`);
  return `${pair.slice(0, eq)}=${JSON.stringify(pair.slice(eq + 1))}`;
}

/** -F key=@file: the file's text as a string value. */
function readFileValue(pair: string): string {
  const eq = pair.indexOf('=');
  if (eq <= 0 || pair[eq + 1] !== '@') return pair;
  const file = pair.slice(eq + 2);
  try {
    return `${pair.slice(0, eq)}=${JSON.stringify(readFileSync(file, 'utf8'))}`;
  } catch (error) {
    throw usageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function flatQuery(fields: Record<string, unknown>): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(fields)) {
    if (isObject(value) || Array.isArray(value)) throw usageError(`field ${key}: nested values cannot go in a query string`);
    query[key] = value as string | number | boolean | null;
  }
  return query;
}

async function readInput(source: string, stdin: Parameters<typeof readAll>[0]): Promise<unknown> {
  let text: string;
  try {
    text = source === '-' ? await readAll(stdin) : readFileSync(source, 'utf8');
  } catch (error) {
    throw usageError(`cannot read --input ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw usageError(`invalid JSON in --input ${source === '-' ? 'stdin' : source}: ${(error as Error).message}`);
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
