// The pace the requests of one command keep, shared by all of them (an import's workers, a bulk
// command's ids, a walk's pages in flight). Unpaced until the service refuses one with 429; from
// then on requests start at most `rate` a second, the rate set from what the service accepted and
// raised slowly until the next refusal (additive increase, multiplicative decrease): the run settles
// just under the service's limit instead of each worker sleeping alone or all of them stopping. The
// refused request itself waits its Retry-After (the core's).
//
// A command may also cap how many requests are on the wire at once (`maxInFlight`, an import's
// --concurrency): a request waiting out a Retry-After holds no place, so the other rows keep the
// pace while a few wait.

/** The rate is set to this share of what the service accepted when it refused one. */
const DECREASE = 0.9;
/** How much faster the pace gets each second nothing is refused: a share of the rate, at least one request a second. */
const INCREASE_SHARE = 0.05;
const INCREASE_MIN = 1;
/** How far back accepted answers count towards the rate the service takes. */
const WINDOW_MS = 1_000;
/** Never slower than this: a pace is a slowdown, not a stop (long waits are the core's). */
const MIN_RATE = 0.5;

interface PaceClock {
  now(): number;
  /** Resolves after `ms`; rejects when the signal is aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export class Pace {
  /** Requests a second; Infinity until the service refuses one. */
  private rate = Infinity;
  /** When the next request may start. */
  private nextAt = 0;
  /** When the rate was last lowered: a refusal of a request started before that is already counted. */
  private loweredAt = -Infinity;
  /** When the rate was last raised. */
  private raisedAt = 0;
  /** When recent requests started, and when the service accepted recent ones, oldest first. */
  private readonly started: number[] = [];
  private readonly accepted: number[] = [];
  /** When the first request started, and when the first answer came (the service's rate is counted from then). */
  private firstAt?: number;
  private firstAnswerAt?: number;
  /** Requests on the wire at most (turn() to done()); Infinity: no cap. */
  maxInFlight = Infinity;
  private inFlight = 0;
  /** Turns waiting for a place on the wire, first come first served. */
  private readonly queue: Array<() => void> = [];

  constructor(private readonly clock: PaceClock) {}

  /** The current rate in requests a second (Infinity: unpaced). */
  get requestsPerSecond(): number {
    return this.rate;
  }

  /**
   * Waits for a request's turn: a place on the wire, then its moment at the current rate; resolves
   * with the time it starts. Every turn taken is ended with done().
   */
  async turn(signal?: AbortSignal): Promise<number> {
    await this.place(signal);
    try {
      const now = this.clock.now();
      this.firstAt ??= now;
      let at = now;
      if (this.rate !== Infinity) {
        at = Math.max(now, this.nextAt);
        this.nextAt = at + 1000 / this.rate;
        if (at > now) await this.clock.sleep(at - now, signal);
      }
      this.started.push(at);
      inWindow(this.started, at);
      return at;
    } catch (error) {
      this.done();
      throw error;
    }
  }

  /** The request of a turn got its answer, or failed: its place on the wire is free. */
  done(): void {
    this.inFlight--;
    this.queue.shift()?.();
  }

  private place(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.inFlight < this.maxInFlight) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const take = () => {
        signal?.removeEventListener('abort', onAbort);
        this.inFlight++;
        resolve();
      };
      const onAbort = () => {
        this.queue.splice(this.queue.indexOf(take), 1);
        reject(signal!.reason);
      };
      this.queue.push(take);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The service answered a request (started at `startedAt`) without refusing it. */
  answered(): void {
    const now = this.clock.now();
    this.firstAnswerAt ??= now;
    this.accepted.push(now);
    inWindow(this.accepted, now);
    if (this.rate === Infinity) return;
    this.rate += (Math.max(INCREASE_MIN, this.rate * INCREASE_SHARE) * Math.max(0, now - this.raisedAt)) / 1000;
    this.raisedAt = now;
  }

  /** The service refused a request started at `startedAt` (429). */
  refused(startedAt: number): void {
    if (startedAt <= this.loweredAt) return;
    const now = this.clock.now();
    // What the service took over the last second, or since its first answer if sooner (the time a
    // connection took to open is not the service's); when it took nothing, how fast requests went.
    const perSecond = (times: number[], since = this.firstAt ?? now) => (inWindow(times, now) * 1000) / Math.max(1, Math.min(WINDOW_MS, now - since));
    const taken = this.accepted.length > 0 ? perSecond(this.accepted, this.firstAnswerAt) : perSecond(this.started);
    this.rate = Math.max(MIN_RATE, Math.min(this.rate, taken) * DECREASE);
    this.loweredAt = now;
    this.raisedAt = now;
  }
}

/**
 * A limit the service publishes for one kind of call (scoring: 10 a minute per key), kept by the
 * caller so that the service seldom has to refuse: at most `calls` start within any `windowMs`;
 * turn() waits, telling `onWait` how long and why, until the oldest start has left the window.
 */
export class CallWindow {
  /** When each recent call started, oldest first. */
  private readonly started: number[] = [];

  constructor(
    private readonly limit: { calls: number; windowMs: number; reason: string },
    private readonly clock: PaceClock,
    private readonly onWait?: (ms: number, reason: string) => void,
  ) {}

  async turn(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      if (inWindow(this.started, now, this.limit.windowMs) < this.limit.calls) {
        this.started.push(now);
        return;
      }
      const ms = this.started[0]! + this.limit.windowMs - now;
      this.onWait?.(ms, this.limit.reason);
      await this.clock.sleep(ms, signal);
    }
  }
}

/** Drops the times before the window that ends `now`; how many are left. */
function inWindow(times: number[], now: number, windowMs = WINDOW_MS): number {
  while (times.length > 0 && times[0]! <= now - windowMs) times.shift();
  return times.length;
}

/** Resolves after `ms`; rejects with the signal's reason as soon as it is aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
