// A write the service answers with no record: 204 No Content, a 200 with an empty body, or `data`
// null. The spec shows every write answered with its record, but a workspace may answer so, and the
// write took effect: crm shows what it knows of the record (its id, or its parent's) and says on
// stderr that the service sent none, rather than calling a success a malformed answer (exit 6).
// A create of a record of its own stays one: its id is what a script wants, and crm does not know it.

import { record, type Result, type View } from '../cli/result.js';
import type { JsonObject } from '../registry/values.js';

/** What crm knows of the record a write was about, which the service did not send back. */
export class NoRecordSent {
  constructor(
    readonly known: JsonObject,
    readonly noun: string,
  ) {}

  /** The line on stderr (and a second text of an MCP tool's result) that says the record is not the service's. */
  get notice(): string {
    return `crm: warning: the service answered with no ${this.noun} (no content): the write took effect; shown is what crm knows of it`;
  }
}

/** The record a write answered with as a command's result; none sent, what crm knows, with the notice. */
export function writtenRecord(answer: unknown, view: View): Extract<Result, { kind: 'record' }> {
  if (!(answer instanceof NoRecordSent)) return record(answer, view);
  // The known members alone: the columns of a whole record would be empty.
  return record(answer.known, { noun: view.noun, notices: [...(view.notices ?? []), answer.notice] });
}
