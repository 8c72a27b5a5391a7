/**
 * Decides once per test run whether the tests tagged `browser` (the Memory Palace in Chromium) can run:
 * Debian's chromium, driven by playwright-core, never a downloaded browser. Read by vitest.config.ts, in the
 * main process. Under GITMEM_REQUIRE_BROWSER=1 (CI) a missing chromium fails the run instead of skipping.
 */
import { accessSync, constants } from 'node:fs';

/** The only browser the tests drive (`apt-get install chromium`). */
export const CHROMIUM = '/usr/bin/chromium';

/** Set for the reporter (same process) when the browser tests are skipped: why. */
export const BROWSER_SKIP_REASON_ENV = 'GITMEM_TEST_BROWSER_SKIPPED';

/** Whether browser tests run here; throws when they must and cannot. */
export function browserForTests(env: NodeJS.ProcessEnv, executable = CHROMIUM): { usable: boolean; reason?: string } {
  try {
    accessSync(executable, constants.X_OK);
    return { usable: true };
  } catch {
    const reason = `${executable} not found or not executable (apt-get install chromium)`;
    if (env['GITMEM_REQUIRE_BROWSER'] === '1') throw new Error(`GITMEM_REQUIRE_BROWSER=1 but ${reason}`);
    env[BROWSER_SKIP_REASON_ENV] = reason;
    return { usable: false, reason };
  }
}
