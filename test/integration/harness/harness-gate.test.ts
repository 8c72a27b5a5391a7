// The suite's harness gate (test/helpers/harness/probe.ts): a `claude` or `codex` that is missing, cannot
// answer --version, or is not the pinned version means "skip" with the reason — or a failed run under
// GITMEM_REQUIRE_HARNESSES=1. Runs without the real programs (stand-in scripts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HARNESS_SKIP_REASON_ENV, harnessesForTests, probeHarness } from '../../helpers/harness/probe.js';
import { REPO_ROOT } from '../../helpers/harness/spawn-harness.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

const pins = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies;

/** An executable stand-in for a harness binary. */
function script(body: string): string {
  const file = join(makeTmpDir('gitmem-fake-harness-'), 'bin');
  writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe('harness detection for the suite', () => {
  it('pins both programs exactly in devDependencies', () => {
    expect(pins['@anthropic-ai/claude-code']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pins['@openai/codex']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('accepts a program that reports the pinned version', () => {
    expect(probeHarness('claude', script(`echo '${pins['@anthropic-ai/claude-code']} (Claude Code)'`))).toBeUndefined();
    expect(probeHarness('codex', script(`echo 'codex-cli ${pins['@openai/codex']}'`))).toBeUndefined();
  });

  it("names a missing binary, Claude Code's placeholder left by a skipped postinstall, and a version other than the pin", () => {
    expect(probeHarness('codex', '/nonexistent/codex')).toBe(
      '/nonexistent/codex is missing (npm ci installs the devDependency @openai/codex)',
    );
    const stub = script('echo "Error: claude native binary not installed." >&2\nexit 1');
    expect(probeHarness('claude', stub)).toBe(
      `${stub} --version failed (exit 1): Error: claude native binary not installed.`,
    );
    const old = script("echo 'codex-cli 0.1.0'");
    expect(probeHarness('codex', old)).toBe(
      `${old} is 0.1.0 but package.json pins @openai/codex@${pins['@openai/codex']} (npm ci)`,
    );
  });

  it('skips with the reasons when a program cannot run, and fails the run under GITMEM_REQUIRE_HARNESSES=1', () => {
    const available = (n: 'claude' | 'codex') => (n === 'codex' ? 'codex is broken' : undefined);
    const env: NodeJS.ProcessEnv = {};
    expect(harnessesForTests(env, available)).toEqual({ usable: false, reason: 'codex is broken' });
    expect(env[HARNESS_SKIP_REASON_ENV]).toBe('codex is broken');
    expect(() => harnessesForTests({ GITMEM_REQUIRE_HARNESSES: '1' }, available)).toThrow(
      'GITMEM_REQUIRE_HARNESSES=1 but codex is broken',
    );
    expect(harnessesForTests({}, () => undefined)).toEqual({ usable: true });
  });
});
