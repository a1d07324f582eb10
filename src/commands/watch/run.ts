// crm watch RESOURCE: the polling recipe of service-api.md section 6. Every --interval the list is
// read from its newest record until a run of records already handled (src/http/head.ts, as crm sync
// --new reads it): records are not compared by time, so a future created_at or servers whose clocks
// disagree cannot hide a later record, and a new record listed among handled ones (a clock behind
// the others) is still found. The new ones are
// emitted oldest first, each once, through the printer (a table line on a terminal, NDJSON in a
// pipe). With --exec, --forward-to and --score each record is also run, forwarded and scored; it
// counts as handled (and --state records it) only once all of that succeeded, so a failed command, a
// failed forward or a crash delivers it again. Failed polls and deliveries back off and are retried;
// after --max-failures in a row the command gives up. SIGTERM stops it after saving the state;
// Ctrl-C ends it at once, with the state as it was saved.
// With --changes the records are the change events of the replica (./changes.ts), with the same
// reactions and guarantees.

import type { Context } from '../../cli/context.js';
import { CliError, ExitCode, toCliError, usageError } from '../../cli/errors.js';
import { safeLine } from '../../cli/format.js';
import { list } from '../../cli/result.js';
import type { ApiClient } from '../../http/core.js';
import { recordId } from '../../http/envelope.js';
import type { ChangeEvent } from '../../mirror/changes.js';
import type { JsonObject } from '../../registry/values.js';
import { NewAtHead } from '../../http/head.js';
import { recordKey, walk } from '../../http/paginate.js';
import { HttpError } from '../../http/errors.js';
import { MAX_WAIT_MS, backoffDelay } from '../../http/retry.js';
import type { WATCHABLE } from '../../registry/local.js';
import { PAGE_MAX } from '../../registry/service.js';
import { RESOURCES, resourceNamed } from '../../registry/resources.js';
import type { ResourceName } from '../../registry/types.js';
import { formatDuration } from '../../registry/values.js';
import { createNetworkTransport } from '../../transport/network.js';
import { unsendableUrl } from '../../transport/target.js';
import type { Transport } from '../../transport/types.js';
import type { Handler, Input } from '../command.js';
import { Scorer, withScore } from '../scoring.js';
import { stopOnSigterm, unlessStopped, type Stopper } from '../stop.js';
import { ChangeFeed } from './changes.js';
import { forward, runExec, type Delivery } from './deliver.js';
import { StateUnwritable, WatchState } from './state.js';
import type { Spec } from './command.js';

type Watchable = (typeof WATCHABLE)[number];

const DEFAULT_INTERVAL_MS = 60_000;
/** Records the first poll takes as handled: more than src/http/head.ts reads past (STOP_RUN), so that deletions among them do not expose older records. */
const BASELINE = 2 * PAGE_MAX;
const DEFAULT_MAX_FAILURES = 10;
/** How long an --exec command may run: past it, it is hung (a reaction is one record's work). */
const DEFAULT_EXEC_TIMEOUT_MS = 10 * 60_000;
/** Failed polls wait longer each time, up to this (or the interval, when that is longer). */
const MAX_BACKOFF_MS = 5 * 60_000;
/** Failures that waiting may cure: the network, the service's own errors, its rate limit. */
const TRANSIENT = new Set<number>([ExitCode.network, ExitCode.service, ExitCode.rateLimited]);

interface Settings {
  resource: Watchable;
  noun: ResourceName;
  intervalMs: number;
  once: boolean;
  sinceStart: boolean;
  stateFile?: string;
  maxFailures: number;
  exec?: string;
  execTimeoutMs: number;
  forwardTo?: string;
  secret?: string;
  score: boolean;
  /** --changes: created, updated and deleted events from successive syncs of the replica. */
  changes: boolean;
}

/** A change event's columns in a table (every member in JSON). */
const CHANGE_COLUMNS = ['seq', 'event', 'id', 'changed', 'detected_at'];

export const run: Handler<Spec> = async (ctx, invocation) => {
  const settings = readSettings(ctx, invocation);
  const client = await ctx.client();
  const feed = settings.changes ? ChangeFeed.open(ctx, client, settings.resource, settings.stateFile, settings.sinceStart) : undefined;
  const state = feed ? undefined : WatchState.open(settings.stateFile, settings.resource, client.baseUrl, ctx.target().profile);
  ctx.onClose(() => (feed ?? state)?.close());
  // SIGTERM ends the stream (exit 0); Ctrl-C ends the command at once (the runner's, exit 130).
  const stopper = stopOnSigterm(ctx.io.signals);
  ctx.onClose(() => stopper.dispose());
  const watcher = new Watcher(ctx, client, settings, stopper, state, feed);
  const { columns, plural } = RESOURCES[settings.noun];
  return list(watcher.records(), feed ? { columns: CHANGE_COLUMNS, noun: 'changes', stream: true } : { columns, noun: plural, stream: true });
};

