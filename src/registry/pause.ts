// Shared by the configuration's lock (src/config/store.ts) and the sandbox's database (src/sandbox/),
// which no layer above them both holds: here, in the one layer both may import.

/**
 * Blocks this thread 5-25 ms, between tries at a file another process holds (a lock file, a database
 * switching to WAL): random, so that processes waiting on each other do not try again in step.
 * Synchronous, as its callers are: a config write is never split by a signal (src/cli/io.ts).
 */
export function pauseForOtherProcess(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 + Math.random() * 20);
}
