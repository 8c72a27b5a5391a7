import { defineConfig } from 'vitest/config';
import { browserForTests } from './test/helpers/browser-probe.js';
import { harnessesForTests } from './test/helpers/harness/probe.js';
import { sandboxForTests } from './test/helpers/sandbox-probe.js';
import { straceForTests } from './test/helpers/strace-probe.js';

// Detected once for the whole run: tests tagged `sandbox` skip without a usable one (the reporter prints
// one line saying which and why), or the run fails under GITMEM_REQUIRE_SANDBOX=1.
const sandbox = sandboxForTests(process.env);
// Likewise tests tagged `browser` need Debian's chromium (GITMEM_REQUIRE_BROWSER=1 makes its absence a failure).
const browser = browserForTests(process.env);
// The same for the tests tagged `strace` (the durable write's syscall order).
const strace = straceForTests(process.env);
// And the tests tagged `harness`: the real `claude` and `codex` pinned in devDependencies (GITMEM_REQUIRE_HARNESSES=1).
const harness = harnessesForTests(process.env);

// Integration tests spawn real git; two cores means a small pool and generous timeouts.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // GITMEM_FAST_PATHS=0 (CI's second pass) reaches code below the composition root too.
    setupFiles: ['./test/helpers/fast-paths-setup.ts'],
    // CLI calls run in their own process unless a test asks for the daemon (test/integration/cli/cli-daemon.test.ts).
    env: { GITMEM_DAEMON: '0' },
    tags: [
      { name: 'sandbox', description: 'needs a working kernel sandbox (bubblewrap)', skip: !sandbox.usable },
      { name: 'browser', description: 'needs headless Chromium (/usr/bin/chromium)', skip: !browser.usable },
      { name: 'strace', description: 'needs strace allowed to trace a child', skip: !strace.usable },
      {
        name: 'harness',
        description: 'runs the real Claude Code and Codex CLI (node_modules/.bin)',
        skip: !harness.usable,
      },
    ],
  },
});
