// crm api [METHOD] PATH: raw access to any endpoint through the same core (auth, retries, errors), with
// the same printer: JSON unless a format is asked for, --fields and -q as everywhere.

import { CliError, toCliError, usageError } from '../../cli/errors.js';
import { safeLine } from '../../cli/format.js';
import { deepMerge, parseChoice, parseInteger, parseSetPairs, readSource, checkJsonInput } from '../../cli/input.js';
import { list, NOTHING, record, type Result } from '../../cli/result.js';
import { ENDPOINTS } from '../../registry/endpoints.js';
import { closestName, isObject } from '../../registry/values.js';
import type { Query } from '../../http/url.js';
import { HEADER_VALUE, reason } from '../../http/core.js';
import { HttpError } from '../../http/errors.js';
import { API_KEY_HEADER, API_METHODS, API_PREFIX } from '../../registry/service.js';
import { streamedWalk } from '../stream.js';
import type { Handler } from '../command.js';
import type { Spec } from './command.js';

export const run: Handler<Spec> = async (ctx, { args, options }) => {
  if (args.path === undefined && (API_METHODS as readonly string[]).includes(args.method_or_path)) throw usageError(`crm api ${args.method_or_path}: the path is missing`, `crm api ${args.method_or_path} /contacts`);
  const { path, query: written } = splitPath(args.path ?? args.method_or_path);
  const strings = (options.field ?? []).map(asStringPair);
  const typed = await Promise.all((options.typed_field ?? []).map((pair) => readFileValue(pair, ctx.io.stdin)));
  const fields = deepMerge(parseSetPairs(strings, '-f'), parseSetPairs(typed, '-F'));
  const method = methodOf(args.path === undefined ? undefined : args.method_or_path, options.method, {
    sendsSomething: Object.keys(fields).length > 0 || options.input !== undefined,
    paginate: Boolean(options.paginate),
  });
  const headers = parseHeaders(options.header ?? []);
  if (options.paginate && method !== 'GET') throw usageError('--paginate works with GET only');
  if (options.paginate && options.include) throw usageError('-i and --paginate cannot be used together', 'each page has headers of its own: ask for one page with -i');
  // A walk sends GETs of its own: a body from --input, or the envelope --raw prints, was left out unsaid.
  if (options.paginate && options.input !== undefined) throw usageError('--input and --paginate cannot be used together', 'the pages are GETs, which carry no body: give filters with -f');
  if (options.paginate && options.raw) throw usageError('--raw and --paginate cannot be used together', 'each page has an envelope of its own: ask for one page with --raw');
  const single = options.paginate ? oneRecordEndpoint(path) : undefined;
  // The walk would take the record's one array (a sequence's steps) for the list.
  if (single) throw usageError(`--paginate walks a list: GET ${single} answers one record`, 'leave out --paginate');

  const input = options.input;
  // Fields go to the query string of a GET or a DELETE, and beside a body from --input.
  const fieldsInQuery = input !== undefined || method === 'GET' || method === 'DELETE';
  const query = fieldsInQuery ? withFields(written, fields) : written;
  if (options.paginate) checkWalkStart(query.offset);
  let body: unknown;
  if (input !== undefined) {
    body = checkJsonInput(parseJson(await readSource(input, ctx.io.stdin, '--input'), input === '-' ? 'stdin' : input), '--input');
  } else if (!fieldsInQuery && Object.keys(fields).length > 0) {
    body = fields;
  }

  const client = await ctx.client();
  if (options.paginate) return list(await streamedWalk(client, path, query, { headers }));
  const answer = await client.exchange(method, path, { query, body, headers }).catch((error: unknown) => {
    throw withPathHint(error, path);
  });
  const result = resultOf(options.raw ? answer.envelope : answer.data);
  return options.include ? { ...result, head: headLines(answer.status, answer.headers) } : result;
};

/**
 * As gh: GET, or POST when fields or --input are given (GET with --paginate, whose fields are its
 * filters); -X or a first argument names another. Both given must agree.
 */
function methodOf(argument: string | undefined, flag: string | undefined, { sendsSomething, paginate }: { sendsSomething: boolean; paginate: boolean }): string {
  const named = argument === undefined ? undefined : parseChoice(argument, API_METHODS, 'METHOD');
  if (named !== undefined && flag !== undefined && named !== flag) throw usageError(`the method is given twice: ${named} and -X ${flag}`);
  return named ?? flag ?? (sendsSomething && !paginate ? 'POST' : 'GET');
}

/** Headers crm sets from what it sends (framing, the connection), which a caller cannot. */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'proxy-connection']);

/** A header's name: an HTTP token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** -H 'Name: value', each checked before anything is sent: never the key header. */
function parseHeaders(given: readonly string[]): Record<string, string> | undefined {
  if (given.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const header of given) {
    const colon = header.indexOf(':');
    const name = header.slice(0, colon).trim();
    if (colon <= 0 || !TOKEN.test(name)) throw usageError(`invalid -H "${safeLine(header)}" (expected "Name: value")`);
    const value = header.slice(colon + 1).trim();
    if (name.toLowerCase() === API_KEY_HEADER.toLowerCase()) {
      throw usageError(`-H cannot set ${API_KEY_HEADER}: the key is the profile's`, 'crm auth login, or CRM_API_KEY for one command');
    }
    if (OWN_HEADERS.has(name.toLowerCase())) throw usageError(`-H cannot set ${name}: crm sets it from what it sends`);
    if (!HEADER_VALUE.test(value)) throw usageError(`-H ${name}: the value holds a line break or a control character`);
    const same = Object.keys(headers).find((known) => known.toLowerCase() === name.toLowerCase());
    if (same !== undefined) throw usageError(`-H ${name} is given twice`);
    headers[name] = value;
  }
  return headers;
}

