// crm api METHOD PATH: raw access to any endpoint through the same core (auth, retries, errors), with
// the same printer: JSON unless a format is asked for, --fields and -q as everywhere.

import { usageError } from '../../cli/errors.js';
import { deepMerge, parseSetPairs, readSource, checkKeys } from '../../cli/input.js';
import { list, record, type Result } from '../../cli/result.js';
import { isObject } from '../../registry/values.js';
import type { Query } from '../../http/url.js';
import { API_PREFIX } from '../../registry/service.js';
import { streamedWalk } from '../stream.js';
import type { Handler } from '../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { args, options }) => {
  const method = args.method;
  const { path, query } = splitPath(args.path);
  const strings = (options.field ?? []).map(asStringPair);
  const typed = await Promise.all((options.typed_field ?? []).map((pair) => readFileValue(pair, ctx.io.stdin)));
  const fields = deepMerge(parseSetPairs(strings, '-f'), parseSetPairs(typed, '-F'));
  if (options.paginate && method !== 'GET') throw usageError('--paginate works with GET only');

  let body: unknown;
  const input = options.input;
  if (input !== undefined) {
    body = checkKeys(parseJson(await readSource(input, ctx.io.stdin, '--input'), input === '-' ? 'stdin' : input), '--input');
    Object.assign(query, flatQuery(fields)); // with a body from --input, fields go to the query string
  } else if (method === 'GET' || method === 'DELETE') {
    Object.assign(query, flatQuery(fields));
  } else if (Object.keys(fields).length > 0) {
    body = fields;
  }

  const client = await ctx.client();
  if (options.paginate) return list(await streamedWalk(client, path, query));
  const { data, envelope } = await client.exchange(method, path, { query, body });
  return resultOf(options.raw ? envelope : data);
};

function resultOf(data: unknown): Result {
  if (Array.isArray(data)) return list(data);
  if (isObject(data)) return record(data);
  return { kind: 'value', value: data };
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw usageError(`invalid JSON in --input ${source}: ${(error as Error).message}`);
  }
}

/**
 * A path relative to the base URL; a query string in it is kept; a repeated /api/v1 is dropped.
 * Characters a path cannot hold (spaces, non-ASCII) are percent-encoded; existing escapes stay.
 */
function splitPath(input: string): { path: string; query: Query } {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) throw usageError('give a path relative to the base URL, not a full URL');
  if (/[\u0000-\u001f\u007f]/.test(input)) throw usageError('the path holds a control character');
  const [rawPath = '', search = ''] = input.split(/\?(.*)/s, 2);
  const hashless = rawPath.split('#')[0]!;
  let path = hashless.startsWith('/') ? hashless : `/${hashless}`;
  if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) path = path.slice(API_PREFIX.length) || '/';
  const segments = path.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.' || /^%2e(%2e)?$/i.test(segment))) throw usageError(`invalid path "${input}" (no . or .. segments)`);
  const encoded = segments.map((segment) => segment.replace(/%(?![0-9a-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@%]/gi, (char) => encodeURIComponent(char))).join('/');
  return { path: encoded, query: Object.fromEntries(new URLSearchParams(search)) };
}

/** -f values are always strings: quote them so that --set's JSON reading keeps them as text. */
function asStringPair(pair: string): string {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw usageError(`invalid -f "${pair}" (expected key=value)`);
  return `${pair.slice(0, eq)}=${JSON.stringify(pair.slice(eq + 1))}`;
}

/** -F key=@file: the file's text as a string value. */
async function readFileValue(pair: string, stdin: Parameters<typeof readSource>[1]): Promise<string> {
  const eq = pair.indexOf('=');
  if (eq <= 0 || pair[eq + 1] !== '@') return pair;
  const text = await readSource(pair.slice(eq + 2), stdin, '-F file');
  return `${pair.slice(0, eq)}=${JSON.stringify(text)}`;
}

function flatQuery(fields: Record<string, unknown>): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(fields)) {
    if (isObject(value) || Array.isArray(value)) throw usageError(`field ${key}: nested values cannot go in a query string`);
    query[key] = value as string | number | boolean | null;
  }
  return query;
}
