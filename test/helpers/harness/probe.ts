/**
 * Whether the real harness programs can run here: the pinned `claude` and `codex` from node_modules/.bin,
 * each asked for `--version` (which also catches Claude Code's placeholder binary, left when npm skipped its
 * postinstall, and a binary that cannot execute on this platform). vitest.config.ts reads it once per run for
 * the `harness` tag; under GITMEM_REQUIRE_HARNESSES=1 (CI) an unusable harness fails the run instead of
 * skipping its tests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO_ROOT, harnessBin, type HarnessName } from './spawn-harness.js';

/** Set for the reporter (same process) when the harness tests are skipped: why. */
export const HARNESS_SKIP_REASON_ENV = 'GITMEM_TEST_HARNESS_SKIPPED';

/** The npm package that pins each program (package.json devDependencies). */
export const HARNESS_PACKAGES: Record<HarnessName, string> = {
  claude: '@anthropic-ai/claude-code',
  codex: '@openai/codex',
};

const cache = new Map<HarnessName, string | undefined>();

function pinnedVersion(name: HarnessName): string | undefined {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  return pkg.devDependencies?.[HARNESS_PACKAGES[name]];
}

/**
 * Why the program at `bin` cannot stand in for `name` (undefined: it can): missing, not starting, failing
 * `--version`, or not the version package.json pins. Not cached; {@link harnessAvailable} is.
 */
export function probeHarness(name: HarnessName, bin: string = harnessBin(name)): string | undefined {
  const pkg = HARNESS_PACKAGES[name];
  const label = bin.startsWith(REPO_ROOT) ? relative(REPO_ROOT, bin) : bin;
  if (!existsSync(bin)) return `${label} is missing (npm ci installs the devDependency ${pkg})`;
  // A throwaway HOME: asking for the version must not read or write the developer's own settings.
  const home = mkdtempSync(join(tmpdir(), 'gitmem-harness-probe-'));
  try {
    const r = spawnSync(bin, ['--version'], {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home },
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (r.error) return `${label} cannot start: ${r.error.message}`;
    if (r.status !== 0) {
      const why = `${r.stderr}${r.stdout}`.trim().split('\n')[0] ?? '';
      return `${label} --version failed (exit ${String(r.status)}): ${why}`;
    }
    const version = /(\d+\.\d+\.\d+)/.exec(r.stdout)?.[1];
    const pinned = pinnedVersion(name);
    if (version === undefined || version !== pinned) {
      return `${label} is ${version ?? `unrecognised (${r.stdout.trim()})`} but package.json pins ${pkg}@${pinned ?? '(nothing)'} (npm ci)`;
    }
    return undefined;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Why `name` cannot run here, or undefined when it can (checked once per process).
 * @example const why = harnessAvailable('codex'); if (why) console.log(`skipping: ${why}`)
 */
export function harnessAvailable(name: HarnessName): string | undefined {
  if (!cache.has(name)) cache.set(name, probeHarness(name));
  return cache.get(name);
}

/** Whether the tests tagged `harness` (both programs) run here; throws when they must and cannot. */
export function harnessesForTests(
  env: NodeJS.ProcessEnv,
  available = harnessAvailable,
): { usable: boolean; reason?: string } {
  const reasons = (['claude', 'codex'] as const).flatMap((n) => {
    const why = available(n);
    return why === undefined ? [] : [why];
  });
  if (reasons.length === 0) return { usable: true };
  const reason = reasons.join('; ');
  if (env['GITMEM_REQUIRE_HARNESSES'] === '1') throw new Error(`GITMEM_REQUIRE_HARNESSES=1 but ${reason}`);
  env[HARNESS_SKIP_REASON_ENV] = reason;
  return { usable: false, reason };
}
