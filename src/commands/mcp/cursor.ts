// The cursor a list tool returns when more records exist, and takes to continue: opaque to an agent,
// it carries what the CLI's own walk needs to stay correct while the list shifts (src/http/paginate.ts):
// where the next record was, the last records given and the next ones, each by a short digest of its
// id and creation time (positionKey). So an agent that completes or deletes each page before asking
// for the next still reaches every record: a count (an offset) would skip as many records as were
// removed. A cursor names the call it came from (the tool and its arguments, less those that only
// page or shape the result: limit, fields, full): given to another, it is refused rather than
// followed into a different list.
//
// It is bytes, base64url: a version, the call's digest, the offset, how many keys of each kind, the
// keys. About 90 characters, so that a page of records costs few tokens more than its records.

import { createHash } from 'node:crypto';
import { usageError } from '../../cli/errors.js';
import type { WalkPosition } from '../../http/paginate.js';

const VERSION = 2;
const SCOPE_BYTES = 8;
const OFFSET_BYTES = 6;
/** A positionKey: 16 hex digits. */
const KEY_BYTES = 8;
const HEADER_BYTES = 1 + SCOPE_BYTES + OFFSET_BYTES + 1;
/** Keys of each kind a cursor holds at most (a count is half a byte). */
const MAX_KEYS = 15;

/** Arguments that page or shape a list: changing them between calls continues the same walk. */
const NOT_OF_THE_CALL = new Set(['cursor', 'limit', 'fields', 'full']);

/** The call a cursor belongs to: the tool and its arguments other than the paging and shaping ones. */
export function cursorScope(tool: string, args: Readonly<Record<string, unknown>>): string {
  const rest = Object.keys(args)
    .filter((name) => !NOT_OF_THE_CALL.has(name))
    .sort()
    .map((name) => [name, args[name]]);
  return createHash('sha256').update(JSON.stringify([tool, rest])).digest('hex').slice(0, 2 * SCOPE_BYTES);
}

export function encodeCursor(position: WalkPosition, scope: string): string {
  // A walk for a cursor is made resumable (endpoint.ts): its keys are digests of 8 bytes.
  if (!position.digests) throw new Error('a cursor holds the position of a resumable walk only');
  const taken = position.taken.slice(-MAX_KEYS);
  const ahead = position.ahead.slice(0, MAX_KEYS);
  const bytes = Buffer.alloc(HEADER_BYTES + KEY_BYTES * (taken.length + ahead.length));
  bytes[0] = VERSION;
  bytes.write(scope, 1, SCOPE_BYTES, 'hex');
  bytes.writeUIntBE(Math.min(position.offset, 2 ** (8 * OFFSET_BYTES) - 1), 1 + SCOPE_BYTES, OFFSET_BYTES);
  bytes[HEADER_BYTES - 1] = (taken.length << 4) | ahead.length;
  [...taken, ...ahead].forEach((key, index) => bytes.write(key, HEADER_BYTES + index * KEY_BYTES, KEY_BYTES, 'hex'));
  return bytes.toString('base64url');
}

/** The position a cursor carries; a usage error when it is not a cursor of this call. */
export function decodeCursor(cursor: string, scope: string): WalkPosition {
  const bytes = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url') : Buffer.alloc(0);
  const counts = bytes.length >= HEADER_BYTES ? bytes[HEADER_BYTES - 1]! : 0;
  const taken = counts >> 4;
  const ahead = counts & 0x0f;
  if (bytes[0] !== VERSION || taken + ahead === 0 || bytes.length !== HEADER_BYTES + KEY_BYTES * (taken + ahead)) {
    throw usageError('invalid cursor: give the cursor of the previous call as it was returned');
  }
  if (bytes.toString('hex', 1, 1 + SCOPE_BYTES) !== scope) {
    throw usageError('this cursor belongs to another call: give it with the same tool and arguments (other than limit, fields and full) as the call that returned it');
  }
  const keys = Array.from({ length: taken + ahead }, (_, index) => bytes.toString('hex', HEADER_BYTES + index * KEY_BYTES, HEADER_BYTES + (index + 1) * KEY_BYTES));
  return { offset: bytes.readUIntBE(1 + SCOPE_BYTES, OFFSET_BYTES), taken: keys.slice(0, taken), ahead: keys.slice(taken), digests: true };
}
