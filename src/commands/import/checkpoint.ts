// The checkpoint of an import: a journal, one JSON line per step of a row, appended as it happens
// (before a request is sent, and when its answer is in), so it is whole up to the last step even
// after a crash or SIGKILL. --resume reads it back: rows created or updated are not sent again;
// rows that were being sent, or failed without a clear answer, are first looked up by email (the
// service may have acted on a request whose answer never came), so no row is ever created twice.

import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { usageError } from '../../cli/errors.js';
import { isObject } from '../../http/envelope.js';

const FORMAT = 'crm contacts import checkpoint 1';

export type JournalState = 'sending' | 'created' | 'updated' | 'failed';

export interface RowEntry {
  /** A digest of what the row sends: a resumed import refuses a file whose imported rows changed. */
  digest: string;
  state: JournalState;
  id?: string;
  /** Failed without a clear answer (the connection dropped, a 5xx): the service may have acted. */
  uncertain?: boolean;
  scored?: boolean;
}

export class Checkpoint {
  private fd: number | undefined;

  private constructor(
    readonly path: string,
    /** What the journal says of each line, its last word for each. */
    readonly entries: ReadonlyMap<number, RowEntry>,
  ) {}

  /**
   * The checkpoint at PATH. Without --resume an existing one is refused: importing the same rows
   * again would create them twice. With --resume and none, the import starts from the first row.
   */
  static open(path: string, resume: boolean, input: string): Checkpoint {
    if (!existsSync(path)) return new Checkpoint(path, new Map());
    if (!resume) {
      throw usageError(`${input} was imported before: ${path} holds the progress of that import`, `finish it with --resume, or delete ${path} to import every row again`);
    }
    return new Checkpoint(path, readJournal(path));
  }

  /** Appends one step; written through at once (a few microseconds: no buffer to lose). */
  write(line: number, step: { digest?: string; state?: JournalState; id?: string; error?: string; uncertain?: boolean; scored?: boolean }): void {
    if (this.fd === undefined) {
      const fresh = !existsSync(this.path);
      this.fd = openSync(this.path, 'a', 0o600);
      if (fresh) writeSync(this.fd, `${JSON.stringify({ checkpoint: FORMAT })}\n`);
    }
    writeSync(this.fd, `${JSON.stringify({ line, ...step })}\n`);
  }

  /** Closes the journal; deletes it when the import is complete (nothing left to resume). */
  close(complete: boolean): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (complete) rmSync(this.path, { force: true });
  }
}

function readJournal(path: string): Map<number, RowEntry> {
  const lines = readFileSync(path, 'utf8').split('\n');
  let header: unknown;
  try {
    header = JSON.parse(lines[0] ?? '');
  } catch {
    header = undefined;
  }
  if (!isObject(header) || header.checkpoint !== FORMAT) {
    throw usageError(`${path} is not a checkpoint of crm contacts import`, 'give the checkpoint of an earlier import with --checkpoint FILE');
  }
  const entries = new Map<number, RowEntry>();
  for (const text of lines.slice(1)) {
    let step: unknown;
    try {
      step = JSON.parse(text);
    } catch {
      continue; // a line cut short by a crash: the step it began never completed
    }
    if (!isObject(step) || typeof step.line !== 'number') continue;
    const previous = entries.get(step.line);
    if (step.scored === true && previous) {
      previous.scored = true;
      continue;
    }
    if (typeof step.digest !== 'string' || typeof step.state !== 'string') continue;
    entries.set(step.line, {
      digest: step.digest,
      state: step.state as JournalState,
      id: typeof step.id === 'string' ? step.id : previous?.id,
      uncertain: step.uncertain === true,
      scored: previous?.digest === step.digest ? previous.scored : undefined,
    });
  }
  return entries;
}
