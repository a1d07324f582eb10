// A command's arguments and options, read and checked against its definition before anything is
// sent: every value has its type (numbers, dates, ids, fixed choices). The same reading serves flags
// from the command line and an MCP tool's JSON; a handler gets them typed (./command.ts Input).

import { usageError } from '../cli/errors.js';
import { parseValue, type Today } from '../cli/input.js';
import { commandOptions } from '../registry/options.js';
import { LIST_FILTERS } from '../registry/resources.js';
import { flagName, type FieldSpec } from '../registry/types.js';
import type { Command, Invocation, Values } from './command.js';
import { keyedResource, parseKey } from './keys.js';

/** Where the raw value of an option is found: commander's camelCase key, or the field's name (MCP). */
export type KeyOf = (field: FieldSpec) => string;

/** `today`: what a date flag's today, tomorrow or +3d count from (the Context's). */
export function parseInvocation<C extends Command>(command: C, rawArgs: Values, rawOptions: Values, keyOf: KeyOf, today: Today): Invocation<C> {
  const args: Record<string, unknown> = {};
  for (const field of command.args) {
    const raw = rawArgs[field.name];
    if (raw === undefined || (Array.isArray(raw) && raw.length === 0)) {
      if (!field.optional && !field.variadic) throw usageError(`missing ${field.name.toUpperCase()}`);
      continue;
    }
    // Each of several ids is an ID.
    const label = field.name === 'ids' ? 'ID' : field.name.toUpperCase();
    // Variadic id lists keep `-` (stdin) as it is; the handler reads it. A variadic of text (deals
    // stage: the deals, then a stage's name) is the handler's to check.
    const item = { type: field.type === 'string' ? 'string' : 'id', references: field.references } as const;
    args[field.name] = field.variadic ? (raw as unknown[]).map((value) => (value === '-' ? '-' : parseField(String(value), item, label, today))) : parseField(raw, field, label, today);
  }
  const options: Record<string, unknown> = {};
  for (const field of commandOptions(command)) {
    const key = keyOf(field);
    if (!Object.hasOwn(rawOptions, key) || rawOptions[key] === undefined) continue;
    const raw = rawOptions[key];
    const label = `--${flagName(field)}`;
    // `--status "$STATUS"` with nothing in it: sent as status= the filter selects nothing, and every
    // record comes back (the sandbox), to be piped into an update or a delete.
    if (LIST_FILTERS.has(field) && typeof raw === 'string' && raw.trim() === '') throw usageError(`invalid ${label} ${JSON.stringify(raw)} (an empty filter)`, `leave ${label} out to list every record`);
    options[field.name] = field.repeatable ? (Array.isArray(raw) ? raw : [raw]).map((item) => parseField(item, field, label, today)) : parseField(raw, field, label, today);
  }
  if (options.all && options.limit !== undefined) throw usageError('--all and --limit cannot be used together', '--all has no limit');
  return { command, args, options };
}

/** A value of its field's type; a field that names a contact or an account also takes its email or name (./keys.ts). */
function parseField(raw: unknown, field: Omit<FieldSpec, 'name' | 'description'>, label: string, today: Today): unknown {
  const resource = keyedResource(field);
  if (!resource || (field.type !== 'id' && field.type !== 'ids')) return parseValue(raw, field, label, today);
  const items = field.type === 'ids' ? (parseValue(raw, { type: 'ids' }, label) as string[]) : undefined;
  if (items) return items.map((item) => parseKey(resource, item, label));
  if (typeof raw !== 'string') return parseValue(raw, field, label);
  return parseKey(resource, raw, label);
}

/** The given values of these fields, by name. */
export function pick(values: Values, fields: readonly FieldSpec[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => values[field.name] !== undefined).map((field) => [field.name, values[field.name]]));
}

/** A value as text (an id, a name), when one was given. */
export function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : value === undefined ? undefined : String(value);
}