/** -i: the status line and the answer's headers, then an empty line, as curl -i and gh api -i print them. */
function headLines(status: number, headers: Readonly<Record<string, string | string[] | undefined>>): string[] {
  const lines = [`HTTP/1.1 ${status} ${reason(status)}`.trimEnd()];
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) lines.push(`${name}: ${one}`);
  }
  return [...lines, ''];
}

function resultOf(data: unknown): Result {
  if (Array.isArray(data)) return list(data);
  if (isObject(data)) return record(data);
  // An answer with no data (204, data null) prints nothing, as gh api does.
  if (data === null || data === undefined) return NOTHING;
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
  // A server that decodes the path takes `.%2e`, `%2e.` and `%2e%2e` for `..` too (the URL standard
  // does), and one that decodes %2F (or takes \ for /, as some do %5C) finds `..` inside `..%2F..`.
  const steps = segments.flatMap((segment) => segment.split(/%2f|%5c|\\/i));
  if (steps.some((step) => /^(\.|%2e){1,2}$/i.test(step))) throw usageError(`invalid path "${input}" (no . or .. segments)`);
  const encoded = segments.map((segment) => segment.replace(/%(?![0-9a-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@%]/gi, (char) => encodeURIComponent(char))).join('/');
  return { path: encoded, query: queryOf([...new URLSearchParams(search)]) };
}

/** Parameters in their order, a name given twice kept twice (as a list), as gh api sends a path's query string. */
function queryOf(pairs: ReadonlyArray<readonly [string, string]>): Query {
  const values = new Map<string, string[]>();
  for (const [name, value] of pairs) values.set(name, [...(values.get(name) ?? []), value]);
  return Object.fromEntries([...values].map(([name, given]) => [name, given.length === 1 ? given[0]! : given]));
}

/**
 * --paginate starts at the offset PATH or -f gives: a whole number, once, read as --offset is. It
 * was sent as the walk made it: offset=NaN for abc or for an offset given twice, -3 and 1.5 as given.
 */
function checkWalkStart(offset: Query[string]): void {
  if (offset === undefined) return;
  if (typeof offset === 'object' && offset !== null) throw usageError('offset is given twice: --paginate starts at one');
  parseInteger(String(offset), 'offset', 0);
}

/** The registry's path templates that PATH fits, `{id}` standing for any one segment. */
function fitsEndpoint(segments: readonly string[], template: string): boolean {
  const parts = template.split('/').filter(Boolean);
  return parts.length === segments.length && parts.every((part, at) => /^\{\w+\}$/.test(part) || part === segments[at]);
}

/**
 * A 404 of a path the spec has no endpoint for (a typo: /contact, /contacts/ID/note) says which it
 * most likely meant, its ids kept; a 404 of a known path (a record not found) is as it was.
 */
function withPathHint(error: unknown, path: string): unknown {
  if (!(error instanceof HttpError) || error.status !== 404) return error;
  const segments = path.split('/').filter(Boolean);
  const templates = [...new Set(Object.values(ENDPOINTS).map((endpoint) => endpoint.path))];
  if (templates.some((template) => fitsEndpoint(segments, template))) return error;
  // Each template with the given path's own segments in its placeholders, where it has as many.
  const candidates = templates.map((template) => {
    const parts = template.split('/').filter(Boolean);
    return `/${parts.map((part, at) => (/^\{\w+\}$/.test(part) && parts.length === segments.length ? segments[at] : part)).join('/')}`;
  });
  const meant = closestName(path, candidates);
  if (!meant) return error;
  const failure = toCliError(error);
  return new CliError(failure.message, failure.exitCode, { status: failure.status, code: failure.code, hint: `no endpoint ${path} in the service's API: did you mean ${meant}?` });
}

/** The path template of the registry's GET that PATH calls, when that GET answers one record (a get, /analytics). */
function oneRecordEndpoint(path: string): string | undefined {
  const segments = path.split('/').filter(Boolean);
  return Object.values(ENDPOINTS).find((endpoint) => endpoint.method === 'GET' && endpoint.kind === 'get' && fitsEndpoint(segments, endpoint.path))?.path;
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

/**
 * The query string PATH gave, then the fields, as gh api sends them: each value as its text (-F's
 * false as false, null as empty), a name PATH has as well sent twice. A typed false or null was left
 * out (the core leaves out the filters a command was not given), so -F overdue=false sent no filter.
 */
function withFields(written: Query, fields: Record<string, unknown>): Query {
  const pairs = Object.entries(written).flatMap(([name, value]) => (typeof value === 'object' && value !== null ? value : [value]).map((one) => [name, String(one)] as const));
  for (const [key, value] of Object.entries(fields)) {
    if (isObject(value) || Array.isArray(value)) throw usageError(`field ${key}: nested values cannot go in a query string`);
    pairs.push([key, value === null ? '' : String(value)]);
  }
  return queryOf(pairs);
}
