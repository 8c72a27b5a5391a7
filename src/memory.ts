/**
 * The composition root and the front door: the one place (with its helpers in wiring/) that reads the
 * configuration and wires runners, the lease, hooks and the identity into the `Memory` handle a harness
 * uses — writes, reads, sync, workers, reflection and dream on one object. `createMemory()` opens an
 * agent's memory; `initMemory()` and `cloneMemory()` make one. The calls that open no handle (listAgents,
 * the pre-commit check, the doctor, the version) are re-exported from wiring/standalone.ts.
 */
import type { MemoryMode } from './blocks/presets.js';
import { loadConfig, type GitmemConfig } from './config.js';
import { MemoryError } from './errors.js';
import { READ_ONLY_STATUS_ENV, statusOp, type RepoStatus } from './git/commands/status.js';
import { withMemoryOperation } from './git/lease.js';
import { gitDirsOf } from './git/common-dir.js';
import { durableWrites } from './git/durable.js';
import type { GitRunner } from './git/runner.js';
import { ensureHooks } from './hooks/install.js';
import { readSystemBudget } from './hooks/budget-config.js';
import { readRepoLayout } from './hooks/layout-config.js';
import { recordProtection } from './hooks/protected.js';
import { agentIdentity } from './identity.js';
import { logOp } from './memfs/log.js';
import { runMemoryTool, type WriteDeps, type WriteResult } from './memfs/tool.js';
import { watchedCleanCheckFor } from './memfs/fsmonitor/registry.js';
import { readApi, type MemoryReadApi } from './read/handle.js';
import {
  afterCommit,
  launcherFor,
  locateMemory,
  recordedIdentity,
  remoteConfigured,
  runnerFor,
} from './wiring/open.js';
import { defragPart } from './wiring/defrag.js';
import { reflectionParts } from './wiring/reflection.js';
import { withSkillRoots } from './wiring/skills.js';
import { protectionParts } from './wiring/protection.js';
import { syncParts } from './wiring/sync.js';
import type { MemoryStatus } from './wiring/operation-types.js';
import type { Memory, MemoryOptions } from './wiring/types.js';
import { workerParts } from './wiring/workers.js';
import { withWiring } from './wiring/handle-wiring.js';
import { withPartialCloneAuth } from './wiring/partial-auth.js';
import { routeSharedTool, sharedApi, withSharedPrompt, withSharedTree } from './wiring/shared.js';
import { conflictsApi } from './conflicts/handle.js';

export type { Memory, MemoryOptions } from './wiring/types.js';
export type {
  MemoryStatus,
  MemorySyncOptions,
  MirrorSetResult,
  MirrorStatus,
  WorkerTask,
  MemoryReflectionOptions,
  MemoryDreamOptions,
} from './wiring/operation-types.js';
export { initMemory, cloneMemory, type InitOptions, type CloneMemoryOptions } from './wiring/init.js';
export {
  createReflectionHarness,
  runDream,
  type CreateReflectionHarnessOptions,
  type RunDreamOptions,
} from './wiring/reflection.js';
export {
  listAgents,
  listPersonalities,
  runPreCommitCheck,
  preCommitProblems,
  openMemoryDir,
  runMemoryDoctor,
  gitmemVersion,
} from './wiring/standalone.js';
// For gitmem's own code only (re-exported by internals.ts, not index.ts): what a handle was wired with.
export { handleGit, handleWiring, type HandleWiring } from './wiring/handle-wiring.js';

/**
 * Opens an agent's memory. Throws MEMORY_DIR_MISSING / NOT_A_GIT_REPO when there is none (use initMemory);
 * installs or repairs the hooks on open.
 * @example const memory = await createMemory({ home: '/tmp/gm', agentId: 'a1' }); await memory.tool(call)
 */
