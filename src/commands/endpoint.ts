// The generic command runner: for a command of any endpoint of the registry, call the service with
// the checked invocation and return the result. Handlers add behaviour on top of these pieces.

import type { Context } from '../cli/context.js';
import { CliError, ExitCode, noRecordError, toCliError } from '../cli/errors.js';
import { cellText, safeLine } from '../cli/format.js';
import { done, list, record, type Result, type View } from '../cli/result.js';
import { isObject, type JsonObject } from '../registry/values.js';
import { HttpError } from '../http/errors.js';
import type { ApiClient } from '../http/core.js';
import { distinctRecords, type Walk } from '../http/paginate.js';
import { fillPath, type Query } from '../http/url.js';
import { ENDPOINTS } from '../registry/endpoints.js';
import { RESOURCES, resourceNamed } from '../registry/resources.js';
import { PAGE_DEFAULT, PAGE_MAX } from '../registry/service.js';
import type { FieldSpec } from '../registry/types.js';
import { buildBody, checkBody } from './body.js';
import { NoRecordSent, writtenRecord } from './no-record.js';
import { actOnEach, confirmDeletion, readEach, readTargets, type Targets } from './bulk.js';
import { resolveCall, resolveWithBody } from './keys.js';
import type { Call, EndpointCommand, Values } from './command.js';
import { text } from './invocation.js';
import { streamedWalk } from './stream.js';

export async function runGeneric(ctx: Context, given: Call): Promise<Result> {
  const op = given.command;
  let invocation = given;
  const field = idsField(op);
  if (field) {
    const targets = await readTargets(ctx, field, given.args);
    if (targets.many) return runOnEach(ctx, given, field, targets);
    // One record: its own output, as a command of one id prints it.
    invocation = withId(given, targets.values[0]!);
  }
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
      const { call, body } = await resolveWithBody(ctx, invocation, await checkBody(ctx, invocation));
      return { ...writtenRecord(await requestRecord(ctx, call, op.method, body), viewOf(op)), quietId: op.kind === 'create' };
    }
  }
}

/** The argument of a command that acts on one record or several: `ids` (update, delete, contacts enroll...). */
export function idsField(command: { args: readonly FieldSpec[] }): FieldSpec | undefined {
  return command.args.find((field) => field.name === 'ids' && field.variadic);
}

/** Several records (or `-`): the same request for each, in a report (./bulk.ts); a get, the records. */
async function runOnEach(ctx: Context, invocation: Call, field: FieldSpec, targets: Targets): Promise<Result> {
  const op = invocation.command;
  const noun = op.plural ?? op.noun;
  const concurrency = invocation.options.concurrency as number | undefined;
  if (op.kind === 'get') {
    // The records themselves, as a list of them prints (those not read named on stderr).
    return readEach(ctx, field, targets, {
      success: 'found',
      view: { columns: op.resource ? RESOURCES[op.resource].columns : undefined, noun },
      // At the bulk pace, as the writes' requests: a 429 is waited out (src/http/pace.ts).
      act: async (id) => {
        const data = await request(ctx, withId(invocation, id), 'GET');
        if (!isObject(data)) throw noRecordError(op.noun);
        return data;
      },
      concurrency,
      hint: 'each id not read is named above; the records printed are the others',
    });
  }
  const view: View = { columns: ['id', 'result', ...reportedColumns(op), 'error'], noun };
  if (op.kind === 'delete') {
    return actOnEach(ctx, field, targets, {
      verb: 'Delete',
      success: 'deleted',
      deletes: true,
      yes: invocation.options.yes === true,
      concurrency,
      view,
      act: async (id) => deletedRecord(id, await request(ctx, withId(invocation, id), 'DELETE')),
      hint: 'the report lists each record; those deleted are gone, run it again for the others',
    });
  }
  const body = await buildBody(ctx, invocation);
  const update = op.kind === 'update';
  return actOnEach(ctx, field, targets, {
    verb: update ? 'Update' : 'Change',
    success: update ? 'updated' : 'done',
    view,
    act: async (id) => request(ctx, withId(invocation, id), op.method, body),
    concurrency,
    hint: 'the report lists each record; running the same command again is safe',
  });
}

/** A report's column for each record besides its id: what names it (name, title, the sequence of an enrolment). */
function reportedColumns(op: EndpointCommand): string[] {
  if (op.kind === 'delete') return [];
  const naming = op.columns?.find((column) => column !== 'id');
  return naming ? [`record.${naming}`] : [];
}

/** The call about one of its records: its path and its messages name that id. */
export function withId(invocation: Call, id: string): Call {
  return { ...invocation, args: { ...invocation.args, ids: [id] } };
}

