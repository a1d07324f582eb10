// Long-running commands (watch, import) stop at a safe point on Ctrl-C or SIGTERM instead of dying
// mid-write: the signal aborts what is waiting (a sleep, a delivery, the rows not yet started), the
// command saves its state and returns. Only these commands listen, and only while they run.

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof SIGNALS)[number];

export interface Stopper {
  /** Aborted when a signal arrives. */
  signal: AbortSignal;
  /** Which signal stopped the command, if one did. */
  readonly received: StopSignal | undefined;
  /** Stops listening (the command is over). */
  dispose(): void;
}

export function stopOnSignals(): Stopper {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  const handlers = SIGNALS.map((name) => {
    const handler = () => {
      received ??= name;
      controller.abort(new StopRequested(name));
    };
    process.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    dispose() {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}

/** The reason of an aborted wait: a signal asked the command to stop. */
export class StopRequested extends Error {
  constructor(readonly signalName: StopSignal) {
    super(`stopped by ${signalName}`);
    this.name = 'StopRequested';
  }
}

/** Resolves after `ms`, or rejects with the stop reason as soon as the signal is aborted. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The work's outcome, unless the signal is aborted first (the work is then abandoned, not awaited). */
export function unlessStopped<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
