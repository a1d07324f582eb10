import { defineConfig } from 'vitest/config';

export default defineConfig(({ mode }) => ({
  test: {
    include: ['test/**/*.test.ts'],
    // The secrets scan and the reliability figures, over everything the run captured.
    globalSetup: ['test/reliability/global-setup.ts'],
    // `npm run test:reliability` (vitest --mode reliability): the reliability checks at full size.
    env: mode === 'reliability' ? { CRM_RELIABILITY: 'full' } : {},
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn many processes; two cores are all this machine has. The full-size load
    // runs alone, so that it starves no other test of its timeout.
    maxWorkers: mode === 'reliability' ? 1 : 2,
  },
}));
