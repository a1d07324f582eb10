// The generic command runner: for any operation of the registry, turn flags and arguments into a
// request (validated before anything is sent), call the service, and render the result.

import { flagName, type DynamicChoices, type FieldSpec, type Operation } from '../api/endpoints.js';
import type { Context } from '../cli/context.js';
import { CliError, ExitCode, usageError } from '../cli/errors.js';
import { deepMerge, emailProblem, parseInteger, parseSetPairs, parseTyped, readDataOption } from '../cli/input.js';
import type { Choice } from '../cli/prompt.js';
import { isObject, type JsonObject } from '../http/envelope.js';
import { PAGE_MAX } from '../http/core.js';
import { fillPath, type Query } from '../http/url.js';

export interface Invocation {
  op: Operation;
  /** Positional arguments by their ArgSpec name. */
  args: Record<string, string | string[] | undefined>;
  /** The command's own options, by commander attribute name (camelCase of the flag). */
  options: Record<string, unknown>;
}

export type Handler = (ctx: Context, invocation: Invocation) => Promise<void>;

export async function runGeneric(ctx: Context, invocation: Invocation): Promise<void> {
  const { op } = invocation;
  switch (op.kind) {
    case 'list':
      return printList(ctx, op, pathOf(invocation), listQuery(invocation), Boolean(invocation.options.all));
    case 'get': {
      const path = pathOf(invocation);
      const data = await (await ctx.client()).request('GET', path);
      return ctx.printer.record(data, { columns: op.columns });
    }
    case 'delete':
      return runDelete(ctx, invocation);
    default: {
      const path = pathOf(invocation);
      const body = await buildBody(ctx, invocation);
      const data = await (await ctx.client()).request(op.method, path, { body });
      return ctx.printer.record(data, { columns: op.columns }, { quietId: op.kind === 'create' });
    }
  }
}

/** The path with its `{placeholders}` filled from the positional arguments (URL-encoded). */
export function pathOf({ op, args }: Invocation): string {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) if (typeof value === 'string') params[name] = value;
  return fillPath(op.path, params);
}

/** Paging flags and filters of a list command. */
export function listQuery({ op, options }: Invocation): Query {
  const query: Query = {};
  if (op.paged) {
    if (options.all && options.limit !== undefined) throw usageError('--all and --limit cannot be used together');
    if (options.limit !== undefined) query.limit = parseInteger(String(options.limit), '--limit', 1, PAGE_MAX);
    if (options.offset !== undefined) query.offset = parseInteger(String(options.offset), '--offset', 0);
  }
  for (const field of op.query ?? []) {
    const raw = options[attributeName(field)];
    if (raw === undefined) continue;
    query[field.name] = parseTyped(raw as string | boolean, field.type, `--${flagName(field)}`) as string | number | boolean;
  }
  return query;
}

export async function printList(ctx: Context, op: Operation, path: string, query: Query, all = false): Promise<void> {
  const client = await ctx.client();
  if (all) {
    await ctx.printer.stream(client.paginate(path, query, op.listKey), { columns: op.columns });
    return;
  }
  const page = await client.list(path, query, op.listKey);
  await ctx.printer.records(page.items, { columns: op.columns });
  if (ctx.printer.format === 'table' && ctx.io.stderrIsTTY && page.total !== undefined && page.total > page.items.length) {
    const from = Number(query.offset ?? 0) + 1;
    ctx.info(`Showing ${from}-${from + page.items.length - 1} of ${page.total} ${op.listKey ?? 'records'} (use --all, or --offset for more).`);
  }
}

async function runDelete(ctx: Context, invocation: Invocation): Promise<void> {
  const { op, args, options } = invocation;
  const path = pathOf(invocation);
  await confirmOrStop(ctx, `Delete ${op.noun} ${String(args.id)}?`, Boolean(options.yes));
  const data = await (await ctx.client()).request('DELETE', path);
  if (ctx.printer.format === 'json' || ctx.printer.format === 'ndjson') {
    await ctx.printer.record(isObject(data) ? data : { id: args.id, deleted: true });
  } else if (ctx.io.stderrIsTTY && !ctx.options.quiet) {
    ctx.info(`✓ Deleted ${op.noun} ${String(args.id)}`);
  }
}

