import { defineConfig } from 'vitest/config';

// Integration tests spawn real git; two cores means a small pool and generous timeouts.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // CLI calls run in their own process unless a test asks for the daemon (test/integration/cli-daemon.test.ts).
    env: { GITMEM_DAEMON: '0' },
  },
});