/** The one record a command of one or several ids is about, when it is one. */
function oneId(args: Values): string | undefined {
  const ids = args.ids;
  return Array.isArray(ids) && ids.length === 1 && typeof ids[0] === 'string' ? ids[0] : text(args, 'id');
}

/** A request about one record; a 404 names its id. */
async function request(ctx: Context, invocation: Call, method: string, body?: JsonObject): Promise<unknown> {
  try {
    return await (await ctx.client()).request(method, pathOf(invocation), { body, waitOutRateLimit: true });
  } catch (error) {
    throw namingTheId(error, invocation);
  }
}

export function viewOf(op: EndpointCommand): View {
  return { columns: op.columns, noun: op.plural };
}

/** The path with its `{placeholders}` filled from the positional arguments (URL-encoded); `{id}` also from a single id of `ids`. */
export function pathOf({ command, args }: Call, id?: string): string {
  const params: Record<string, string> = {};
  for (const field of command.args) {
    const value = args[field.name];
    if (typeof value === 'string') params[field.name] = value;
  }
  const one = id ?? oneId(args);
  if (one !== undefined) params.id = one;
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
async function listResult(ctx: Context, invocation: Call, query: Query): Promise<Result> {
  const { command: op, options } = invocation;
  const view = viewOf(op);
  const client = await ctx.client();
  const path = pathOf(invocation);
  const limit = options.limit as number | undefined;
  const offset = options.offset as number | undefined;
  if (walks(invocation)) {
    const walk = await walkList(client, invocation, path, { ...query, offset }, limit);
    return list(namingTheIdOf(walk, invocation), view, undefined, walk);
  }
  const page = await client.list(path, { ...query, limit, offset }, op.listKey).catch((error: unknown) => {
    throw namingTheId(error, invocation);
  });
  const size = limit ?? PAGE_DEFAULT;
  // --limit holds when the service sends more (it ignores limit): the rest are the next --offset's.
  const rows = limit === undefined ? page.items : page.items.slice(0, limit);
  // Each record once, as --all prints it; where the page ends (full, the next offset) is by the rows sent.
  return list(distinctRecords(rows), view, { offset: offset ?? 0, total: page.total, full: rows.length >= size, rows: rows.length });
}

/** A list read as a walk, streamed; a walk asked for (MCP) goes on from its cursor and can be continued again. */
export function walkList(client: ApiClient, { command, walk }: Call, path: string, query: Query, limit?: number): Promise<Walk> {
  return streamedWalk(client, path, query, { limit, key: command.listKey, from: walk?.from, resumable: walk !== undefined });
}

/** A walk's records; a 404 of a record's list (contacts notes list ID, sequences contacts ID) names that record's id. */
async function* namingTheIdOf(walk: Walk, invocation: Call): AsyncGenerator<unknown> {
  try {
    yield* walk;
  } catch (error) {
    throw namingTheId(error, invocation);
  }
}

/** Whether a list is read as a walk: --all, --limit above a page, or a walk asked for (MCP). */
export function walks({ options, walk }: Call): boolean {
  const limit = options.limit as number | undefined;
  return walk !== undefined || options.all === true || (limit !== undefined && limit > PAGE_MAX);
}

/**
 * A request whose answer must be a record (get, create, update); a 404 names the id. A write about
 * a record crm can name (an update, an action, a note of a contact) answered with none is a success:
 * what crm knows of it (./no-record.ts).
 */
export async function requestRecord(ctx: Context, invocation: Call, method: string, body?: JsonObject): Promise<JsonObject | NoRecordSent> {
  const client = await ctx.client();
  let data: unknown;
  try {
    data = await client.request(method, pathOf(invocation), { body });
  } catch (error) {
    throw namingTheId(error, invocation);
  }
  return answeredRecord(data, invocation);
}

/** The record of a write's answer; none (null: no content), what crm knows of it when it can name it; anything else is malformed. */
export function answeredRecord(data: unknown, invocation: Call): JsonObject | NoRecordSent {
  const op = invocation.command;
  if (isObject(data)) return data;
  const known = data === null && op.method !== 'GET' ? knownOf(invocation) : undefined;
  // A create answered with a success and no record: it was made, and crm cannot say which it is.
  if (known === undefined) throw noRecordError(op.noun, op.method === 'POST');
  return new NoRecordSent(known, op.noun);
}

/**
 * What crm knows of the record a write was about: the id it was sent for (an update, an action on
 * the record), or its parent's (a note of a contact: contact_id). Undefined for a create of a record
 * of its own, which has no id yet.
 */
function knownOf(invocation: Call): JsonObject | undefined {
  const { noun, id } = subjectOf(invocation);
  if (id === undefined || !invocation.command.path.includes('{id}')) return undefined;
  return noun === invocation.command.noun ? { id } : { [`${noun}_id`]: id };
}

/**
 * A 404 of a one-id command names the id the user gave: "Contact not found" becomes "contact con_x
 * not found" ("Sequence not found" of a contact's enrolment names another record: it stays); a
 * message that says more ("Contact con_x was merged into con_y") is the service's, with the id
 * added when it does not name it.
 */
export function namingTheId(error: unknown, invocation: Call): unknown {
  const { noun, id } = subjectOf(invocation);
  return id === undefined ? error : notFoundNamed(error, noun, id);
}

/** ACT on the record ID of a command of several ids (a task completed, a suggestion accepted): its 404 names that id, as a one-id request's does. */
export async function namingEachId<T>(invocation: Call, id: string, act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (error) {
    throw namingTheId(error, withId(invocation, id));
  }
}

/** A 404 about the record NOUN ID as exit 4 naming it (see namingTheId); any other error as it is. */
export function notFoundNamed(error: unknown, noun: string, id: string): unknown {
  if (!(error instanceof HttpError) || error.status !== 404) return error;
  const said = toCliError(error).message;
  // "Sequence not found" from a contact's enrolment is about another record: the service's words stand.
  const named = /^(\w+) not found$/i.exec(said)?.[1]?.toLowerCase();
  const another = named !== undefined && named !== noun && named in RESOURCES;
  const message = !another && /^(\w+ )?not found$|^HTTP 404\b/i.test(said) ? `${noun} ${id} not found` : said.includes(id) ? said : `${said} (${noun} ${id})`;
  const kind = kindOfId(id);
  const hint = kind && kind !== noun ? `${id} looks like ${possessive(kind)} id, not ${possessive(noun)}` : undefined;
  return new CliError(message, ExitCode.notFound, { status: 404, code: error.code, hint });
}

/**
 * The resource an id's prefix names, where a workspace writes its ids so (deal_x: a deal); undefined
 * when it names none, or several. Only a hint after a 404: the spec leaves the form of ids open, so
 * an id is never refused for its prefix.
 */
function kindOfId(id: string): string | undefined {
  const prefix = /^([a-z]{3,})_[a-z0-9]/i.exec(id)?.[1]?.toLowerCase();
  const kinds = prefix ? Object.keys(RESOURCES).filter((noun) => noun.startsWith(prefix)) : [];
  return kinds.length === 1 ? kinds[0] : undefined;
}

/** "a deal's", "an account's". */
function possessive(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}'s`;
}

