/**
 * Decides once per test run whether the tests tagged `sandbox` can run: the same detection gitmem itself
 * uses (a real `bwrap … true` with the flags it renders). Read by vitest.config.ts, in the main process.
 * Under GITMEM_REQUIRE_SANDBOX=1 (CI) a missing or unusable sandbox fails the run instead of skipping.
 */
import { detectSandboxBackend } from '../../src/sandbox/detect.js';

/** Set for the reporter (same process) when the sandbox tests are skipped: why. */
export const SKIP_REASON_ENV = 'GITMEM_TEST_SANDBOX_SKIPPED';

/** Whether sandbox tests run here; throws when they must and cannot. */
export function sandboxForTests(env: NodeJS.ProcessEnv): { usable: boolean; reason?: string } {
  const backend = detectSandboxBackend({ env });
  if (backend.name !== 'none') return { usable: true };
  if (env['GITMEM_REQUIRE_SANDBOX'] === '1') {
    throw new Error(`GITMEM_REQUIRE_SANDBOX=1 but no usable sandbox: ${backend.reason}`);
  }
  env[SKIP_REASON_ENV] = backend.reason;
  return { usable: false, reason: backend.reason };
}
