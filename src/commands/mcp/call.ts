// One tool call: the arguments checked against the tool's schema, then the command's own code with
// the same checks as on the command line (runCommand), and its Result as the tool's result: JSON
// text plus the same data as structuredContent, made small (a list's brief fields unless asked for
// more, one {id, ok, result} row for each item of a bulk call) and safe for a model (every string
// from the service as escapeForModel writes it). Every failure is a tool error (isError) with a
// message and nothing else: never a stack, never the key (the HTTP core redacts it).

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, toCliError } from '../../cli/errors.js';
import { escapeForModel, formatNumber, safeLine, valueForModel } from '../../cli/format.js';
import { checkJsonInput } from '../../cli/input.js';
import { collectItems, resultValue, type Result } from '../../cli/result.js';
import { callsEndpoint, type EndpointCommand, type Tree } from '../command.js';
import { runCommand } from '../run.js';
import { cutText, isObject } from '../../registry/values.js';
import { HttpError } from '../../http/errors.js';
import { maskCredentials } from '../../http/url.js';
import { commandOptions } from '../../registry/options.js';
import { RESOURCES } from '../../registry/resources.js';
import { PAGE_DEFAULT } from '../../registry/service.js';
import { flagName } from '../../registry/types.js';
import type { KeyOf } from '../invocation.js';
import type { WalkPosition } from '../../http/paginate.js';
import { cursorScope, decodeCursor, encodeCursor } from './cursor.js';
import { CURSOR, DATA, FULL, LIST_MAX, SHAPING, toolArgsOf, type Tool } from './tools.js';
import { refusedKeyAdvice, unreachableAdvice, type Workspace } from './workspace.js';

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What a list tool was asked for (with the defaults filled in). */
interface Paging {
  limit: number;
  /** Where the previous call's walk stood (its cursor), or nothing: from the head of the list. */
  from?: WalkPosition;
  /** The call the cursors belong to. */
  scope: string;
}

/** How much of each record to return. */
interface Shape {
  /** The fields to keep; undefined: every one. */
  keep?: readonly string[];
}

/** A tool's values come by field name, not by commander's camelCase key. */
const BY_FIELD_NAME: KeyOf = (field) => field.name;

/**
 * Characters of JSON one response holds at most (about 20,000 tokens, within what agents' clients
 * accept): the items past it are left for the next call.
 */
const RESPONSE_MAX_CHARS = 80_000;
/** What is kept of each long string of an item too large for a response on its own. */
const STRING_KEPT_CHARS = 2_000;
/** What a bulk call's row holds besides its error (id, ok, result, the cut's note), and the least of its error kept. */
const REPORT_ROW_CHARS = 200;
const REPORT_ERROR_MIN_CHARS = 100;
/** Items of each array, members of each object, kept at most of an item still too large once its strings are cut (then fewer). */
const MEMBERS_KEPT_MAX = 1_000;

export async function callTool(ctx: Context, tree: Tree, tool: Tool, given: Record<string, unknown> | undefined, workspace: Workspace): Promise<ToolResult> {
  const args = given ?? {};
  const problem = argumentProblem(tool, args) ?? stdinProblem(tool, args);
  if (problem) return failed(`invalid arguments for ${tool.name}: ${problem}`);
  try {
    // The arguments are JSON the client wrote: a number JSON.parse could not keep is refused as --data's is.
    checkJsonInput(args, 'arguments');
    const paging = tool.op.paged ? pagingOf(tool, args) : undefined;
    const result = await runCommand(ctx, tree, tool.op, inputOf(tool, args, paging), BY_FIELD_NAME);
    const shape = shapeOf(tool, args, result);
    // A streamed list is read here, so a page that fails midway is a tool error too.
    const data = valueForModel(result.kind === 'list' ? await listData(tool, result, paging, shape) : singleData(tool, result, args, shape)) as Record<string, unknown>;
    const text = JSON.stringify(data);
    // What stderr says of a record (the service sent none back: what crm knows of it) is told the model too.
    const notices = result.kind === 'record' ? (result.view?.notices ?? []).map((notice) => ({ type: 'text' as const, text: line(notice.replace(/^crm: warning: /, '')) })) : [];
    if (!result.failure) return { content: [{ type: 'text', text }, ...notices], structuredContent: data };
    // Part of the work failed (a bulk action): what happened to each item, and the failure.
    return { isError: true, content: [{ type: 'text', text: line(messageOf(result.failure, tool, tree, workspace)) }, { type: 'text', text }], structuredContent: data };
  } catch (error) {
    if (ctx.debug && error instanceof Error && !(error instanceof CliError) && !(error instanceof HttpError)) ctx.info(maskCredentials(error.stack ?? error.message));
    return failed(messageOf(error, tool, tree, workspace));
  }
}

