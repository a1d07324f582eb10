// What crm watch has handled, so that a poll knows where the new records end and a restart neither
// repeats nor misses a record. The list is newest first: a poll reads from the head until it meets
// a record it has handled (or one older than the newest it has handled, should every remembered
// record have been deleted). Kept in memory, and with --state in a file rewritten atomically (a
// temporary file renamed over it) after every record, so a crash leaves the previous version whole.

import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { usageError } from '../../cli/errors.js';
import { writeFileAtomic } from '../../config/atomic.js';
import { recordId } from '../../http/envelope.js';
import { isObject } from '../../registry/values.js';

/** Ids remembered: enough that deletions at the head of the list never hide where the new records end. */
const SEEN_IDS = 200;
const VERSION = 1;

interface StateData {
  version: number;
  resource: string;
  base_url: string;
  /** Ids of the newest handled records, newest first. */
  seen: string[];
  /** created_at of the newest handled record. */
  newest: string | null;
}

function createdAt(record: unknown): string | undefined {
  return isObject(record) && typeof record.created_at === 'string' && !Number.isNaN(Date.parse(record.created_at)) ? record.created_at : undefined;
}

export class WatchState {
  private constructor(
    private readonly data: StateData,
    private readonly file: string | undefined,
    /** False until the first poll: it sets the baseline. */
    public baselined: boolean,
  ) {}

  /** The state in FILE, a fresh one when there is none yet; a file of another watch is refused. */
  static open(file: string | undefined, resource: string, baseUrl: string): WatchState {
    const fresh: StateData = { version: VERSION, resource, base_url: baseUrl, seen: [], newest: null };
    if (file === undefined) return new WatchState(fresh, undefined, false);
    if (file === '-') throw usageError('--state needs a file name, not -');
    if (!existsSync(file)) {
      if (!existsSync(dirname(file))) throw usageError(`--state ${file}: the directory ${dirname(file)} does not exist`);
      return new WatchState(fresh, file, false);
    }
    const data = readStateFile(file);
    if (data.resource !== resource || data.base_url !== baseUrl) {
      throw usageError(
        `--state ${file} belongs to a watch of ${data.resource} at ${data.base_url}`,
        'give each watch (resource and workspace) a state file of its own',
      );
    }
    return new WatchState(data, file, true);
  }

  /** The first poll without --since-start: what is there now counts as handled. */
  setBaseline(records: readonly unknown[]): void {
    this.data.seen = records.map(recordId).filter((id): id is string => id !== undefined).slice(0, SEEN_IDS);
    this.data.newest = records.map(createdAt).reduce<string | null>((newest, at) => (at !== undefined && (newest === null || Date.parse(at) > Date.parse(newest)) ? at : newest), null);
    this.baselined = true;
    this.save();
  }

  /** Where a poll stops: a record handled before, or older than the newest handled one. */
  isKnown(record: unknown): boolean {
    const id = recordId(record);
    if (id !== undefined && this.data.seen.includes(id)) return true;
    const at = createdAt(record);
    return at !== undefined && this.data.newest !== null && Date.parse(at) < Date.parse(this.data.newest);
  }

  /** A record's deliveries all succeeded: remember it (it is the newest handled so far) and save. */
  handled(record: unknown): void {
    const id = recordId(record);
    if (id !== undefined) {
      this.data.seen = [id, ...this.data.seen.filter((seen) => seen !== id)].slice(0, SEEN_IDS);
    }
    const at = createdAt(record);
    if (at !== undefined && (this.data.newest === null || Date.parse(at) > Date.parse(this.data.newest))) this.data.newest = at;
    this.baselined = true;
    this.save();
  }

  private save(): void {
    if (this.file === undefined) return;
    writeFileAtomic(this.file, `${JSON.stringify(this.data, null, 2)}\n`);
  }
}

function readStateFile(file: string): StateData {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw usageError(`--state ${file} cannot be read: ${(error as Error).message}`, 'give the file of an earlier `crm watch --state`, or a new file name');
  }
  if (
    !isObject(parsed) ||
    parsed.version !== VERSION ||
    typeof parsed.resource !== 'string' ||
    typeof parsed.base_url !== 'string' ||
    !Array.isArray(parsed.seen) ||
    !parsed.seen.every((id) => typeof id === 'string') ||
    !(parsed.newest === null || typeof parsed.newest === 'string')
  ) {
    throw usageError(`--state ${file} is not a state file of crm watch`, 'give the file of an earlier `crm watch --state`, or a new file name');
  }
  return { version: VERSION, resource: parsed.resource, base_url: parsed.base_url, seen: (parsed.seen as string[]).slice(0, SEEN_IDS), newest: parsed.newest as string | null };
}
