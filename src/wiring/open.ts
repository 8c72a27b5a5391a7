/**
 * What opening a memory wires before the handle exists: which directory (the default-agent rule), the git
 * runner and how it starts processes, what `init` recorded in the repository config, and what runs after
 * each commit. Owned by memory.ts: the only place, with its siblings here, that builds runners.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { GitmemConfig } from '../config.js';
import { MemoryError } from '../errors.js';
import type { GitDirs } from '../git/common-dir.js';
import { configValue, parseGitConfig, readGitConfigText, type ParsedConfig } from '../git/config-text.js';
import { createGitRunner, type GitRunner } from '../git/runner.js';
import { setFastPaths } from '../fast-paths.js';
import { assertHomeUsable } from '../home.js';
import { isMirrorConfigured } from '../hooks/post-commit.js';
import { noteValidatedCommit } from '../hooks/protected.js';
import { firePostCommitHook } from '../memfs/commit.js';
import { assertAgentId } from '../memfs/layout.js';
import { listHomeAgents, resolveScope } from '../memfs/scope.js';
import type { Launcher } from '../process/run.js';
import { sharedShellLauncher } from '../process/shell-launcher.js';

/**
 * How a handle starts its children (git, the sandboxes, the hook channels' git): the caller's `launch`, else
 * the process-wide shell launcher (no fork of this process's heap per call). The one place layers below get
 * a launcher from: they take it as a parameter.
 * @example runConfined(confined, { cwd, launch: launcherFor(options) })
 */
export function launcherFor(o: { launch?: Launcher | undefined }): Launcher {
  return o.launch ?? sharedShellLauncher();
}

/**
 * The git runner of a handle: the caller's, else one over the configured environment that starts git
 * through {@link launcherFor}.
 * Every configuration that comes to run git passes here, so here it also sets the process's fast-paths switch
 * (fast-paths.ts: GITMEM_FAST_PATHS=0 sends every fast path to its plain git path).
 * @example const git = runnerFor(config, {})
 */
export function runnerFor(
  config: GitmemConfig,
  o: { git?: GitRunner | undefined; launch?: Launcher | undefined },
): GitRunner {
  setFastPaths(config.fastPaths);
  // GITMEM_HOME: git's hooks read the system/ budget from the configured home, as the handle does (config.ts hookHome).
  return o.git ?? createGitRunner({ env: { ...config.env, GITMEM_HOME: config.home }, launch: launcherFor(o) });
}

/**
 * The memory directory the configuration and `agentId` name (the default-agent rule of memfs/scope.ts),
 * checked to be a repository: HOME_UNUSABLE, MEMORY_DIR_MISSING or NOT_A_GIT_REPO otherwise.
 * @example locateMemory(loadConfig({ home: '/tmp/gm' }), undefined).memoryDir // '/tmp/gm/agents/<the only agent>/memory'
 */
export function locateMemory(
  config: GitmemConfig,
  agentId: string | undefined,
): { memoryDir: string; agentId: string | undefined } {
  const scope = resolveScope({ home: config.home, agentId, configured: config.agent });
  const memoryDir = scope.memoryDir;
  if (!existsSync(memoryDir)) {
    if (scope.source === 'env-dir')
      throw new MemoryError(
        'MEMORY_DIR_MISSING',
        `memory directory does not exist: ${memoryDir} (run \`gitmem init\`)`,
        { data: { memoryDir } },
      );
    assertHomeUsable(config.home);
    throw unknownAgent(config.home, scope.agentId as string, memoryDir);
  }
  if (!existsSync(join(memoryDir, '.git'))) {
    throw new MemoryError(
      'NOT_A_GIT_REPO',
      `${memoryDir} is not a git repository; gitmem needs a git-backed memory directory`,
      { data: { memoryDir } },
    );
  }
  return { memoryDir, agentId: scope.agentId };
}