function readSettings(ctx: Context, { args, options }: Input<Spec>): Settings {
  if (ctx.dryRun) throw usageError('watch keeps polling the service; --dry-run does not apply', 'try `crm <resource> list --dry-run` to see the request');
  const resource = args.resource;
  const noun = resourceNamed(resource)!;
  const forwardTo = options.forward_to;
  const secret = options.secret ?? (ctx.env.CRM_WATCH_SECRET || undefined);
  if (forwardTo !== undefined) checkForwardUrl(forwardTo);
  else if ((options.secret !== undefined)) throw usageError('--secret signs what --forward-to sends; give --forward-to URL too');
  if (options.score && resource !== 'contacts') throw usageError(`--score scores contacts; ${resource} cannot be scored`);
  if (options.score && options.changes) throw usageError('--score scores new contacts; with --changes the events are emitted as the syncs found them');
  const once = Boolean(options.once);
  const sinceStart = Boolean(options.since_start);
  const stateFile = options.state;
  if (once && stateFile === undefined && !sinceStart) {
    throw usageError('--once without --state has nothing to compare with: every run would only set a new baseline', 'pass --state FILE (or --since-start for every existing record)');
  }
  if (options.exec?.trim() === '') throw usageError('--exec needs a command');
  if (options.exec_timeout !== undefined && options.exec === undefined) throw usageError('--exec-timeout limits the command --exec runs; give --exec CMD too');
  return {
    resource,
    noun,
    intervalMs: options.interval ?? DEFAULT_INTERVAL_MS,
    once,
    sinceStart,
    stateFile,
    maxFailures: options.max_failures ?? DEFAULT_MAX_FAILURES,
    exec: options.exec,
    execTimeoutMs: options.exec_timeout ?? DEFAULT_EXEC_TIMEOUT_MS,
    forwardTo,
    secret: forwardTo === undefined ? undefined : secret,
    score: Boolean(options.score),
    changes: Boolean(options.changes),
  };
}

