// The cursor a list tool returns when more records exist, and takes to continue: opaque to an agent,
// it carries what the CLI's own walk needs to stay correct while the list shifts (src/http/paginate.ts):
// where the next record was, the last records given and the next ones, by id and creation time. So an
// agent that completes or deletes each page before asking for the next still reaches every record:
// a count (an offset) would skip as many records as were removed. A cursor names the call it came
// from (the tool and its other arguments): given to another, it is refused rather than followed into
// a different list.

import { createHash } from 'node:crypto';
import { usageError } from '../../cli/errors.js';
import type { WalkPosition } from '../../http/paginate.js';

const VERSION = 1;
/** More keys than a walk position holds, and longer ones than a record key needs, are not a cursor of crm. */
const MAX_KEYS = 10;
const MAX_KEY_LENGTH = 2_000;

/** The call a cursor belongs to: the tool and its arguments other than the paging ones. */
export function cursorScope(tool: string, args: Readonly<Record<string, unknown>>): string {
  const rest = Object.keys(args)
    .filter((name) => name !== 'cursor' && name !== 'limit')
    .sort()
    .map((name) => [name, args[name]]);
  return createHash('sha256').update(JSON.stringify([tool, rest])).digest('base64url').slice(0, 16);
}

export function encodeCursor(position: WalkPosition, scope: string): string {
  return Buffer.from(JSON.stringify({ v: VERSION, s: scope, o: position.offset, t: position.taken, a: position.ahead })).toString('base64url');
}

/** The position a cursor carries; a usage error when it is not a cursor of this call. */
export function decodeCursor(cursor: string, scope: string): WalkPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const keys = (value: unknown): value is string[] =>
    Array.isArray(value) && value.length <= MAX_KEYS && value.every((key) => typeof key === 'string' && key.length <= MAX_KEY_LENGTH);
  const fields = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const { v, s, o, t, a } = fields;
  if (v !== VERSION || typeof s !== 'string' || typeof o !== 'number' || !Number.isInteger(o) || o < 0 || !keys(t) || !keys(a) || t.length + a.length === 0) {
    throw usageError('invalid cursor: give the cursor of the previous call as it was returned');
  }
  if (s !== scope) throw usageError('this cursor belongs to another call: give it with the same tool and arguments (other than limit) as the call that returned it');
  return { offset: o, taken: t, ahead: a };
}