/** Which record a one-id command is about: the noun of the path's first collection, and its id. */
function subjectOf({ command, args }: Call): { noun: string; id?: string } {
  if (command.path === ENDPOINTS.ai_trigger.path) return { noun: 'contact', id: text(args, 'contact_id') };
  const collection = command.path.split('/')[1] ?? '';
  const noun = collection === 'ai' ? 'suggestion' : (resourceNamed(collection) ?? collection);
  return { noun, id: oneId(args) };
}

async function runDelete(ctx: Context, given: Call): Promise<Result> {
  const op = given.command;
  // A script without --yes is refused before the look-up of an email or a name.
  let resolved: Call | undefined;
  const resolve = async () => (resolved ??= await resolveCall(ctx, given));
  await confirmDeletion(ctx, `${op.noun} ${oneId(given.args)!}`, given.options.yes === true, async () => `Delete ${op.noun} ${await describeRecord(ctx, await resolve())}?`);
  const invocation = await resolve();
  const id = oneId(invocation.args)!;
  return done(`✓ Deleted ${op.noun} ${id}`, deletedRecord(id, await request(ctx, invocation, 'DELETE')));
}

/** What a delete answered, as a record: at least its id and `deleted: true`. */
function deletedRecord(id: string, data: unknown): JsonObject {
  return isObject(data) && Object.keys(data).length > 0 ? { id, deleted: true, ...data } : { id, deleted: true };
}

/** "con_x (Ada Lovelace)" for a confirmation; the id alone when the record cannot be read. */
async function describeRecord(ctx: Context, invocation: Call): Promise<string> {
  const id = oneId(invocation.args)!;
  try {
    const data = await (await ctx.client()).request('GET', pathOf(invocation));
    const name = isObject(data) ? (data.name ?? data.title) : undefined;
    return name === undefined || name === null ? id : `${id} (${safeLine(cellText(name))})`;
  } catch (error) {
    throw namingTheId(error, invocation);
  }
}
