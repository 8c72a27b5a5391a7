/**
 * What every confined process sees besides its policy (pure): the platform's read-only runtime, node and
 * gitmem's own package (the pre-commit hook a confined `git commit` runs is `node <gitmem>/dist/bin/
 * pre-commit.cjs`), the operator's added read paths; and what stays hidden even when one of those covers
 * it: system secrets, credential entries of the user's homes, every gitmem home and runtime directory.
 */
import { join, sep } from 'node:path';
import { MemoryError } from '../errors.js';
import { isWithin, withReadPaths, type SandboxPolicy } from './policy.js';
import { HOME_SECRETS, SANDBOX_HOME, SYSTEM_READ_ROOTS, SYSTEM_SECRETS, type SandboxPlatform } from './system-roots.js';

/** The variable that adds read-only paths to every sandbox (`:`-separated absolute paths). */
export const SANDBOX_READ_ENV = 'GITMEM_SANDBOX_READ';

/** The facts about this host a view is built from (host.ts gathers them). */
export interface HostFacts {
  platform: SandboxPlatform;
  /** gitmem's package root and the Node installation (each `/`-free, read-only). */
  runtimeRoots: string[];
  /** The user's homes (from HOME and the password database). */
  userHomes: string[];
  /** gitmem homes named by the environment, besides the writer's own (hidden whole). */
  gitmemHomes: string[];
  /** Every place a gitmem runtime directory (the CLI daemon's socket) may be. */
  runtimeDirs: string[];
}

/**
 * Splits GITMEM_SANDBOX_READ into absolute paths; empty entries are skipped, a relative one is refused.
 * @example parseReadPaths('/srv/notes::/opt/ref') // ['/srv/notes', '/opt/ref']
 */
export function parseReadPaths(value: string | undefined): string[] {
  const out: string[] = [];
  for (const entry of (value ?? '').split(':').map((e) => e.trim())) {
    if (entry === '') continue;
    if (!entry.startsWith(sep) || entry.includes('\0')) {
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `${SANDBOX_READ_ENV} entries must be absolute paths, got ${JSON.stringify(entry)}`,
        {
          data: { variable: SANDBOX_READ_ENV, value: entry },
        },
      );
    }
    out.push(entry);
  }
  return out;
}

/**
 * `policy` plus the host view: the runtime and `readPaths` visible read-only, the secrets denied (except
 * where the policy itself re-opens a root around them: a writer's own worktree holds none of them), and an
 * empty home unless the policy names one.
 * @example withSystemView(policy, facts, ['/srv/notes']).readonlyRoots.includes('/usr') // true
 */
export function withSystemView(
  policy: SandboxPolicy,
  host: HostFacts,
  readPaths: readonly string[] = [],
): SandboxPolicy {
  const secrets = [
    ...SYSTEM_SECRETS[host.platform],
    ...host.userHomes.flatMap((h) => HOME_SECRETS.map((e) => join(h, e))),
    ...host.gitmemHomes,
    ...host.runtimeDirs,
  ].filter((d) => !policy.reopenedRoots.some((r) => isWithin(r.path, d)));
  const denied: SandboxPolicy = {
    ...policy,
    readonlyRoots: [...policy.readonlyRoots, ...SYSTEM_READ_ROOTS[host.platform]],
    deniedRoots: [...policy.deniedRoots, ...secrets],
    emptyHome: policy.emptyHome ?? SANDBOX_HOME,
  };
  return withReadPaths(denied, [...host.runtimeRoots.filter((p) => p !== sep), ...readPaths]);
}
