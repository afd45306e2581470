import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // e2e tests start real processes and servers; keep the machine's two cores from thrashing
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
