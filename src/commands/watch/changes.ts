// crm watch RESOURCE --changes: every poll syncs the resource into the profile's replica (a full
// walk: updates and deletions are found, src/mirror/sync.ts) and emits the events of its change log
// that this watch has not handled, oldest first; events written by any other sync of the replica (a
// cron `crm sync`) come too. Where it stands is the number of the last event handled, kept with
// --state in a file rewritten atomically after each event, so a restart neither repeats nor misses
// one, and locked while the watch runs (./state.ts, as a plain watch's), so two watches never both
// deliver its events and overwrite each other's place. The file names the replica it follows: a
// replica forgotten and made again numbers its events anew, so such a file is refused rather than
// trusted.

import type { Context } from '../../cli/context.js';
import { toCliError, usageError } from '../../cli/errors.js';
import type { ApiClient } from '../../http/core.js';
import { isObject } from '../../registry/values.js';
import { changesAfter, latestSeq, type ChangeEvent } from '../../mirror/changes.js';
import { Replica } from '../../mirror/replica.js';
import { replicaPathOf, syncReplica } from '../mirror/replica.js';
import { StateFile } from './state.js';

const MODE = 'changes';
const VERSION = 1;

interface ChangeStateData {
  version: number;
  mode: typeof MODE;
  resource: string;
  base_url: string;
  /** The replica whose events these are. */
  replica_id: string | null;
  /** The last event handled; null until the baseline. */
  seq: number | null;
}

export class ChangeFeed {
  private constructor(
    private readonly ctx: Context,
    private readonly client: ApiClient,
    private readonly data: ChangeStateData,
    private readonly file: StateFile | undefined,
    private readonly sinceStart: boolean,
  ) {}

  /**
   * The feed, and its state from FILE when given, locked for this process; a file of another watch,
   * workspace or replica, or one another watch holds, is refused before anything is sent.
   */
  static open(ctx: Context, client: ApiClient, resource: string, path: string | undefined, sinceStart: boolean): ChangeFeed {
    const file = path === undefined ? undefined : StateFile.lock(path);
    try {
      const stored = file?.read('crm watch --changes');
      const fresh: ChangeStateData = { version: VERSION, mode: MODE, resource, base_url: client.baseUrl, replica_id: null, seq: null };
      const data = stored === undefined ? fresh : stateData(path!, stored);
      if (data.resource !== resource || data.base_url !== client.baseUrl) {
        throw usageError(`--state ${path} belongs to a watch of ${data.resource} changes at ${data.base_url}`, 'give each watch (resource and workspace) a state file of its own');
      }
      if (data.replica_id !== null) {
        const replica = Replica.openForReading(replicaPathOf(ctx));
        const current = replica?.info().id;
        replica?.close();
        if (current !== data.replica_id) throw replicaGone(`--state ${path} follows`);
      }
      return new ChangeFeed(ctx, client, data, file, sinceStart);
    } catch (error) {
      file?.close();
      throw error;
    }
  }

  /** Gives the state file's lock back (the watch is over). */
  close(): void {
    this.file?.close();
  }

  /** Syncs the resource, then the events not handled yet, oldest first (none on the first poll: the baseline, unless --since-start). */
  async poll(signal: AbortSignal): Promise<ChangeEvent[]> {
    const { resource } = this.data;
    const outcome = await syncReplica(this.ctx, this.client, [resource], 'full', signal, { quiet: true });
    const failure = outcome.failure ?? outcome.reports.find((report) => report.failure !== undefined)?.failure;
    if (failure !== undefined) throw failure;
    const replica = Replica.openForReading(replicaPathOf(this.ctx));
    // Forgotten (and made again) while the watch ran: the new replica numbers its events from 1 again,
    // so the place this watch stands at would pass over them, silently.
    if (replica === undefined || (this.data.replica_id !== null && replica.info().id !== this.data.replica_id)) {
      replica?.close();
      throw replicaGone(this.file ? `--state ${this.file.path} follows` : 'this watch followed');
    }
    try {
      this.data.replica_id = replica.info().id;
      if (this.data.seq === null) {
        this.data.seq = this.sinceStart ? 0 : latestSeq(replica);
        this.save();
      }
      const events: ChangeEvent[] = [];
      for (let batch = changesAfter(replica, resource, this.data.seq); batch.length > 0; batch = changesAfter(replica, resource, batch.at(-1)!.seq)) events.push(...batch);
      return events;
    } catch (error) {
      throw toCliError(error);
    } finally {
      replica.close();
    }
  }

  /** Every reaction to the event succeeded: it is handled, and saved. */
  handled(event: ChangeEvent): void {
    this.data.seq = Math.max(this.data.seq ?? 0, event.seq);
    this.save();
  }

  private save(): void {
    this.file?.write(this.data);
  }
}

/** The replica a watch followed is not the one there now: its events are another sequence. */
function replicaGone(who: string) {
  return usageError(`${who} a replica that is gone (forgotten since, or made anew): its events cannot be told from the new one's`, 'start the watch again with a new state file: it takes the changes from now on');
}

function stateData(file: string, parsed: unknown): ChangeStateData {
  if (
    !isObject(parsed) ||
    parsed.version !== VERSION ||
    parsed.mode !== MODE ||
    typeof parsed.resource !== 'string' ||
    typeof parsed.base_url !== 'string' ||
    !(parsed.replica_id === null || typeof parsed.replica_id === 'string') ||
    !(parsed.seq === null || (typeof parsed.seq === 'number' && Number.isSafeInteger(parsed.seq) && parsed.seq >= 0))
  ) {
    throw usageError(`--state ${file} is not a state file of crm watch --changes`, 'give the file of an earlier `crm watch --changes --state`, or a new file name');
  }
  return { version: VERSION, mode: MODE, resource: parsed.resource, base_url: parsed.base_url, replica_id: parsed.replica_id as string | null, seq: parsed.seq as number | null };
}