export async function createMemory(options: MemoryOptions = {}): Promise<Memory> {
  const config = options.config ?? loadConfig({ env: options.env, home: options.home });
  const located = locateMemory(config, options.agentId);
  const { memoryDir } = located;
  // Found once here and handed down: no step of a write looks for them again.
  const gitDirs = gitDirsOf(memoryDir);
  // A partial clone's blobs are fetched on first read, with the credentials its clone used (wiring/partial-auth.ts).
  const git = withPartialCloneAuth(runnerFor(config, options), memoryDir, gitDirs, config);
  const { repaired } = await ensureHooks(git, memoryDir);
  await recordProtection(git, memoryDir);
  const recorded = recordedIdentity(memoryDir);
  const agentId = located.agentId ?? recorded.agentId;
  const deps: WriteDeps = {
    git,
    memoryDir,
    gitDirs,
    author: agentIdentity(agentId, {
      given: options.author,
      configuredName: config.agent.name,
      recordedName: recorded.name,
    }),
    lease: (fn) => withMemoryOperation(memoryDir, fn, { purpose: 'memory tool write', commonDir: gitDirs.commonDir }),
    systemBudget: () => readSystemBudget(memoryDir, config.home),
    durable: durableWrites(gitDirs.commonDir, config.fsync),
    clock: options.clock,
    onStep: options.onWriteStep,
    afterCommit: afterCommit(git, memoryDir, config, gitDirs),
    hasRemote: () => remoteConfigured(memoryDir),
    ...(options.watchWorkTree === false ? {} : { cleanCheck: watchedCleanCheckFor(memoryDir, { env: config.env }) }),
  };
  // Another agent of the same home (a dream's `--to` document lives in the dreaming agent's memory).
  const reopen = (id: string): Promise<Memory> => createMemory({ ...options, agentId: id, git });
  return buildMemory({ deps, config, agentId, hookRepairs: repaired, reopen, launch: launcherFor(options) });
}

interface Parts {
  deps: WriteDeps;
  config: GitmemConfig;
  agentId: string | undefined;
  hookRepairs: string[];
  reopen: (agentId: string) => Promise<Memory>;
  /** How the background writers start their sandboxes (the handle's launcher). */
  launch: NonNullable<MemoryOptions['launch']>;
}

function buildMemory(o: Parts): Memory {
  const reads = readApi(o.deps, o.agentId);
  const deps: WriteDeps = { ...o.deps, view: async (args) => viewCall(reads, args) };
  const { git, memoryDir } = deps;
  const { config, agentId, launch } = o;
  const mode = (): MemoryMode => (remoteConfigured(memoryDir) ? 'memfs' : 'local-memfs');
  const sw = { git, home: config.home, agentId }; // what the attached shared repositories are found with
  const handle: Memory = {
    ...reads,
    ...syncParts({ git, memoryDir, config }),
    ...protectionParts(deps, config),
    conflicts: conflictsApi({
      git,
      memoryDir,
      author: deps.author,
      home: config.home,
      env: config.env,
      clock: deps.clock,
    }),
    ...workerParts({
      git,
      launch,
      memoryDir,
      agentId,
      config,
      afterMerge: deps.afterCommit,
    }),
    ...reflectionParts({ git, launch, memoryDir, agentId, config }, o.reopen),
    ...defragPart({ git, launch, memoryDir, agentId, config }),
    migrate: async (opts) => (await import('./wiring/migrate.js')).migrate(deps, opts),
    sandboxExec: async (command, opts = {}) =>
      (await import('./wiring/shell.js')).sandboxExec({ ...opts, command, config, memoryDir, launch }),
    agentId,
    home: config.home,
    memoryDir,
    hookRepairs: o.hookRepairs,
    tool: async (call) => (await routeSharedTool(deps, sw, call)) ?? runMemoryTool(deps, call),
    shared: sharedApi(sw),
    applyPatch: async (call) =>
      (await (await import('./wiring/shared-patch.js')).routeSharedPatch(deps, sw, call)) ??
      (await import('./memfs/apply-patch/run.js')).runApplyPatch(deps, call),
    applyPersonality: async (id, opts = {}) =>
      (await import('./memfs/personality.js')).applyPersonality(deps, id, opts),
    defaultPromptMode: mode,
    compilePrompt: (opts = {}) => promptWithShared(sw, memoryDir, config, { ...opts, mode: opts.mode ?? mode() }),
    tree: () => treeWithShared(git, memoryDir, config, agentId),
    // The search engine (and its native module) loads on the first search, never with gitmem itself.
    search: async (query, opts) =>
      (await import('./search/search.js')).searchMemory(
        { git, memoryDir, home: config.home, env: config.env, openaiBaseUrl: config.model.openaiBaseUrl },
        query,
        opts,
      ),
    ...logAndStatus(git, memoryDir),
  };
  return withWiring(handle, { git, config, gitDirs: deps.gitDirs ?? gitDirsOf(memoryDir) });
}

