/**
 * Decides once per test run whether the tests tagged `strace` (syscall traces of a write) can run: strace
 * installed and allowed to trace here (`strace -f -qq -e trace=fsync true`). Read by vitest.config.ts, in
 * the main process. Under GITMEM_REQUIRE_SANDBOX=1 (CI) a missing or unusable strace fails the run.
 */
import { spawnSync } from 'node:child_process';

/** Set for the reporter (same process) when the strace tests are skipped: why. */
export const STRACE_SKIP_REASON_ENV = 'GITMEM_TEST_STRACE_SKIPPED';

/** Whether strace tests run here; throws when they must and cannot. */
export function straceForTests(env: NodeJS.ProcessEnv): { usable: boolean; reason?: string } {
  const r = spawnSync('strace', ['-f', '-qq', '-e', 'trace=fsync', 'true'], { encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0) return { usable: true };
  const reason = r.error
    ? `strace is not installed (Debian package strace)`
    : `strace cannot trace here: ${(r.stderr || '').trim().split('\n')[0]}`;
  if (env['GITMEM_REQUIRE_SANDBOX'] === '1') throw new Error(`GITMEM_REQUIRE_SANDBOX=1 but ${reason}`);
  env[STRACE_SKIP_REASON_ENV] = reason;
  return { usable: false, reason };
}
