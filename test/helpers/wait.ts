// Waiting for something a test caused (a process's output, a file, a request) to happen. A busy
// machine (several suites on two cores) may delay it by many seconds; how long it takes is never what
// such a test checks, so the wait is generous, and a test that never sees it still fails, later.

/** How long a test waits for what it caused. */
export const PATIENCE_MS = 30_000;

/** Resolves once `condition` holds; throws naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = PATIENCE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