/** HEAD's system prompt, then the attached shared repositories' blocks and skills (wiring/shared.ts). */
async function promptWithShared(
  sw: { git: GitRunner; home: string; agentId: string | undefined },
  memoryDir: string,
  config: GitmemConfig,
  opts: NonNullable<Parameters<Memory['compilePrompt']>[0]> & { mode: MemoryMode },
): Promise<string> {
  // Loaded on demand (off the write path); reads go through the per-blob read cache (read/prompt-read.ts).
  const { readPrompt } = await import('./read/prompt-read.js');
  const own = await readPrompt(sw.git, memoryDir, {
    ...withSkillRoots(config, opts),
    treeLimits: config.treeLimits,
    ...(sw.agentId ? { agentId: sw.agentId } : {}),
  });
  return withSharedPrompt(own, sw, opts);
}

/** HEAD's tree, then each attached shared repository's under `shared/<name>/`. */
async function treeWithShared(
  git: GitRunner,
  memoryDir: string,
  config: GitmemConfig,
  agentId: string | undefined,
): Promise<string> {
  const { readTree } = await import('./read/prompt-read.js');
  const own = await readTree(git, memoryDir, config.treeLimits);
  return withSharedTree(own, { git, home: config.home, agentId }, (dir) => readTree(git, dir, config.treeLimits));
}

/** The handle's `log` (empty before the first commit) and `status`. */
function logAndStatus(git: GitRunner, memoryDir: string): Pick<Memory, 'log' | 'status'> {
  return {
    log: (opts = {}) =>
      git.exec(logOp(opts.limit ?? 20), { cwd: memoryDir }).catch((err) => {
        if (/does not have any commits|bad default revision/i.test(String((err as Error).message))) return [];
        throw err;
      }),
    status: async () =>
      toStatus(memoryDir, await git.exec(statusOp('all'), { cwd: memoryDir, env: { ...READ_ONLY_STATUS_ENV } })),
  };
}

/** The memory tool's `view` command: the view text, as the message too (nothing is committed). */
async function viewCall(reads: MemoryReadApi, args: Record<string, unknown>): Promise<WriteResult> {
  const path = args['file_path'];
  if (path !== undefined && typeof path !== 'string')
    throw new MemoryError('INVALID_PATH', "memory view: 'file_path' must be a string", {
      data: { field: 'file_path' },
    });
  const v = await reads.view(
    path,
    args['view_range'] === undefined ? {} : { range: args['view_range'] as [number, number] },
  );
  return { commit: v.commit, paths: [], message: v.text, view: v.text };
}

function toStatus(memoryDir: string, s: RepoStatus): MemoryStatus {
  const changes = s.entries.map((e) => ({ code: e.code, path: e.path }));
  return {
    memoryDir,
    layout: readRepoLayout(memoryDir).name,
    head: s.head,
    branch: s.branch,
    dirty: changes.length > 0,
    changes,
    upstream: s.upstream,
    ahead: s.ahead,
    behind: s.behind,
  };
}
