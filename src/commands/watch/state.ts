// What crm watch has handled, so that a poll knows where the new records end and a restart neither
// repeats nor misses a record. Records are told apart by id and created_at together (a new record
// given a deleted record's id is another record), and no time is ever compared: a record with a
// future created_at, servers whose clocks disagree, or an id handed out again cannot make a later
// record look old (the one use of a time, the poll's backstop, can only end a poll among records
// older than every one remembered). Kept in memory, and with --state in a StateFile (below, also
// --changes' state): rewritten after every record, locked while a watch uses it.

import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError, ExitCode, usageError } from '../../cli/errors.js';
import { missingDirectory } from '../../cli/input.js';
import { writeFileAtomic } from '../../config/atomic.js';
import { describeHolder, tryLock } from '../../config/lock.js';
import type { HeldRecords } from '../../http/head.js';
import { recordCreatedAt, recordId } from '../../http/envelope.js';
import { cannotUseFile, isObject } from '../../registry/values.js';

/** Records handled that are remembered: more than a poll's stop rule needs after many deletions. */
const REMEMBERED = 300;
const VERSION = 2;

/** A handled record. created_at null: from a state file of an older crm, which kept ids only. */
interface Handled {
  id: string;
  created_at: string | null;
}

interface StateData {
  version: number;
  resource: string;
  base_url: string;
  /** The profile the watch ran under; absent in a file of an older crm. */
  profile?: string;
  /** The records handled, in the order they were handled (the newest last). */
  handled: Handled[];
}

/** A --state that cannot be written: the watch stops (its promise to remember would be broken). */
export class StateUnwritable extends CliError {
  constructor(file: string, error: unknown) {
    super(cannotUseFile('write', `--state ${file}`, error), ExitCode.service, {
      code: 'state_unwritable',
      hint: 'the records since the last one saved will be delivered again when the watch is restarted with a writable --state',
    });
  }
}

/**
 * A --state file: locked while a watch uses it (FILE.lock, naming its process), so two watches never
 * share it, and rewritten atomically (a temporary file renamed over it), so a crash leaves the
 * previous version whole. Plain watches and --changes watches keep theirs so.
 */
export class StateFile {
  private constructor(
    readonly path: string,
    private readonly release: () => void,
  ) {}

  /** Checks and locks PATH for this process; a file another watch holds is refused before anything is sent. */
  static lock(path: string): StateFile {
    if (path === '-') throw usageError('--state needs a file name, not -');
    if (!existsSync(dirname(path))) throw usageError(cannotUseFile('write', `--state ${path}`, missingDirectory(path)));
    const lock = `${path}.lock`;
    let attempt: ReturnType<typeof tryLock>;
    try {
      attempt = tryLock(lock);
    } catch (error) {
      throw usageError(cannotUseFile('write', `--state ${path}`, error), 'give a file in a directory crm may write');
    }
    if (!attempt.acquired) {
      throw usageError(`--state ${path} is in use by another crm watch (${describeHolder(attempt.holder)})`, `give each watch a state file of its own; if no watch is running, delete ${lock}`);
    }
    return new StateFile(path, attempt.release);
  }

  /** The file's JSON, or undefined when there is no file yet; `command` names whose file it should be. */
  read(command: string): unknown {
    if (!existsSync(this.path)) return undefined;
    try {
      return JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (error) {
      throw usageError(`--state ${this.path} cannot be read: ${(error as Error).message}`, `give the file of an earlier \`${command} --state\`, or a new file name`);
    }
  }

  /** Replaces the file's content; a file that cannot be written stops the watch. */
  write(data: unknown): void {
    try {
      writeFileAtomic(this.path, `${JSON.stringify(data, null, 2)}\n`);
    } catch (error) {
      throw new StateUnwritable(this.path, error);
    }
  }

  /** Gives the lock back. */
  close(): void {
    this.release();
  }
}

const createdAt = (record: unknown): string | null => recordCreatedAt(record) ?? null;
const keyOf = (id: string, created: string | null) => `${id}\u0000${created ?? ''}`;

export class WatchState implements HeldRecords {
  /** By key (id and created_at), in the order handled. */
  private readonly records = new Map<string, Handled>();
  /** Ids from an older state file, whose created_at is not known: any record with the id matches. */
  private readonly idsOnly = new Set<string>();

  private constructor(
    private readonly resource: string,
    private readonly baseUrl: string,
    private readonly profile: string,
    private readonly file: StateFile | undefined,
    /** False until the first poll: it sets the baseline. */
    public baselined: boolean,
  ) {}

