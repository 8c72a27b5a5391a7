/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, after vitest's own summary so CI can
 * read the result in any tool; and, when the sandbox, browser, strace or harness tests were skipped
 * (test/helpers/sandbox-probe.ts, browser-probe.ts, strace-probe.ts, harness/probe.ts), one line each naming
 * them and why.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { BROWSER_SKIP_REASON_ENV } from './browser-probe.js';
import { HARNESS_SKIP_REASON_ENV } from './harness/probe.js';
import { SKIP_REASON_ENV } from './sandbox-probe.js';
import { STRACE_SKIP_REASON_ENV } from './strace-probe.js';

/** The gated tags: the variable naming why they were skipped, and the one that turns a skip into a failure. */
const GATES = [
  { tag: 'sandbox', reasonEnv: SKIP_REASON_ENV, require: 'GITMEM_REQUIRE_SANDBOX' },
  { tag: 'browser', reasonEnv: BROWSER_SKIP_REASON_ENV, require: 'GITMEM_REQUIRE_BROWSER' },
  { tag: 'strace', reasonEnv: STRACE_SKIP_REASON_ENV, require: 'GITMEM_REQUIRE_SANDBOX' },
  { tag: 'harness', reasonEnv: HARNESS_SKIP_REASON_ENV, require: 'GITMEM_REQUIRE_HARNESSES' },
] as const;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const gated = new Map<string, Map<string, number>>(GATES.map((g) => [g.tag, new Map()]));
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
        if (state !== 'skipped') continue;
        for (const [tag, files] of gated) {
          if (!test.options.tags?.includes(tag)) continue;
          const file = relative(process.cwd(), mod.moduleId);
          files.set(file, (files.get(file) ?? 0) + 1);
        }
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    for (const g of GATES) {
      const reason = process.env[g.reasonEnv];
      const files = gated.get(g.tag) ?? new Map<string, number>();
      if (reason === undefined || files.size === 0) continue;
      const count = [...files.values()].reduce((a, b) => a + b, 0);
      const list = [...files].map(([f, n]) => `${f} (${n})`).join(', ');
      process.stdout.write(
        `\n${g.tag}: skipped ${count} tests that need it (${reason}; ${g.require}=1 makes this a failure): ${list}\n`,
      );
    }
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
