// The generic command runner: for a command of any endpoint of the registry, call the service with
// the checked invocation and return the result. Handlers add behaviour on top of these pieces.

import type { Context } from '../cli/context.js';
import { CliError, ExitCode, noRecordError, toCliError, usageError } from '../cli/errors.js';
import { cellText, safeLine } from '../cli/format.js';
import { done, list, record, type Result, type View } from '../cli/result.js';
import { isObject, type JsonObject } from '../registry/values.js';
import { HttpError } from '../http/errors.js';
import { fillPath, type Query } from '../http/url.js';
import { resourceNamed } from '../registry/resources.js';
import { PAGE_DEFAULT, PAGE_MAX } from '../registry/service.js';
import type { FieldSpec } from '../registry/types.js';
import { buildBody } from './body.js';
import { resolveCall } from './keys.js';
import type { Call, EndpointCommand, Values } from './command.js';
import { text } from './invocation.js';
import { streamedWalk } from './stream.js';

export async function runGeneric(ctx: Context, invocation: Call): Promise<Result> {
  const op = invocation.command;
  switch (op.kind) {
    case 'list': {
      const call = await resolveCall(ctx, invocation);
      return listResult(ctx, call, listQuery(call));
    }
    case 'get':
      return record(await requestRecord(ctx, await resolveCall(ctx, invocation), 'GET'), viewOf(op));
    case 'delete':
      return runDelete(ctx, invocation);
    default: {
      // The body's checks come first: a look-up is a request.
      const body = await buildBody(ctx, invocation);
      return { ...record(await requestRecord(ctx, await resolveCall(ctx, invocation), op.method, body), viewOf(op)), quietId: op.kind === 'create' };
    }
  }
}


export function viewOf(op: EndpointCommand): View {
  return { columns: op.columns, noun: op.plural };
}

/** The path with its `{placeholders}` filled from the positional arguments (URL-encoded). */
export function pathOf({ command, args }: Call, id?: string): string {
  const params: Record<string, string> = {};
  for (const field of command.args) {
    const value = args[field.name];
    if (typeof value === 'string') params[field.name] = value;
  }
  if (id !== undefined) params.id = id;
  return fillPath(command.path, params);
}

/** The filters of a list command as query parameters. */
export function listQuery({ command, options }: Call): Query {
  return filterQuery(command.query, options);
}

/** The given values of these filters as query parameters (lists joined with commas). */
export function filterQuery(filters: readonly FieldSpec[], options: Values): Query {
  const query: Query = {};
  for (const field of filters) {
    const value = options[field.name];
    if (value !== undefined) query[field.name] = Array.isArray(value) ? value.join(',') : (value as string | number | boolean);
  }
  return query;
}

/**
 * A list: one page (the service's default size, or --limit up to 50), or a walk streamed page by
 * page (--all, --limit above 50: no request ever asks for more than 50; or a walk to be continued).
 */
async function listResult(ctx: Context, invocation: Call, query: Query, view: View = viewOf(invocation.command)): Promise<Result> {
  const { command: op, options } = invocation;
  const client = await ctx.client();
  const path = pathOf(invocation);
  const limit = options.limit as number | undefined;
  const offset = options.offset as number | undefined;
  if (walks(invocation)) {
    const walk = await streamedWalk(client, path, { ...query, offset }, { limit, key: op.listKey, from: invocation.walk?.from, resumable: invocation.walk !== undefined });
    return list(walk, view, undefined, walk);
  }
  const page = await client.list(path, { ...query, limit, offset }, op.listKey);
  const size = limit ?? PAGE_DEFAULT;
  return list(page.items, view, { offset: offset ?? 0, total: page.total, full: page.items.length >= size });
}

/** Whether a list is read as a walk: --all, --limit above a page, or a walk asked for (MCP). */
export function walks({ options, walk }: Call): boolean {
  const limit = options.limit as number | undefined;
  return walk !== undefined || options.all === true || (limit !== undefined && limit > PAGE_MAX);
}