// ---- arguments ----------------------------------------------------------------------------------

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ValidateFunction>();

/** What is wrong with the arguments by the tool's schema, in one line; undefined when nothing is. */
function argumentProblem(tool: Tool, args: unknown): string | undefined {
  let validate = validators.get(tool.name);
  if (!validate) validators.set(tool.name, (validate = ajv.compile(tool.inputSchema)));
  if (validate(args)) return undefined;
  const errors = validate.errors ?? [];
  const problems = [...new Set(errors.map(describeError))];
  if (errors.some((error) => error.keyword === 'additionalProperties')) problems.push(`${tool.name} takes: ${Object.keys(tool.inputSchema.properties).join(', ')}`);
  return problems.join('; ');
}

/**
 * `-` among ids reads stdin on the command line; a call has no stdin (its ids are in the call), so
 * `-` would read nothing: the call is refused rather than done without the ids it meant.
 */
function stdinProblem(tool: Tool, args: Record<string, unknown>): string | undefined {
  for (const field of tool.op.args) {
    const at = field.variadic && Array.isArray(args[field.name]) ? (args[field.name] as unknown[]).indexOf('-') : -1;
    if (at >= 0) return `${field.name}.${at} "-" is not an id (a tool call reads no stdin: give the ids themselves)`;
  }
  return undefined;
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath.slice(1).replace(/\//g, '.') || 'arguments';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown argument ${JSON.stringify(params.additionalProperty)}`;
    case 'required':
      // Of an item (a sequence's steps.0), the path to the member: "channel" alone names no argument.
      return `missing required argument "${where === 'arguments' ? '' : `${where}.`}${String(params.missingProperty)}"`;
    case 'enum':
      return `${where} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}

function pagingOf(tool: Tool, args: Record<string, unknown>): Paging {
  const scope = cursorScope(tool.name, args);
  const cursor = args[CURSOR.name] as string | undefined;
  return { limit: (args.limit as number | undefined) ?? PAGE_DEFAULT, from: cursor === undefined ? undefined : decodeCursor(cursor, scope), scope };
}

/** The tool's own arguments, which its command does not take. */
const OWN_ARGUMENTS = new Set<string>([CURSOR.name, ...SHAPING]);

/** The call's arguments as the command's raw input: positional arguments and options, by field name, and for a list how to walk it. */
function inputOf({ op, inputSchema }: Tool, args: Record<string, unknown>, paging: Paging | undefined): Parameters<typeof runCommand>[3] {
  const positional: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  // A tool's argument as its command takes it: a get's one `id` is its command's list of ids.
  const toolArgs = toolArgsOf(op);
  op.args.forEach((field, index) => {
    const given = toolArgs[index]!;
    if (Object.hasOwn(args, given.name)) positional[field.name] = field.variadic && !given.variadic ? [args[given.name]] : args[given.name];
  });
  for (const name of Object.keys(inputSchema.properties)) {
    if (!Object.hasOwn(args, name) || OWN_ARGUMENTS.has(name) || toolArgs.some((field) => field.name === name)) continue;
    // --data takes JSON text.
    options[name] = name === DATA.name ? JSON.stringify(args[name]) : args[name];
  }
  // The call is the confirmation: the tool says it deletes (destructiveHint), the client asks.
  if (op.kind === 'delete') options.yes = true;
  if (!paging) return { args: positional, options };
  // A walk, so that the result can say where the next call continues (the cursor).
  return { args: positional, options: { ...options, limit: paging.limit }, walk: { from: paging.from } };
}

// ---- results ------------------------------------------------------------------------------------

/**
 * The fields to return: those asked for; every one with `full`, for a get, and for what is not a
 * list of records; a list's brief ones otherwise.
 */
function shapeOf(tool: Tool, args: Record<string, unknown>, result: Result): Shape {
  const asked = args[SHAPING[0]] as string[] | undefined;
  if (asked) return { keep: asked };
  if (args[FULL.name] === true || result.kind !== 'list' || tool.op.printsReport) return {};
  return { keep: tool.brief };
}

function shaped(record: unknown, { keep }: Shape): unknown {
  if (!keep || !isObject(record)) return record;
  return Object.fromEntries(keep.filter((name) => Object.hasOwn(record, name)).map((name) => [name, record[name]]));
}

/**
 * A bulk call's row for one item: what happened to it, and why when it failed; the record (its
 * brief fields) only for a call about one record, whose result is that record's (a stage move).
 */
function rowOf(row: unknown): unknown {
  if (!isObject(row)) return row;
  return { id: row.id, ok: row.ok, result: row.result, ...(row.ok === false && row.error ? { error: row.error } : {}) };
}

/** One record (get, create, update), an action's row, a done command's data. */
function singleData(tool: Tool, result: Exclude<Result, { kind: 'list' }>, args: Record<string, unknown>, shape: Shape): Record<string, unknown> {
  const value = resultValue(result);
  if (result.kind === 'record' && result.outcome) {
    const brief = tool.op.resource ? RESOURCES[tool.op.resource].brief : undefined;
    // The record the call was about: `id`, or the one of `ids` (a stage move, an enrolment of one contact).
    const id = args.id ?? (Array.isArray(args.ids) ? args.ids[0] : undefined);
    return { id, ok: true, result: result.outcome, record: fitted(shaped(value, { keep: brief })) };
  }
  const record = fitted(shaped(value, shape));
  return isObject(record) ? record : { value: record };
}

/**
 * An item (a record, a row) as a response can hold it: one that alone is over the response's limit
 * (a note of megabytes) has each long string cut, keys too, saying how much was cut; one still over
 * it (an array of thousands, members by the thousand) keeps the first items and members of each
 * array and object, fewer until it fits, each saying how many were cut.
 */
function fitted(item: unknown): unknown {
  const size = (value: unknown) => JSON.stringify(value)?.length ?? 0;
  if (size(item) <= RESPONSE_MAX_CHARS) return item;
  const strings = cutStrings(item);
  let cut = strings;
  for (let most = MEMBERS_KEPT_MAX; size(cut) > RESPONSE_MAX_CHARS && most >= 1; most = Math.floor(most / 2)) cut = cutMembers(strings, most);
  return cut;
}

function cutStrings(value: unknown, keep = STRING_KEPT_CHARS): unknown {
  if (Array.isArray(value)) return value.map((member) => cutStrings(member, keep));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, member]) => [cutStrings(key, keep), cutStrings(member, keep)]));
  if (typeof value !== 'string' || value.length <= keep) return value;
  const { kept, cut } = cutText(value, keep);
  return `${kept}… [${formatNumber(cut)} more characters cut: ${HOLDS_AT_MOST}]`;
}

const HOLDS_AT_MOST = `a tool result holds at most ${formatNumber(RESPONSE_MAX_CHARS)}`;

/** Each array's first `most` items and each object's first `most` members, and a last one saying how many more were cut. */
function cutMembers(value: unknown, most: number): unknown {
  const said = (count: number, what: string) => `${formatNumber(count)} more ${what} cut: ${HOLDS_AT_MOST} characters`;
  if (Array.isArray(value)) {
    const kept = value.slice(0, most).map((member) => cutMembers(member, most));
    return value.length > most ? [...kept, `… [${said(value.length - most, 'items')}]`] : kept;
  }
  if (!isObject(value)) return value;
  const entries = Object.entries(value);
  const kept = entries.slice(0, most).map(([key, member]) => [key, cutMembers(member, most)]);
  return Object.fromEntries(entries.length > most ? [...kept, ['…', `[${said(entries.length - most, 'members')}]`]] : kept);
}

async function listData(tool: Tool, result: Extract<Result, { kind: 'list' }>, paging: Paging | undefined, shape: Shape): Promise<Record<string, unknown>> {
  if (tool.op.printsReport) return reportData(result);
  const walk = result.walk;
  const item = (record: unknown) => fitted(shaped(record, shape));
  if (!paging || !walk) {
    const { items, cut } = await collectItems(result.items, { maxChars: RESPONSE_MAX_CHARS, map: item });
    const leftOut = result.view?.leftOut ?? 0;
    const data: Record<string, unknown> = { items, count: items.length, has_more: cut || leftOut > 0 };
    if (cut) data.next = `more items were left out to keep the response under ${RESPONSE_MAX_CHARS} characters`;
    // A list crm sorted itself has no cursor: the whole list is read and sorted on every call.
    else if (leftOut > 0) data.next = `${formatNumber(leftOut)} more match: crm sorted this list itself, so it has no cursor; call again with a larger limit (at most ${LIST_MAX}), or without sort to page on with a cursor`;
    if (result.view?.summary) data.summary = result.view.summary;
    return data;
  }
  // The walk gives at most `limit` records; one that would make the response too large is given back.
  const items: unknown[] = [];
  let chars = 0;
  for await (const record of result.items) {
    const kept = item(record);
    const size = JSON.stringify(kept)?.length ?? 0;
    if (items.length > 0 && chars + size > RESPONSE_MAX_CHARS) {
      walk.unread();
      break;
    }
    items.push(kept);
    chars += size;
  }
  const position = walk.position();
  // The service's total counts what it lists: of a list crm filtered itself, more than match.
  const total = result.view?.filteredByCrm ? undefined : walk.total;
  const data: Record<string, unknown> = { items, count: items.length, ...(total === undefined ? {} : { total }), has_more: position !== undefined };
  if (position) data.cursor = encodeCursor(position, paging.scope);
  return data;
}

/**
 * A bulk call's report: a row for every id, whatever their size (the work is done: a row left out
 * would be an outcome the agent never learns). Rows too large together have each error (the
 * service's message) cut to a share of the response.
 */
async function reportData(result: Extract<Result, { kind: 'list' }>): Promise<Record<string, unknown>> {
  const { items: rows } = await collectItems(result.items, { map: rowOf });
  const share = Math.max(REPORT_ERROR_MIN_CHARS, Math.floor(RESPONSE_MAX_CHARS / Math.max(1, rows.length)) - REPORT_ROW_CHARS);
  const fits = (JSON.stringify(rows)?.length ?? 0) <= RESPONSE_MAX_CHARS;
  const items = fits ? rows : rows.map((row) => (isObject(row) && typeof row.error === 'string' ? { ...row, error: cutStrings(row.error, share) } : row));
  return { items, count: items.length, has_more: false, ...(result.view?.summary ? { summary: result.view.summary } : {}) };
}

function failed(message: string): ToolResult {
  return { isError: true, content: [{ type: 'text', text: line(message) }] };
}

/** A message for the model: one line, no password of a URL, nothing hidden. */
function line(message: string): string {
  return safeLine(escapeForModel(maskCredentials(message)));
}

/**
 * The failure in one line: the service's message (the core has redacted the key), a local check's
 * message in the tool's words, and what to do next: a 429 says when to call again; a refused key
 * says who can fix it (not the agent); a cancelled write, that it may have taken effect; any other
 * its hint (the record a name most likely meant, that a bulk call is safe to repeat).
 */
function messageOf(error: unknown, tool: Tool, tree: Tree, workspace: Workspace): string {
  const failure = toCliError(error);
  let message = failure.exitCode === ExitCode.usage ? inToolTerms(failure.message, tool.op) : failure.message;
  // A long Retry-After is in the message already ("retry after 45s, at ..."); without one, the
  // service's published window is a minute.
  if (error instanceof HttpError && error.kind === 'status' && error.status === 429) message += ' (rate limited: wait about a minute, then call again)';
  if (failure.exitCode === ExitCode.auth) message += ` (${failure.status === 403 ? "the API key in this server's configuration lacks the scope this needs" : refusedKeyAdvice(workspace)})`;
  if (failure.exitCode === ExitCode.interrupted && failure.hint) message += ` (${failure.hint})`;
  // Those above say it in the agent's terms already (a CLI's hint would say --wait, crm auth login).
  const saidAlready = [ExitCode.auth, ExitCode.rateLimited, ExitCode.interrupted] as number[];
  // A host that is not there: the command line's hint names `crm auth status`, which an agent cannot run.
  if (failure.exitCode === ExitCode.network && NOWHERE.has(failure.code ?? '')) message += ` (${unreachableAdvice(workspace)})`;
  // A write sent with no answer crm can read, a 5xx, a create answered without its record: an agent
  // that calls again may do it twice (the command line's hint names `crm api`).
  else if (failure.mayHaveActed) message += ` (${uncertainWriteAdvice(tool, tree)})`;
  else if (failure.hint && !saidAlready.includes(failure.exitCode)) message += ` (${inToolTerms(withToolCalls(failure.hint, tree), tool.op)})`;
  return message;
}

/** What to do before calling again: look for the record where the tool that lists its kind shows it. */
function uncertainWriteAdvice(tool: Tool, tree: Tree): string {
  if (tool.definition.annotations.idempotentHint) return `the service may have done it all the same: calling ${tool.name} again is harmless`;
  if (tool.op.kind !== 'create') return `the service may have done it all the same: check before calling ${tool.name} again`;
  const lister = tree.commands.find((command) => command.endpoint?.kind === 'list' && command.endpoint.resource === tool.op.resource);
  return `the service may have created the ${tool.op.noun} all the same: look for it${lister ? ` with ${lister.name}` : ''} before calling ${tool.name} again, or it may be made twice`;
}

/** The codes of a network failure whose host is not there: not found by its name, or nothing listening. */
const NOWHERE = new Set(['enotfound', 'eai_again', 'econnrefused']);

/**
 * A command line a hint names (`crm ai trigger con_1`: score a contact created without its score) as
 * the call an agent makes: ai_trigger {"contact_id":"con_1"}. One whose words name no tool, or that
 * has flags, stays as it is.
 */
function withToolCalls(hint: string, tree: Tree): string {
  return hint.replace(/`crm ([^`]+)`/g, (whole, line: string) => {
    const words = line.trim().split(/\s+/);
    // The longest command the words begin with (contacts notes add, not contacts).
    const op = tree.commands
      .filter(callsEndpoint)
      .filter((command) => command.command.every((word, index) => words[index] === word))
      .sort((a, b) => b.command.length - a.command.length)[0];
    const values = words.slice(op?.command.length);
    const fields = op ? toolArgsOf(op) : [];
    if (!op || values.some((value) => value.startsWith('-')) || values.length > fields.length) return whole;
    const args = Object.fromEntries(values.map((value, index) => [fields[index]!.name, fields[index]!.variadic ? [value] : value]));
    return `${op.name} ${JSON.stringify(args)}`;
  });
}

/** A local check speaks of the command line (--due, ID): here it names the tool's arguments (due_date, id). */
function inToolTerms(message: string, op: EndpointCommand): string {
  const names = new Map<string, string>();
  for (const field of commandOptions(op)) names.set(`--${flagName(field)}`, field.name);
  for (const field of [...op.args, ...toolArgsOf(op)]) names.set(field.name.toUpperCase(), field.name);
  // A tool takes no --set (key=value text): its data says the same, so "--set or --data" is data.
  names.set('--set', DATA.name);
  // A tool has arguments where the command line has flags.
  const withoutSet = message.replace(/, --set or --data/g, ' or --data').replace(/--set\/--data/g, '--data').replace(/\bflag(s?)\b/g, 'argument$1');
  return withoutSet.replace(/--[a-z][a-z-]*|\b[A-Z][A-Z_]*\b/g, (word) => names.get(word) ?? word);
}
