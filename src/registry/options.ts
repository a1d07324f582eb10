// The flags a command of an endpoint takes beyond its own: paging for a paged list, the endpoint's
// filters and body fields, --set and --data for a body, --yes for a delete.

import { PAGE_MAX } from './service.js';
import { flagName, type Endpoint, type FieldSpec } from './types.js';

/** Paging flags of a list command. */
export const PAGING_OPTIONS = [
  { name: 'limit', short: 'L', type: 'integer', min: 1, description: `at most this many records in all, fetched ${PAGE_MAX} a request` },
  { name: 'offset', type: 'integer', min: 0, description: 'records to skip' },
  { name: 'all', type: 'boolean', description: 'every record, page by page, streamed as it arrives' },
] as const satisfies readonly FieldSpec[];

/** Body flags shared by every create and update. */
export const BODY_OPTIONS = [
  { name: 'set', type: 'string', repeatable: true, description: 'set a body field: key=value (repeatable; JSON values, dotted keys nest)', example: 'custom.source=partner' },
  { name: 'data', type: 'string', description: 'request body as JSON, @file, or - for stdin' },
] as const satisfies readonly FieldSpec[];

/** Requests on the wire at once, by default, for an import's rows and a bulk command's records. */
export const CONCURRENCY = 4;

/**
 * --concurrency of every command that sends one request a record: contacts import, and update,
 * delete, tasks complete, ai accept, contacts enroll and deals stage of several records.
 */
export const CONCURRENCY_OPTIONS = [
  { name: 'concurrency', type: 'integer', min: 1, max: 32, description: `requests at a time (default ${CONCURRENCY})` },
] as const satisfies readonly FieldSpec[];

export const DELETE_OPTIONS = [{ name: 'yes', short: 'y', type: 'boolean', description: 'do not ask for confirmation' }] as const satisfies readonly FieldSpec[];

/** Every option a command takes: its endpoint's paging, filter, body and confirmation flags, then its own. */
export function commandOptions(command: { endpoint?: Endpoint; options: readonly FieldSpec[] }): FieldSpec[] {
  const endpoint = command.endpoint;
  if (!endpoint) return [...command.options];
  return [
    ...(endpoint.paged ? PAGING_OPTIONS : []),
    ...endpoint.query,
    ...endpoint.body,
    ...endpoint.body.filter((field) => field.long).map(fileOption),
    // Every request with a body takes --set and --data: a workspace whose names differ can still be driven.
    ...(endpoint.method === 'POST' || endpoint.method === 'PATCH' ? BODY_OPTIONS : []),
    ...(endpoint.kind === 'delete' ? DELETE_OPTIONS : []),
    ...command.options,
  ];
}

/** A long text's file flag (--body-file for --body): its text from a file, or - for stdin. */
export function fileOption(field: FieldSpec): FieldSpec {
  return (FILE_OPTIONS.get(field) ?? FILE_OPTIONS.set(field, { name: `${field.name}_file`, flag: `${flagName(field)}-file`, type: 'file', description: `${field.description} from a file, or - for stdin (in place of --${flagName(field)}${field.required ? '; at a terminal, with neither, $VISUAL or $EDITOR opens' : ''})` }).get(field))!;
}

/** One option for each field, so that a command's options are the same objects whenever they are listed. */
const FILE_OPTIONS = new WeakMap<FieldSpec, FieldSpec>();