/** A request whose answer must be a record (get, create, update); a 404 names the id. */
export async function requestRecord(ctx: Context, invocation: Call, method: string, body?: JsonObject): Promise<unknown> {
  const op = invocation.command;
  const client = await ctx.client();
  try {
    const data = await client.request(method, pathOf(invocation), { body });
    if (!isObject(data)) throw noRecordError(op.noun);
    return data;
  } catch (error) {
    throw namingTheId(error, invocation);
  }
}

/**
 * A 404 of a one-id command names the id the user gave: "Contact not found" becomes "contact con_x
 * not found"; a message that says more ("Contact con_x was merged into con_y") is the service's,
 * with the id added when it does not name it.
 */
export function namingTheId(error: unknown, invocation: Call): unknown {
  const { noun, id } = subjectOf(invocation);
  if (!(error instanceof HttpError) || error.status !== 404 || id === undefined) return error;
  const said = toCliError(error).message;
  const message = /^(\w+ )?not found$|^HTTP 404\b/i.test(said) ? `${noun} ${id} not found` : said.includes(id) ? said : `${said} (${noun} ${id})`;
  return new CliError(message, ExitCode.notFound, { status: 404, code: error.code });
}

/** Which record a one-id command is about: the noun of the path's first collection, and its id. */
function subjectOf({ command, args }: Call): { noun: string; id?: string } {
  if (command.path === '/ai/trigger') return { noun: 'contact', id: text(args, 'contact_id') };
  const collection = command.path.split('/')[1] ?? '';
  const noun = collection === 'ai' ? 'suggestion' : (resourceNamed(collection) ?? collection);
  return { noun, id: text(args, 'id') };
}

async function runDelete(ctx: Context, given: Call): Promise<Result> {
  const op = given.command;
  // A script without --yes is refused before the look-up of an email or a name.
  let resolved: Call | undefined;
  const resolve = async () => (resolved ??= await resolveCall(ctx, given));
  await confirmDeletion(ctx, `${op.noun} ${text(given.args, 'id')!}`, given.options.yes === true, async () => `Delete ${op.noun} ${await describeRecord(ctx, await resolve())}?`);
  const invocation = await resolve();
  const id = text(invocation.args, 'id')!;
  const path = pathOf(invocation);
  const client = await ctx.client();
  let data: unknown;
  try {
    data = await client.request('DELETE', path);
  } catch (error) {
    throw namingTheId(error, invocation);
  }
  return done(`✓ Deleted ${op.noun} ${id}`, isObject(data) && Object.keys(data).length > 0 ? { id, deleted: true, ...data } : { id, deleted: true });
}

/**
 * Asks before deleting WHAT, unless --yes (or --dry-run: nothing is deleted); without a person to ask
 * it refuses. The question is built only when it is asked (it may read the record).
 */
export async function confirmDeletion(ctx: Context, what: string, yes: boolean, question: () => Promise<string>): Promise<void> {
  if (yes || ctx.dryRun) return;
  if (!ctx.io.canPrompt) throw usageError(`refusing to delete ${what} without confirmation`, 'pass --yes to confirm');
  if (!(await ctx.prompter().confirm(await question(), false))) throw new CliError('cancelled', ExitCode.interrupted, { code: 'cancelled' });
}

/** "con_x (Ada Lovelace)" for a confirmation; the id alone when the record cannot be read. */
async function describeRecord(ctx: Context, invocation: Call): Promise<string> {
  const id = text(invocation.args, 'id')!;
  try {
    const data = await (await ctx.client()).request('GET', pathOf(invocation));
    const name = isObject(data) ? (data.name ?? data.title) : undefined;
    return name === undefined || name === null ? id : `${id} (${safeLine(cellText(name))})`;
  } catch (error) {
    throw namingTheId(error, invocation);
  }
}
