// What a command prints, by top-level field, as its definition says: what --fields is checked
// against before anything is sent (./run.ts), and how the entry tells gh's `--json id,email` (a field
// list) from `--json ID` (a flag, then an argument). Definitions and registry only: the entry loads it.

import { RESOURCES, resourceNamed } from '../registry/resources.js';
import type { ResourceName } from '../registry/types.js';
import type { Command } from './command.js';

/** The columns of a bulk command's report (./bulk.ts): the same in every order. */
const REPORT_FIELDS = ['id', 'ok', 'result', 'error', 'record'] as const;

/**
 * The top-level fields a command prints (the first part of a dotted --fields name); undefined when
 * its definition cannot say (crm api prints whatever the service sends; analytics, any rollup).
 * `argument`: the value of the command's resource argument (crm watch deals).
 */
export function printedFields(command: Command, argument?: string): readonly string[] | undefined {
  if (command.printsReport) return REPORT_FIELDS;
  // A command given several records (or `-`) prints a report; one record, what it always printed. A
  // get prints the records either way.
  const report = command.kind !== 'get' && command.args.some((field) => field.name === 'ids' && field.variadic) ? REPORT_FIELDS : [];
  if (command.kind === 'delete') return union(['id', 'deleted'], report);
  const resource = command.printsResource === 'argument' ? argument && resourceNamed(argument) : (command.printsResource ?? command.resource);
  if (!resource) return command.printed && union(command.printed, report);
  return union(fieldsOf(resource), command.printed ?? [], report);
}

/**
 * The fields of the records a list command prints, by the registry (members that only one record's
 * answer carries left out): undefined when they are not one resource's records (search, a report).
 */
export function recordFields(command: Command, argument?: string): readonly string[] | undefined {
  if (command.printsReport) return undefined;
  const resource = command.printsResource === 'argument' ? argument && resourceNamed(argument) : (command.printsResource ?? command.resource);
  if (!resource) return undefined;
  const { fields, members = [] } = RESOURCES[resource];
  return fields.map((field) => field.name).filter((name) => !members.includes(name));
}

function fieldsOf(resource: ResourceName): readonly string[] {
  const spec = RESOURCES[resource];
  return [...spec.fields.map((field) => field.name), ...(spec.members ?? [])];
}

function union(...lists: ReadonlyArray<readonly string[]>): string[] {
  return [...new Set(lists.flat())];
}
