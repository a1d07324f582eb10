// The checkpoint of an import: a journal of JSON lines, appended as the import goes, so that
// --resume can finish the job and never create a row twice, even after a crash or SIGKILL.
//
// - It is locked (PATH.lock, naming the process) from before the first request to the end: two
//   imports on one checkpoint would both send the rows neither has journaled yet.
// - Its first line names the workspace (base URL and profile) and the input, so that --resume refuses
//   another of either.
// - Before a row is sent, a mark that rows up to some line ahead may have been sent is on disk
//   (written once for the next MARK_AHEAD rows, not once a row: one write instead of fifty), flushed
//   to it (fsync; the journal's directory entry too when this run created it), so that a power
//   loss, not only a crash, keeps it: about 3 ms each 50 rows.
// - Outcomes (created with the id, updated, failed) are written in batches: with the next mark,
//   every FLUSH_MS, and at the end.
//
// - A row that failed in an earlier run is marked on its own before it is sent again (its old
//   failure would otherwise be the journal's last word on a row that may now exist).
//
// --resume reads it back: rows created or updated are not sent again; a row under the mark with no
// outcome (its answer was lost, or its outcome not yet written), a row that failed without a clear
// answer and a failed row sent again with no outcome written are first looked up by email: the
// service may have created them.

import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError, ExitCode, usageError } from '../../../cli/errors.js';
import { checkOutputFileWritable } from '../../../cli/input.js';
import { syncDirectory } from '../../../config/atomic.js';
import { describeHolder, lockHolder, tryLock, type LockHolder } from '../../../config/lock.js';
import { cannotUseFile, isObject } from '../../../registry/values.js';

const FORMAT = 'crm contacts import checkpoint 2';
/** How many rows one mark covers ahead of the row about to be sent. */
export const MARK_AHEAD = 50;
const FLUSH_MS = 250;

type Outcome = 'created' | 'updated' | 'failed';

export interface RowEntry {
  /** A digest of what the row sends: a resumed import refuses a file whose imported rows changed. */
  digest: string;
  state: Outcome;
  id?: string;
  /** Failed without a clear answer (the connection dropped, a 5xx): the service may have acted. */
  uncertain?: boolean;
  scored?: boolean;
}

/** What a checkpoint belongs to: --resume refuses a checkpoint of another workspace or input. */
interface ImportIdentity {
  /** The workspace's base URL (the local sandbox: its database). */
  workspace: string;
  /**
   * The profile: two workspaces of one service share the base URL and differ by key, and a profile
   * is one (its key may be replaced, after it expired, and the import still resumed).
   */
  profile: string;
  /** The input file's absolute path, or "stdin". */
  input: string;
  /** sha256 of the input's bytes: what identifies stdin (a file may be fixed between runs). */
  digest: string;
}

interface OpenOptions {
  /** Finish the import the checkpoint records. */
  resume: boolean;
  /** Without resume, start a new journal in place of an existing one (--upsert sends every row again). */
  replace: boolean;
  identity: ImportIdentity;
  /** Look only: no lock taken, nothing written. */
  dryRun: boolean;
}

/** The journal can no longer be written (the disk is full): no row may be sent that it does not cover. */
export class CheckpointUnwritable extends CliError {
  constructor(path: string, error: unknown) {
    super(cannotUseFile('write', `the checkpoint ${path}`, error), ExitCode.service, { code: 'checkpoint_unwritable' });
  }
}

export class Checkpoint {
  private fd: number | undefined;
  /** Set once a write failed: nothing more is written, and no row is sent beyond the marks on disk. */
  private unwritable: CheckpointUnwritable | undefined;
  /** Outcomes not yet written. */
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  /** The highest line the marks on disk cover. */
  private marked: number;
  /** This run has written to the journal: it appends from then on. */
  private opened = false;
  /** This run created the journal, and its directory's entry for it is not yet flushed. */
  private created = false;

