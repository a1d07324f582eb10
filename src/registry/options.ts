// The flags an operation takes beyond its own fields. Apart from the registry's data, so that running
// a command does not load the operations a second time (the entry has them; it hands the one run over).

import type { FieldSpec, Operation } from './types.js';

/** Paging flags of a list command. */
export const PAGING_OPTIONS: readonly FieldSpec[] = [
  { name: 'limit', short: 'L', type: 'integer', min: 1, description: 'at most this many records in all, fetched 50 a request' },
  { name: 'offset', type: 'integer', min: 0, description: 'records to skip' },
  { name: 'all', type: 'boolean', description: 'every record, page by page, streamed as it arrives' },
];

/** Body flags shared by every create and update. */
export const BODY_OPTIONS: readonly FieldSpec[] = [
  { name: 'set', type: 'string', repeatable: true, description: 'set a body field: key=value (repeatable; JSON values, dotted keys nest)', example: 'custom.source=partner' },
  { name: 'data', type: 'string', description: 'request body as JSON, @file, or - for stdin' },
];

export const DELETE_OPTIONS: readonly FieldSpec[] = [{ name: 'yes', short: 'y', type: 'boolean', description: 'do not ask for confirmation' }];

/** Every option a command takes beyond its own fields: paging, body and confirmation flags. */
export function commandOptions(op: Operation): FieldSpec[] {
  return [
    ...(op.paged ? PAGING_OPTIONS : []),
    ...op.query,
    ...op.body,
    // Every request with a body takes --set and --data: a workspace whose names differ can still be driven.
    ...(op.method === 'POST' || op.method === 'PATCH' ? BODY_OPTIONS : []),
    ...(op.kind === 'delete' ? DELETE_OPTIONS : []),
    ...op.options,
  ];
}
