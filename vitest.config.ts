import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The secrets scan and the reliability figures, over everything the run captured.
    globalSetup: ['test/reliability/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn many processes; two cores are all this machine has.
    maxWorkers: 2,
  },
});