  private constructor(
    readonly path: string,
    /** What the journal says of each line, its last word for each. */
    readonly entries: ReadonlyMap<number, RowEntry>,
    /** Rows up to this line may have been sent by an earlier run (0: none). */
    readonly sentThrough: number,
    private readonly identity: ImportIdentity,
    /** Resumed: the bytes of the journal on disk this run appends after (its whole lines); else the first write starts it. */
    private appendAfter: number | undefined,
    private release: () => void,
  ) {
    this.marked = sentThrough;
  }

  /**
   * The checkpoint at PATH, locked. Without --resume an existing one is refused (importing the same
   * rows again would create them twice) unless `replace`; with --resume and none, the import starts
   * from the first row.
   */
  static open(path: string, source: string, options: OpenOptions): Checkpoint {
    checkOutputFileWritable(path, '--checkpoint');
    const lock = `${path}.lock`;
    let release = () => {};
    if (options.dryRun) {
      const holder = lockHolder(lock);
      if (holder) throw inUse(path, lock, holder);
    } else {
      const attempt = tryLock(lock);
      if (!attempt.acquired) throw inUse(path, lock, attempt.holder);
      release = attempt.release;
    }
    try {
      const exists = existsSync(path);
      // Started anew, the journal is written over what is there: only over a journal.
      if (exists && !options.resume && !isJournal(path)) {
        throw usageError(`${path} is not a checkpoint of crm contacts import`, 'name a file of its own with --checkpoint (an import writes over it)');
      }
      if (!exists || (options.replace && !options.resume)) return new Checkpoint(path, new Map(), 0, options.identity, undefined, release);
      if (!options.resume) {
        throw usageError(`${source} was imported before: ${path} holds the progress of that import`, `finish it with --resume, or delete ${path} to import every row again`);
      }
      const { entries, sentThrough, complete } = readJournal(path, options.identity);
      return new Checkpoint(path, entries, sentThrough, options.identity, complete, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Before LINE is sent: makes sure a mark covers it, marking up to `ahead()` when one is needed. */
  sending(line: number, ahead: () => number): void {
    // A row that failed in an earlier run is sent again: its failure no longer says it was not created.
    if (this.entries.get(line)?.state === 'failed') this.append(`${JSON.stringify({ line, resending: true })}\n`, true);
    if (this.unwritable) throw this.unwritable;
    if (line <= this.marked) return;
    const mark = Math.max(line, ahead());
    this.append(`${JSON.stringify({ sent_through: mark })}\n`, true);
    if (this.unwritable) throw this.unwritable;
    this.marked = mark;
  }

  /** What became of a row (or that it was scored); written with the next batch. */
  outcome(line: number, step: { digest?: string; state?: Outcome; id?: string; error?: string; uncertain?: boolean; scored?: boolean }): void {
    this.append(`${JSON.stringify({ line, ...step })}\n`, false);
  }

  /** Writes what is pending; deletes the journal when the import is complete (nothing to resume); unlocks. Again: nothing. */
  close(complete: boolean): void {
    this.flush(false);
    clearTimeout(this.timer);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (complete) rmSync(this.path, { force: true });
    this.release();
    this.release = () => {};
  }

  /** `now`: a mark, written and flushed to the disk before the rows it covers are sent; else an outcome, written with the next batch. */
  private append(text: string, now: boolean): void {
    this.pending += text;
    if (now) this.flush(true);
    else this.timer ??= setTimeout(() => this.flush(false), FLUSH_MS).unref();
  }

  /** The write that failed, if one did: the import stops (what the journal holds is still resumable). */
  get failure(): CheckpointUnwritable | undefined {
    return this.unwritable;
  }

  private flush(durable: boolean): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '' || this.unwritable) return;
    try {
      if (this.fd === undefined) {
        const fresh = !this.opened && this.appendAfter === undefined;
        this.fd = openSync(this.path, fresh ? 'w' : 'a', 0o600);
        if (fresh) writeSync(this.fd, `${JSON.stringify({ checkpoint: FORMAT, ...this.identity })}\n`);
        else if (!this.opened) ftruncateSync(this.fd, this.appendAfter!);
        this.created ||= fresh;
        this.opened = true;
      }
      writeSync(this.fd, this.pending);
      this.pending = '';
      if (durable) {
        fsyncSync(this.fd);
        if (this.created) syncDirectory(dirname(this.path));
        this.created = false;
      }
    } catch (error) {
      // Also from a timer: told to the import by the next mark, and by its report.
      this.unwritable = new CheckpointUnwritable(this.path, error);
    }
  }
}

function inUse(path: string, lock: string, holder: LockHolder): Error {
  return usageError(`${path} is in use by another crm contacts import (${describeHolder(holder)})`, `let it finish; if no import is running, delete ${lock}`);
}

/** Whether PATH starts as a checkpoint of any version does (its first bytes only: it may be anything). */
function isJournal(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(64);
    const length = readSync(fd, head, 0, head.length, null);
    return head.subarray(0, length).toString('utf8').startsWith('{"checkpoint":"crm contacts import checkpoint ');
  } finally {
    closeSync(fd);
  }
}

