// A command's arguments and options, read and checked against the registry before anything is
// sent: every value has its type (numbers, dates, ids, fixed choices), and a handler reads them by
// name without casts. The same reading serves flags from the command line and an MCP tool's JSON.

import { usageError } from '../cli/errors.js';
import { parseValue } from '../cli/input.js';
import { commandOptions } from '../registry/options.js';
import type { WalkPosition } from '../http/paginate.js';
import type { LocalCommand } from '../registry/local.js';
import { flagName, type FieldSpec, type Operation } from '../registry/types.js';

/** Read values, by field name. */
export class Values {
  constructor(private readonly values: Readonly<Record<string, unknown>>) {}

  has(name: string): boolean {
    return Object.hasOwn(this.values, name) && this.values[name] !== undefined;
  }

  string(name: string): string | undefined {
    const value = this.get(name);
    return typeof value === 'string' ? value : value === undefined ? undefined : String(value);
  }

  number(name: string): number | undefined {
    const value = this.get(name);
    return typeof value === 'number' ? value : undefined;
  }

  flag(name: string): boolean {
    return this.get(name) === true;
  }

  list(name: string): string[] {
    const value = this.get(name);
    return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
  }

  /** Any value as read (JSON fields). */
  get(name: string): unknown {
    return Object.hasOwn(this.values, name) ? this.values[name] : undefined;
  }

  /** The values of these fields that were given, by name. */
  pick(fields: readonly FieldSpec[]): Record<string, unknown> {
    return Object.fromEntries(fields.filter((field) => this.has(field.name)).map((field) => [field.name, this.values[field.name]]));
  }
}

export interface Invocation<Spec extends Operation | LocalCommand = Operation | LocalCommand> {
  spec: Spec;
  args: Values;
  options: Values;
  /**
   * A list read as a walk that can be continued later (MCP list tools, with --limit as the page):
   * from where an earlier walk stood, or from the start.
   */
  walk?: { from?: WalkPosition };
}

/** Where the raw value of an option is found: commander's camelCase key, or the field's name (MCP). */
export type KeyOf = (field: FieldSpec) => string;

/** Every option a command takes, operation or local. */
function optionFields(spec: Operation | LocalCommand): readonly FieldSpec[] {
  return 'method' in spec ? commandOptions(spec) : spec.options;
}

export function parseInvocation<Spec extends Operation | LocalCommand>(
  spec: Spec,
  rawArgs: Readonly<Record<string, unknown>>,
  rawOptions: Readonly<Record<string, unknown>>,
  keyOf: KeyOf,
): Invocation<Spec> {
  const args: Record<string, unknown> = {};
  for (const field of spec.args) {
    const raw = rawArgs[field.name];
    if (raw === undefined || (Array.isArray(raw) && raw.length === 0)) {
      if (!field.optional && !field.variadic) throw usageError(`missing ${field.name.toUpperCase()}`);
      continue;
    }
    const label = field.name.toUpperCase();
    // Variadic id lists keep `-` (stdin) as it is; the handler reads it.
    args[field.name] = field.variadic ? (raw as unknown[]).map((item) => (item === '-' ? '-' : parseValue(String(item), { type: 'id' }, label))) : parseValue(raw, field, label);
  }
  const options: Record<string, unknown> = {};
  for (const field of optionFields(spec)) {
    const key = keyOf(field);
    if (!Object.hasOwn(rawOptions, key) || rawOptions[key] === undefined) continue;
    const raw = rawOptions[key];
    const label = `--${flagName(field)}`;
    options[field.name] = field.repeatable ? (Array.isArray(raw) ? raw : [raw]).map((item) => parseValue(item, field, label)) : parseValue(raw, field, label);
  }
  if (options.all && options.limit !== undefined) throw usageError('--all and --limit cannot be used together', '--all has no limit');
  return { spec, args: new Values(args), options: new Values(options) };
}