/** How many of the home's agents an unknown-agent error names. */
const LISTED_AGENTS = 20;

/** MEMORY_DIR_MISSING for an agent the home does not have, naming the ones it has (a typo shows at once). */
function unknownAgent(home: string, agentId: string, memoryDir: string): MemoryError {
  const valid = (id: string): boolean => {
    try {
      return assertAgentId(id) === id; // a directory no agent id can name is not an agent (nor safe to print)
    } catch {
      return false;
    }
  };
  const agents = listHomeAgents(home)
    .map((a) => a.agentId)
    .filter(valid);
  const shown = agents.slice(0, LISTED_AGENTS).join(', ');
  const more =
    agents.length > LISTED_AGENTS ? ` and ${agents.length - LISTED_AGENTS} more (gitmem agents lists them)` : '';
  const has = agents.length === 0 ? 'it has no agents yet' : `its agents: ${shown}${more}`;
  return new MemoryError(
    'MEMORY_DIR_MISSING',
    `no agent "${agentId}" in ${home} (${has}); \`gitmem init --agent ${agentId}\` creates it`,
    {
      data: { memoryDir, agentId, home, agents: agents.slice(0, LISTED_AGENTS) },
    },
  );
}

/** The repo config as the one text reader parses it (no git process); empty when it cannot be read. */
function repoConfig(memoryDir: string): ParsedConfig {
  return parseGitConfig(readGitConfigText(join(memoryDir, '.git')) ?? '');
}

/** The agent id and display name `init` recorded in the repo config (read as text: no git process). */
export function recordedIdentity(memoryDir: string): { agentId?: string; name?: string } {
  const config = repoConfig(memoryDir);
  const agentId = configValue(config, 'gitmem', 'agentId');
  const name = configValue(config, 'user', 'name')?.trim();
  return { ...(agentId ? { agentId } : {}), ...(name ? { name } : {}) };
}

/** True when the repo config names an `origin` (read as text: no git process). */
export function remoteConfigured(memoryDir: string): boolean {
  return repoConfig(memoryDir).sections.some((s) => s.section === 'remote' && s.subsection === 'origin');
}

// git's own estimate (gc.auto 6700 loose objects): more than 6700/256 entries in the objects/17 fan-out.
const LOOSE_IN_17_BEFORE_GC = 27;

/** Plumbing commits never trigger git's `gc --auto`; ask for it (in the background) once git would want it. */
function gcIfDue(git: GitRunner, memoryDir: string, commonDir: string): void {
  try {
    const sample = readdirSync(join(commonDir, 'objects', '17')).length;
    if (sample > LOOSE_IN_17_BEFORE_GC) git.detach(['gc', '--auto', '--quiet'], { cwd: memoryDir });
  } catch {
    // no objects/17 yet: nothing to pack
  }
}

/**
 * What runs after each tool commit: the protected list's marker, the mirror push (the post-commit hook,
 * in its own process, told which home's credentials this memory uses) and git's housekeeping.
 * @example deps.afterCommit = afterCommit(git, memoryDir, config, gitDirsOf(memoryDir))
 */
export function afterCommit(
  git: GitRunner,
  memoryDir: string,
  config: GitmemConfig,
  dirs: GitDirs,
): (commit: string, parent?: string | null) => void {
  return (commit, parent) => {
    // A tool commit passed the validator, which refuses every new read_only file: it protects what its parent
    // did, so the protected list's marker may follow it (the next open then scans nothing). An operator's
    // write may add one, and has put its path on the list just before. Runs under the lease.
    if (parent !== undefined) noteValidatedCommit(memoryDir, parent, commit, dirs.commonDir);
    if (isMirrorConfigured(readGitConfigText(join(memoryDir, '.git')) ?? ''))
      firePostCommitHook(memoryDir, { ...config.env, GITMEM_HOME: config.home }, dirs.commonDir);
    gcIfDue(git, memoryDir, dirs.commonDir);
  };
}
