// Runs a command: its arguments and options read and checked against its definition, --fields
// checked against what it prints, then its handler (loaded on use) or the generic runner. Each
// returns a Result for the printer.

import type { Context } from '../cli/context.js';
import { usageError } from '../cli/errors.js';
import type { Result } from '../cli/result.js';
import { optionKey } from '../registry/types.js';
import { callsEndpoint, type Command, type Invocation, type Tree } from './command.js';
import { runGeneric } from './endpoint.js';
import { parseInvocation, text, type KeyOf } from './invocation.js';
import { printedFields, recordFields } from './printed.js';

/** Arguments and options as commander (or an MCP tool call) hands them over. */
interface RawInput {
  args: Readonly<Record<string, unknown>>;
  options: Readonly<Record<string, unknown>>;
  /** An MCP list tool: the list read as a walk that can be continued. */
  walk?: Invocation['walk'];
}

/** Options by commander's camelCase key; an MCP tool passes them by field name. */
const COMMANDER_KEYS: KeyOf = optionKey;

/** Runs COMMAND, one of TREE's, with arguments and options as given. */
export async function runCommand(ctx: Context, tree: Tree, command: Command, input: RawInput, keyOf: KeyOf = COMMANDER_KEYS): Promise<Result> {
  const invocation = { ...parseInvocation(command, input.args, input.options, keyOf, ctx.today()), walk: input.walk };
  const argument = command.printsResource === 'argument' ? text(invocation.args, 'resource') : undefined;
  const what = callsEndpoint(command) ? (command.plural ?? command.noun) : (argument ?? `crm ${command.command.join(' ')}`);
  checkFields(ctx, printedFields(command, argument), what);
  const fields = recordFields(command, argument);
  if (command.load) return withRecordFields(await (await command.load())(ctx, { ...invocation, tree }), fields);
  if (!callsEndpoint(command)) throw new Error(`crm ${command.command.join(' ')} has neither a handler nor an endpoint`);
  return withRecordFields(await runGeneric(ctx, { ...invocation, command }), fields);
}

/** A list carries the fields the registry gives its records: a CSV's header when there is no record. */
function withRecordFields(result: Result, fields: readonly string[] | undefined): Result {
  if (result.kind !== 'list' || !fields || result.view?.fields) return result;
  return { ...result, view: { ...result.view, fields } };
}

/** --fields names the definition does not know for what this command prints: exit 2, before anything is sent. */
function checkFields(ctx: Context, known: readonly string[] | undefined, what: string): void {
  const fields = ctx.output().fields;
  if (!fields || !known) return;
  const unknown = fields.filter((field) => !known.includes(field) && !known.includes(field.split('.')[0]!));
  if (unknown.length === 0) return;
  const names = unknown.map((field) => `"${field}"`).join(', ');
  throw usageError(`unknown field${unknown.length > 1 ? 's' : ''} ${names} for ${what} (fields: ${known.join(', ')})`, '--json prints every field a record has');
}