function checkForwardUrl(raw: string): void {
  // The URL parser would drop a line break or a tab silently; the transport encodes the rest.
  const unsendable = unsendableUrl(raw);
  if (unsendable) throw usageError(`invalid --forward-to ${JSON.stringify(raw)}: ${unsendable}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(`invalid --forward-to "${raw}" (expected a URL such as http://localhost:3000/hooks)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`invalid --forward-to "${raw}" (expected an http:// or https:// URL)`);
  if (url.username || url.password) throw usageError('--forward-to: credentials in the URL are not sent; use a token in the path or query');
}

/** A record of this poll not yet handled, with the reactions already done in this process. */
interface Pending {
  record: unknown;
  done: Set<'score' | 'print' | 'exec'>;
}

class Watcher {
  /** Records emitted but not yet handled (a forward failed): a retry does only what is left. */
  private readonly pending = new Map<string, Pending>();
  private readonly scorer?: Scorer;
  private forwardTransport?: Promise<Transport>;
  private warnedNoId = false;

  constructor(
    private readonly ctx: Context,
    private readonly client: ApiClient,
    private readonly settings: Settings,
    private readonly stopper: Stopper,
    private readonly state?: WatchState,
    private readonly feed?: ChangeFeed,
  ) {
    if (settings.score) {
      this.scorer = new Scorer(client, ctx, { signal: stopper.signal, onWait: (ms, reason) => this.ctx.info(`${safeLine(reason)}; scoring the next contact in ${formatDuration(ms)}`) });
    }
  }

  /** The endless stream of new records (until --once, a signal, or too many failures). */
  async *records(): AsyncGenerator<unknown> {
    const { intervalMs, maxFailures, once } = this.settings;
    const signal = this.stopper.signal;
    let failures = 0;
    let delay = 0;
    for (;;) {
      try {
        if (delay > 0) await this.ctx.pause(delay, signal);
        // Stopped during the wait (a pause may end with the signal rather than fail): no poll is begun.
        if (signal.aborted) return;
        yield* this.poll();
        failures = 0;
        delay = intervalMs;
      } catch (error) {
        // Stopped: what was handled is saved; what was under way is delivered again next time.
        if (signal.aborted) return;
        const failure = toCliError(error);
        if (once || !TRANSIENT.has(failure.exitCode) || error instanceof StateUnwritable) throw failure;
        failures++;
        if (failures >= maxFailures) {
          throw new CliError(`giving up after ${failures === 1 ? 'a failure' : `${failures} failures in a row`}: ${failure.message}`, failure.exitCode, { status: failure.status, code: failure.code, hint: failure.hint });
        }
        delay = backoffDelay(failures - 1, Math.random, { baseMs: intervalMs, maxMs: Math.max(intervalMs, MAX_BACKOFF_MS), jitter: false });
        // A rate limit longer than the core waits out names its end: no poll before it.
        const asked = error instanceof HttpError && error.retryAfterMs !== undefined ? Math.min(error.retryAfterMs, MAX_WAIT_MS) : 0;
        delay = Math.max(delay, asked);
        this.ctx.warn(`${safeLine(failure.message)}; trying again in ${formatDuration(delay)}${asked === delay ? ', as the service asked' : ''} (failure ${failures} of ${maxFailures})`);
      }
      if (once) return;
    }
  }

  private async *poll(): AsyncGenerator<unknown> {
    const { sinceStart } = this.settings;
    const signal = this.stopper.signal;
    if (this.feed) {
      for (const event of await unlessStopped(this.feed.poll(signal), signal)) yield* this.handle(event, changeHandling(event, this.feed));
      return;
    }
    const state = this.state!;
    if (!state.baselined && !sinceStart) {
      state.setBaseline(await unlessStopped(this.newest(BASELINE), signal));
      return;
    }
    for (const record of await unlessStopped(this.newRecords(), signal)) {
      yield* this.handle(record, { key: recordKey(record), id: recordId(record)!, handled: () => state.handled(record) });
    }
  }

  /** The first records of the list (the baseline). */
  private async newest(count: number): Promise<unknown[]> {
    const { resource } = this.settings;
    const records: unknown[] = [];
    for await (const record of walk(this.client, `/${resource}`, {}, { key: resource, limit: count })) records.push(record);
    return records;
  }

  /** The records not handled (./state.ts says which are), oldest first. */
  private async newRecords(): Promise<unknown[]> {
    const { resource } = this.settings;
    const state = this.state!;
    const skip = (record: unknown) => {
      if (recordId(record) !== undefined) return false;
      if (!this.warnedNoId) this.ctx.warn(`the service sent ${resource} without an id; watch cannot tell them apart and skips them`);
      this.warnedNoId = true;
      return true;
    };
    const fresh: unknown[] = [];
    for await (const record of new NewAtHead(this.client, `/${resource}`, { key: resource, held: state, skip })) {
      if (this.stopper.signal.aborted) break;
      fresh.push(record);
    }
    return fresh.reverse();
  }

  /** Scores, prints, runs and forwards one record (or change event); only then is it handled (and saved). */
  private async *handle(record: unknown, { key, id, event, handled }: Handling): AsyncGenerator<unknown> {
    const { resource, noun, exec, forwardTo } = this.settings;
    const signal = this.stopper.signal;
    const pending = this.pending.get(key) ?? { record, done: new Set() };
    this.pending.set(key, pending);
    if (this.scorer && !pending.done.has('score')) {
      try {
        pending.record = withScore(record as JsonObject, await unlessStopped(this.scorer.score(id), signal));
      } catch (error) {
        if (signal.aborted) throw error;
        const failure = toCliError(error);
        // A failed scoring is a failed delivery, as a failed command is: the contact is scored again at
        // the next poll, and nothing after it is emitted before it. Only a contact deleted since it
        // was listed (404), which no poll can score, is emitted without a score.
        if (failure.exitCode !== ExitCode.notFound) throw new CliError(`scoring ${noun} ${safeLine(id)} failed: ${safeLine(failure.message)}`, failure.exitCode, { code: 'score_failed' });
        this.ctx.warn(`scoring ${noun} ${safeLine(id)} failed: ${safeLine(failure.message)}; emitted without a score`);
      }
      pending.done.add('score');
    }
    if (!pending.done.has('print')) {
      yield pending.record;
      pending.done.add('print');
    }
    const delivery: Delivery = { record: pending.record, id, resource, noun, event };
    if (exec !== undefined && !pending.done.has('exec')) {
      const problem = await runExec(exec, delivery, {
        env: this.ctx.env,
        stderr: this.ctx.io.stderr,
        signal,
        timeoutMs: this.settings.execTimeoutMs,
      });
      // A failed command is a failed delivery: the record stays unhandled and is run again.
      if (problem) throw new CliError(`--exec for ${noun} ${safeLine(id)} ${problem}`, ExitCode.service, { code: 'exec_failed' });
      pending.done.add('exec');
    }
    if (forwardTo !== undefined) {
      await forward(delivery, {
        url: forwardTo,
        secret: this.settings.secret,
        transport: await this.transport(),
        timeoutMs: this.ctx.timeoutMs(),
        signal,
        now: () => this.ctx.now(),
        pause: (ms, stop) => this.ctx.pause(ms, stop),
        onRetry: (message) => this.ctx.warn(message),
      });
    }
    this.pending.delete(key);
    handled();
  }

  /** The network, for forwards (the API may be the embedded sandbox): kept-alive, closed with the command. */
  private transport(): Promise<Transport> {
    return (this.forwardTransport ??= createNetworkTransport({ env: this.ctx.env }).then((network) => {
      this.ctx.onClose(() => network.close());
      return network;
    }));
  }
}

/** What handling one item means: what tells it apart, the record's id, its event (--changes), and what marks it handled. */
interface Handling {
  key: string;
  id: string;
  event?: Delivery['event'];
  handled: () => void;
}

function changeHandling(event: ChangeEvent, feed: ChangeFeed): Handling {
  return { key: event.event_id, id: event.id, event: { type: event.event, id: event.event_id }, handled: () => feed.handled(event) };
}

