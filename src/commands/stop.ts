// Long-running commands (watch, import) stop at a safe point on SIGTERM (a service manager, `kill`)
// instead of dying mid-way: the signal aborts what is waiting (a sleep, a delivery, the rows not yet
// started), the command saves its state, reports and returns. Only these commands listen, and only
// while they run; any other command SIGTERM ends as Ctrl-C does (src/cli/io.ts). Ctrl-C is the
// runner's for every command: it ends the command at once, after its Context.onClose cleanups (the
// import's checkpoint is written there; watch's state is whole after every record). The signal comes
// through the Context (ctx.io.signals): the process's, or a test's emitter that reaches one command.

import type { SignalSource } from '../cli/io.js';

export interface Stopper {
  /** Aborted when SIGTERM arrives. */
  signal: AbortSignal;
  /** Stops listening (the command is over). */
  dispose(): void;
}

export function stopOnSigterm(signals: SignalSource): Stopper {
  const controller = new AbortController();
  const handler = () => controller.abort(new Error('stopped by SIGTERM'));
  // on, not once: a second SIGTERM still finds the command listening, and the runner still leaves it be.
  signals.on('SIGTERM', handler);
  return { signal: controller.signal, dispose: () => signals.off('SIGTERM', handler) };
}

/** The work's outcome, unless the signal is aborted first (the work is then abandoned, not awaited). */
export function unlessStopped<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // Abandoned as it starts: its failure is no one's to report (not an unhandled rejection).
    work.catch(() => {});
    return Promise.reject(signal.reason);
  }
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
