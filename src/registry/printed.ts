// What a command prints, field by field, so that --fields is checked before anything is sent: a
// misspelt name is a usage error naming the fields there are, not an empty column.

import type { LocalCommand } from './local.js';
import { RESOURCES } from './resources.js';
import type { Operation, ResourceName } from './types.js';

/** The rows of a command that acts on several ids (tasks complete, ai accept, sequences enroll). */
const REPORT_FIELDS = ['id', 'ok', 'result', 'error', 'record'] as const;
const BULK = new Set(['tasks-complete', 'ai-accept', 'sequences-enroll']);

/**
 * The top-level fields a command prints (the first part of a dotted --fields name); undefined when
 * the registry cannot say (crm api prints whatever the service sends; analytics, any rollup).
 * `argument`: the value of the command's resource argument (crm watch deals).
 */
export function printedFields(spec: Operation | LocalCommand, argument?: string): readonly string[] | undefined {
  if ('method' in spec) {
    if (spec.kind === 'delete') return ['id', 'deleted'];
    if (spec.handler && BULK.has(spec.handler)) return REPORT_FIELDS;
    // Grouped search results are records of the four searchable resources.
    if (spec.handler === 'search') return union(spec.printed ?? [], ...(['contact', 'deal', 'account', 'task'] as const).map(fieldsOf));
    if (spec.resource) return union(fieldsOf(spec.resource), spec.printed ?? []);
    return spec.printed;
  }
  const resource = spec.printsResource === 'argument' ? Object.values(RESOURCES).find((candidate) => candidate.plural === argument)?.name : spec.printsResource;
  if (!resource) return spec.printed;
  return union(fieldsOf(resource), spec.printed ?? []);
}

function fieldsOf(resource: ResourceName): readonly string[] {
  const spec = RESOURCES[resource];
  return [...spec.fields.map((field) => field.name), ...(spec.members ?? [])];
}

function union(...lists: ReadonlyArray<readonly string[]>): string[] {
  return [...new Set(lists.flat())];
}