function readJournal(path: string, identity: ImportIdentity): { entries: Map<number, RowEntry>; sentThrough: number; complete: number } {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  let header: unknown;
  try {
    header = JSON.parse(lines[0] ?? '');
  } catch {
    header = undefined;
  }
  if (!isObject(header) || header.checkpoint !== FORMAT) {
    throw usageError(`${path} is not a checkpoint of this version of crm contacts import`, 'give the checkpoint of an earlier import with --checkpoint FILE');
  }
  checkIdentity(path, header, identity);
  const entries = new Map<number, RowEntry>();
  let sentThrough = 0;
  // Only the last line can be cut short (a crash while it was written: what it said is looked up
  // again, and nothing it would have covered was sent); the run that resumes writes over it.
  const last = lines.length - 1;
  for (const [index, line] of lines.entries()) {
    if (index === 0) continue;
    let step: unknown;
    try {
      step = JSON.parse(line);
    } catch {
      if (index === last) break;
      // A line lost before the last may be a mark: rows it covered would be sent again unlooked-up.
      throw usageError(`${path} is damaged: line ${index + 1} is not what crm wrote`, 'start again with --upsert, which looks every row up (and replaces the checkpoint)');
    }
    if (!isObject(step)) continue;
    if (typeof step.sent_through === 'number') sentThrough = Math.max(sentThrough, step.sent_through);
    if (typeof step.line !== 'number') continue;
    const previous = entries.get(step.line);
    if (step.resending === true && previous?.state === 'failed') {
      previous.uncertain = true;
      continue;
    }
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
  // The bytes of the whole lines: a line cut short is written over, not written after (where it would swallow the next mark).
  const complete = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
  return { entries, sentThrough, complete };
}

/**
 * The rows a checkpoint has as imported exist in its workspace only, and its line numbers mean
 * something only for its input: another workspace or another input is refused. A file may have
 * changed (rows fixed after a failure; rows imported before are checked one by one), stdin may not.
 */
function checkIdentity(path: string, header: Record<string, unknown>, identity: ImportIdentity): void {
  const again = 'resume with the same workspace and input, or start again with a new --checkpoint';
  if (header.workspace !== identity.workspace) {
    throw usageError(`${path} holds the progress of an import into ${String(header.workspace)}, not ${identity.workspace}`, again);
  }
  // A checkpoint of an earlier crm names no profile: the base URL is all it can be checked by.
  if (header.profile !== undefined && header.profile !== identity.profile) {
    throw usageError(`${path} holds the progress of an import with profile "${String(header.profile)}", not "${identity.profile}"`, again);
  }
  if (header.input !== identity.input) throw usageError(`${path} holds the progress of an import of ${String(header.input)}, not ${identity.input}`, again);
  if (identity.input === 'stdin' && header.digest !== identity.digest) {
    throw usageError(`${path} holds the progress of an import of other data: stdin is not what was imported then`, again);
  }
}