  /**
   * The state in FILE (a fresh one when there is none yet), locked for this process. A file of
   * another watch, or one another watch holds, is refused before anything is sent.
   */
  static open(path: string | undefined, resource: string, baseUrl: string, profile: string): WatchState {
    if (path === undefined) return new WatchState(resource, baseUrl, profile, undefined, false);
    const file = StateFile.lock(path);
    try {
      const data = file.read('crm watch');
      const state = new WatchState(resource, baseUrl, profile, file, data !== undefined);
      if (data !== undefined) state.load(stateData(path, data));
      return state;
    } catch (error) {
      file.close();
      throw error;
    }
  }

  /** Gives the state file's lock back (the watch is over). */
  close(): void {
    this.file?.close();
  }

  private load(data: StateData): void {
    if (data.resource !== this.resource || data.base_url !== this.baseUrl) {
      throw usageError(`--state ${this.file!.path} belongs to a watch of ${data.resource} at ${data.base_url}`, 'give each watch (resource and workspace) a state file of its own');
    }
    // Workspaces of one service share its base URL (the key tells them apart): a profile is one.
    if (data.profile !== undefined && data.profile !== this.profile) {
      throw usageError(`--state ${this.file!.path} belongs to a watch of profile "${data.profile}", not "${this.profile}"`, 'give each watch (resource and workspace) a state file of its own');
    }
    for (const record of data.handled) this.remember(record);
  }

  /** The first poll without --since-start: what is there now counts as handled. */
  setBaseline(records: readonly unknown[]): void {
    for (const record of [...records].reverse()) this.add(record);
    this.baselined = true;
    this.save();
  }

  /** Handled before (by id and created_at; by id alone for what an older crm remembered). */
  has(record: unknown): boolean {
    const id = recordId(record);
    if (id === undefined) return false;
    return this.records.has(keyOf(id, createdAt(record))) || this.idsOnly.has(id);
  }

  /** When the oldest record remembered was created (ms since the epoch); undefined when none says. */
  oldestCreated(): number | undefined {
    let oldest: number | undefined;
    for (const { created_at } of this.records.values()) {
      const at = created_at === null ? NaN : Date.parse(created_at);
      if (!Number.isNaN(at) && (oldest === undefined || at < oldest)) oldest = at;
    }
    return oldest;
  }

  /** A record's deliveries all succeeded: remember it and save. */
  handled(record: unknown): void {
    this.add(record);
    this.baselined = true;
    this.save();
  }

  private add(record: unknown): void {
    const id = recordId(record);
    if (id === undefined) return;
    // Met again with its created_at: the older crm's entry for it is replaced by a whole one.
    if (this.idsOnly.delete(id)) this.records.delete(keyOf(id, null));
    this.remember({ id, created_at: createdAt(record) });
  }

  private remember(record: Handled): void {
    const key = keyOf(record.id, record.created_at);
    this.records.delete(key);
    this.records.set(key, record);
    if (record.created_at === null) this.idsOnly.add(record.id);
    while (this.records.size > REMEMBERED) {
      const [oldest, forgotten] = this.records.entries().next().value as [string, Handled];
      this.records.delete(oldest);
      if (forgotten.created_at === null) this.idsOnly.delete(forgotten.id);
    }
  }

  private save(): void {
    this.file?.write({ version: VERSION, resource: this.resource, base_url: this.baseUrl, profile: this.profile, handled: [...this.records.values()] } satisfies StateData);
  }
}

/**
 * A state file's data, this version's or an older one's. Version 1 kept ids only and the newest
 * created_at handled, which a record with a future created_at poisoned (every later record looked
 * older): the ids are kept, the time is dropped.
 */
function stateData(file: string, parsed: unknown): StateData {
  const notState = () => usageError(`--state ${file} is not a state file of crm watch`, 'give the file of an earlier `crm watch --state`, or a new file name');
  if (!isObject(parsed) || typeof parsed.resource !== 'string' || typeof parsed.base_url !== 'string') throw notState();
  const { resource, base_url } = parsed;
  if (parsed.version === 1 && Array.isArray(parsed.seen) && parsed.seen.every((id) => typeof id === 'string')) {
    // Newest first, as version 1 kept them.
    return { version: VERSION, resource, base_url, handled: (parsed.seen as string[]).map((id) => ({ id, created_at: null })).reverse() };
  }
  const handled = parsed.handled;
  if (
    parsed.version !== VERSION ||
    !Array.isArray(handled) ||
    !handled.every((entry) => isObject(entry) && typeof entry.id === 'string' && (entry.created_at === null || typeof entry.created_at === 'string'))
  ) {
    throw notState();
  }
  return { version: VERSION, resource, base_url, ...(typeof parsed.profile === 'string' ? { profile: parsed.profile } : {}), handled: handled as Handled[] };
}
