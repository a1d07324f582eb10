import { defineConfig } from 'vitest/config';

export default defineConfig(({ mode }) => ({
  test: {
    include: ['test/**/*.test.ts'],
    // The secrets scan and the reliability figures, over everything the run captured.
    globalSetup: ['test/reliability/global-setup.ts'],
    // `npm run test:reliability` (vitest --mode reliability): the reliability checks at full size.
    env: mode === 'reliability' ? { CRM_RELIABILITY: 'full' } : {},
    // Generous: on a loaded machine (several suites on two cores) a test that drives processes can
    // take tens of seconds, and how long is never what a test checks (test/helpers/wait.ts). A hang
    // still fails, later.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores, but the slowest files mostly wait (a child process, a Retry-After, a pty): four
    // workers overlap the waits (about 35 s instead of 50 s here). The full-size load runs alone, so
    // that it starves no other test of its timeout.
    maxWorkers: mode === 'reliability' ? 1 : 4,
  },
}));