/** Destructive steps need a yes: --yes, or a person answering the question. Scripts without --yes stop (exit 2). */
export async function confirmOrStop(ctx: Context, question: string, yes: boolean): Promise<void> {
  if (yes || ctx.dryRun) return;
  if (!ctx.io.canPrompt) throw usageError('refusing to delete without confirmation', 'pass --yes to confirm');
  const confirmed = await ctx.prompter.confirm(question, false);
  if (!confirmed) throw new CliError('cancelled', ExitCode.interrupted, { code: 'cancelled' });
}

/** The key commander gives a flag's value: --list-id → listId. */
function attributeName(field: FieldSpec): string {
  return flagName(field).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * The request body of a create, update or action: --data, then --set, then the named flags (the most
 * specific wins). Required fields are checked on the merged body; a person at a terminal is asked
 * for what is missing, a script gets exit 2 naming the flags.
 */
export async function buildBody(ctx: Context, { op, options }: Invocation, fixed: JsonObject = {}): Promise<JsonObject> {
  const fields = op.body ?? [];
  const named: JsonObject = {};
  for (const field of fields) {
    const raw = options[attributeName(field)];
    if (raw !== undefined) named[field.name] = parseTyped(raw as string, field.type, `--${flagName(field)}`);
  }
  const data = typeof options.data === 'string' ? await readDataOption(options.data, ctx.io.stdin) : {};
  const set = Array.isArray(options.set) ? parseSetPairs(options.set as string[]) : {};
  let body = deepMerge(data, set, named, fixed);

  for (const field of fields) {
    if (field.type === 'email' && typeof body[field.name] === 'string') {
      const problem = emailProblem(body[field.name] as string);
      if (problem) throw usageError(`${field.name}: ${problem}`);
    }
  }

  const missing = fields.filter((field) => field.required && isBlank(body[field.name]));
  if (missing.length > 0) {
    if (!ctx.io.canPrompt) {
      const flags = missing.map((field) => `--${flagName(field)}`).join(', ');
      throw usageError(`missing required ${flags}`, ctx.io.stdinIsTTY ? 'prompts are off (--no-input)' : 'pass the flags, or --set/--data');
    }
    const asked = fields.filter((field) => missing.includes(field) || (field.prompt && body[field.name] === undefined));
    body = { ...body, ...(await askFields(ctx, asked)) };
  }

  if (op.kind === 'update' && Object.keys(body).length === 0) {
    const flags = fields.map((field) => `--${flagName(field)}`).join(', ');
    throw usageError('nothing to update', `pass at least one of ${flags}, --set or --data`);
  }
  return body;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** Prompts for each field; optional ones may be left empty. */
async function askFields(ctx: Context, fields: FieldSpec[]): Promise<JsonObject> {
  const answers: JsonObject = {};
  for (const field of fields) {
    const label = field.description.charAt(0).toUpperCase() + field.description.slice(1);
    if (field.choices) {
      const choices = await choicesFor(ctx, field.choices);
      if (choices.length > 0) {
        answers[field.name] = await ctx.prompter.select(label, choices);
        continue;
      }
    }
    const answer = await ctx.prompter.input(`${label}${field.required ? '' : ' (optional)'}`, {
      required: field.required,
      validate: (value) => validateAnswer(field, value),
    });
    if (answer.trim() !== '') answers[field.name] = parseTyped(answer.trim(), field.type, field.name);
  }
  return answers;
}

function validateAnswer(field: FieldSpec, value: string): string | true {
  const text = value.trim();
  if (text === '') return field.required ? `${field.description} is required` : true;
  try {
    parseTyped(text, field.type, field.name);
    return true;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Values a person picks from: a fixed list, or fetched from the service (stages, sequences). */
export async function choicesFor(ctx: Context, source: NonNullable<FieldSpec['choices']>): Promise<Choice[]> {
  if (typeof source !== 'string') return source.map((value) => ({ value }));
  return fetchChoices(ctx, source);
}

async function fetchChoices(ctx: Context, source: DynamicChoices): Promise<Choice[]> {
  const client = await ctx.client();
  const path = source === 'stages' ? '/pipeline/stages' : '/sequences';
  const page = await client.list(path, source === 'stages' ? {} : { limit: PAGE_MAX }, source);
  return page.items.filter(isObject).map((item) => {
    const value = String(item.id ?? item.name);
    const name = typeof item.name === 'string' && item.name !== value ? `${item.name} (${value})` : value;
    return { value, name };
  });
}
