// The checkpoint of an import: a journal of JSON lines, appended as the import goes, so that
// --resume can finish the job and never create a row twice, even after a crash or SIGKILL.
//
// - Before a row is sent, a mark that rows up to some line ahead may have been sent is on disk
//   (written once for the next MARK_AHEAD rows, not once a row: one write instead of fifty).
// - Outcomes (created with the id, updated, failed) are written in batches: with the next mark,
//   every FLUSH_MS, and at the end.
//
// --resume reads it back: rows created or updated are not sent again; a row under the mark with no
// outcome (its answer was lost, or its outcome not yet written) and a row that failed without a
// clear answer are first looked up by email: the service may have created them.

import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { usageError } from '../../cli/errors.js';
import { isObject } from '../../http/envelope.js';

const FORMAT = 'crm contacts import checkpoint 1';
/** How many rows one mark covers ahead of the row about to be sent. */
export const MARK_AHEAD = 50;
const FLUSH_MS = 250;

export type Outcome = 'created' | 'updated' | 'failed';

export interface RowEntry {
  /** A digest of what the row sends: a resumed import refuses a file whose imported rows changed. */
  digest: string;
  state: Outcome;
  id?: string;
  /** Failed without a clear answer (the connection dropped, a 5xx): the service may have acted. */
  uncertain?: boolean;
  scored?: boolean;
}

export class Checkpoint {
  private fd: number | undefined;
  /** Outcomes not yet written. */
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  /** The highest line the marks on disk cover. */
  private marked: number;

  private constructor(
    readonly path: string,
    /** What the journal says of each line, its last word for each. */
    readonly entries: ReadonlyMap<number, RowEntry>,
    /** Rows up to this line may have been sent by an earlier run (0: none). */
    readonly sentThrough: number,
  ) {
    this.marked = sentThrough;
  }

  /**
   * The checkpoint at PATH. Without --resume an existing one is refused: importing the same rows
   * again would create them twice. With --resume and none, the import starts from the first row.
   */
  static open(path: string, resume: boolean, input: string): Checkpoint {
    if (!existsSync(path)) return new Checkpoint(path, new Map(), 0);
    if (!resume) {
      throw usageError(`${input} was imported before: ${path} holds the progress of that import`, `finish it with --resume, or delete ${path} to import every row again`);
    }
    const { entries, sentThrough } = readJournal(path);
    return new Checkpoint(path, entries, sentThrough);
  }

  /** Before LINE is sent: makes sure a mark covers it, marking up to `ahead()` when one is needed. */
  sending(line: number, ahead: () => number): void {
    if (line <= this.marked) return;
    this.marked = Math.max(line, ahead());
    this.append(`${JSON.stringify({ sent_through: this.marked })}\n`, true);
  }

  /** What became of a row (or that it was scored); written with the next batch. */
  outcome(line: number, step: { digest?: string; state?: Outcome; id?: string; error?: string; uncertain?: boolean; scored?: boolean }): void {
    this.append(`${JSON.stringify({ line, ...step })}\n`, false);
  }

  /** Writes what is pending; deletes the journal when the import is complete (nothing to resume). Again: nothing. */
  close(complete: boolean): void {
    this.flush();
    clearTimeout(this.timer);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (complete) rmSync(this.path, { force: true });
  }

  private append(text: string, now: boolean): void {
    this.pending += text;
    if (now) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '') return;
    if (this.fd === undefined) {
      const fresh = !existsSync(this.path);
      this.fd = openSync(this.path, 'a', 0o600);
      if (fresh) writeSync(this.fd, `${JSON.stringify({ checkpoint: FORMAT })}\n`);
    }
    writeSync(this.fd, this.pending);
    this.pending = '';
  }
}

function readJournal(path: string): { entries: Map<number, RowEntry>; sentThrough: number } {
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
  let sentThrough = 0;
  for (const text of lines.slice(1)) {
    let step: unknown;
    try {
      step = JSON.parse(text);
    } catch {
      continue; // a line cut short by a crash: what it said is looked up again
    }
    if (!isObject(step)) continue;
    if (typeof step.sent_through === 'number') sentThrough = Math.max(sentThrough, step.sent_through);
    if (typeof step.line !== 'number') continue;
    const previous = entries.get(step.line);
    if (step.scored === true && previous) {
      previous.scored = true;
      continue;
    }
    if (typeof step.digest !== 'string' || !['created', 'updated', 'failed'].includes(String(step.state))) continue;
    entries.set(step.line, {
      digest: step.digest,
      state: step.state as Outcome,
      id: typeof step.id === 'string' ? step.id : previous?.id,
      uncertain: step.uncertain === true,
      scored: previous?.digest === step.digest ? previous.scored : undefined,
    });
  }
  return { entries, sentThrough };
}
