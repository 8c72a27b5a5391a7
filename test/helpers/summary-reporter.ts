/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, after vitest's own summary so CI can
 * read the result in any tool; and, when the sandbox tests were skipped (test/helpers/sandbox-probe.ts),
 * one line naming them and why.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { SKIP_REASON_ENV } from './sandbox-probe.js';
import { STRACE_SKIP_REASON_ENV } from './strace-probe.js';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const sandboxSkipped = new Map<string, number>();
    let straceSkipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
        if (state === 'skipped' && test.options.tags?.includes('sandbox')) {
          const file = relative(process.cwd(), mod.moduleId);
          sandboxSkipped.set(file, (sandboxSkipped.get(file) ?? 0) + 1);
        }
        if (state === 'skipped' && test.options.tags?.includes('strace')) straceSkipped++;
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    const reason = process.env[SKIP_REASON_ENV];
    if (reason !== undefined && sandboxSkipped.size > 0) {
      const count = [...sandboxSkipped.values()].reduce((a, b) => a + b, 0);
      const files = [...sandboxSkipped].map(([f, n]) => `${f} (${n})`).join(', ');
      process.stdout.write(`\nsandbox: skipped ${count} tests that need it (${reason}; GITMEM_REQUIRE_SANDBOX=1 makes this a failure): ${files}\n`);
    }
    const straceReason = process.env[STRACE_SKIP_REASON_ENV];
    if (straceReason !== undefined && straceSkipped > 0) {
      process.stdout.write(`\nstrace: skipped ${straceSkipped} tests that need it (${straceReason}; GITMEM_REQUIRE_SANDBOX=1 makes this a failure)\n`);
    }
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
