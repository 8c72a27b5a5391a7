/**
 * The composition root: the one place that reads the environment and wires the layers into the API a
 * harness uses — `createMemory()` for an existing agent, `initMemory()` to create one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryMode } from './blocks/presets.js';
import { resolveTreeLimits } from './blocks/tree-limits.js';
import { MemoryError } from './errors.js';
import type { Launcher } from './process.js';
import { READ_ONLY_STATUS_ENV, statusOp, type RepoStatus } from './git/commands/status.js';
import { createGitRunner, type GitRunner } from './git/runner.js';
import { resolveGitCommonDir } from './git/common-dir.js';
import { durableWrites } from './git/durable.js';
import { ensureHooks } from './hooks/install.js';
import { isMirrorConfigured } from './hooks/post-commit.js';
import { findPreCommitProblems, runPreCommit } from './hooks/pre-commit.js';
import { readSystemBudget } from './hooks/budget-config.js';
import type { Problem } from './blocks/validate.js';
import { noteValidatedCommit, recordProtection } from './hooks/protected.js';
import { readLooseObject } from './git/objects.js';
import { firePostCommitHook, type Identity } from './memfs/commit.js';
import { initMemoryRepo, type InitResult } from './memfs/init.js';
import { logOp, type LogEntry } from './memfs/log.js';
import { assertAgentId } from './memfs/layout.js';
import { listHomeAgents, resolveInitAgent, resolveScope } from './memfs/scope.js';
import { assertHomeUsable, gitmemHome, prepareHome } from './home.js';
import { runMemoryTool, type WriteDeps, type WriteResult } from './memfs/tool.js';
import type { WriteStep } from './memfs/edits.js';
import { withMemoryOperation } from './git/lease.js';
import { readApi, type MemoryReadApi } from './read/handle.js';
import type { SearchHit, SearchOptions } from './search/types.js';

export interface MemoryOptions {
  /** gitmem home; default `GITMEM_HOME` or `~/.gitmem`. */
  home?: string;
  /** Agent id; default from the in-process context or the environment (SPEC §3.2). */
  agentId?: string;
  /** Environment to read (default `process.env`). */
  env?: Record<string, string | undefined>;
  git?: GitRunner;
  clock?: () => Date;
  /** Diagnostics / test seam: called after each durable step of a write (see memfs/edits.ts). */
  onWriteStep?: (step: WriteStep) => void;
  /** Commit author; default `<agent name> <agentId@gitmem.local>`. */
  author?: Partial<Identity>;
  /** How git processes start (ignored when `git` is given); see shell-launcher.ts. */
  launch?: Launcher;
}

export interface MemoryStatus {
  memoryDir: string;
  head: string | null;
  branch: string | null;
  dirty: boolean;
  changes: Array<{ code: string; path: string }>;
  upstream: string | null;
  ahead: number;
  behind: number;
}

/** A handle on one agent's memory repository (the read side: read/handle.ts). */
export interface Memory extends MemoryReadApi {
  readonly agentId: string | undefined;
  readonly home: string;
  readonly memoryDir: string;
  readonly git: GitRunner;
  /** What opening repaired in the hooks (see ensureHooks); empty when all was well. */
  readonly hookRepairs: readonly string[];
  /** Runs one memory-tool call (SPEC §4) → one commit. */
  tool(call: unknown): Promise<WriteResult>;
  /** Runs one memory_apply_patch call (`{ patch | input, reason }`) → one commit. */
  applyPatch(call: { patch?: string; input?: string; reason: string }): Promise<WriteResult>;
  /**
   * Compiles the system prompt from the committed HEAD (never the working tree). The mode defaults to
   * {@link Memory.defaultPromptMode}.
   */
  compilePrompt(options?: { mode?: MemoryMode; preset?: string }): Promise<string>;
  /** `memfs` while the repository has a remote (`origin`) to sync with, else `local-memfs`. */
  defaultPromptMode(): MemoryMode;
  /** The memory tree (paths + descriptions) at HEAD. */
  tree(): Promise<string>;
  /**
   * Ranked hits for `query` in the memory committed at `at` (default HEAD): full text (BM25), or semantic /
   * hybrid with embeddings configured. The index lives under the git dir and follows every commit.
   */
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  log(options?: { limit?: number }): Promise<LogEntry[]>;
  status(): Promise<MemoryStatus>;
  /**
   * Replaces system/persona.md with a preset's, and system/human.md while it holds only a starter or preset
   * text (else WOULD_DISCARD_EDITS unless `force`); one commit whose message says what was replaced.
   */
  applyPersonality(id: string, options?: { reason?: string; force?: boolean }): Promise<WriteResult>;
}

// git's own estimate (gc.auto 6700 loose objects): more than 6700/256 entries in the objects/17 fan-out.
const LOOSE_IN_17_BEFORE_GC = 27;

/** Plumbing commits never trigger git's `gc --auto`; ask for it (in the background) once git would want it. */
function gcIfDue(git: GitRunner, memoryDir: string): void {
  try {
    const sample = readdirSync(join(resolveGitCommonDir(memoryDir), 'objects', '17')).length;
    if (sample > LOOSE_IN_17_BEFORE_GC) git.detach(['gc', '--auto', '--quiet'], { cwd: memoryDir });
  } catch {
    // no objects/17 yet: nothing to pack
  }
}

/** gitmem home from an option, `GITMEM_HOME`, or `~/.gitmem` (an empty option is INVALID_ARGUMENT). */
export function resolveHome(home: string | undefined, env: Record<string, string | undefined>): string {
  return gitmemHome(home, env, process.cwd());
}

/**
 * The memory directory these options name (the default-agent rule of memfs/scope.ts), checked to be a
 * repository: HOME_UNUSABLE, MEMORY_DIR_MISSING or NOT_A_GIT_REPO otherwise.
 * @example openMemoryDir({ home: '/tmp/gm' }) // '/tmp/gm/agents/<the only agent>/memory'
 */
export function openMemoryDir(options: Pick<MemoryOptions, 'home' | 'agentId' | 'env'> = {}): { memoryDir: string; agentId: string | undefined; home: string } {
  const env = options.env ?? process.env;
  const home = resolveHome(options.home, env);
  const scope = resolveScope({ home, agentId: options.agentId, env });
  const memoryDir = scope.memoryDir;
  if (!existsSync(memoryDir)) {
    if (scope.source !== 'env-dir') assertHomeUsable(home);
    throw new MemoryError('MEMORY_DIR_MISSING', `memory directory does not exist: ${memoryDir} (run \`gitmem init\`)`, { data: { memoryDir } });
  }
  if (!existsSync(join(memoryDir, '.git'))) {
    throw new MemoryError('NOT_A_GIT_REPO', `${memoryDir} is not a git repository; gitmem needs a git-backed memory directory`, { data: { memoryDir } });
  }
  return { memoryDir, agentId: scope.agentId, home };
}

/** The agent id and display name `init` recorded in the repo config (read as text: no git process). */
function identityFromConfig(memoryDir: string): { agentId?: string; name?: string } {
  try {
    const config = readFileSync(join(memoryDir, '.git', 'config'), 'utf8');
    const agentId = /\[gitmem\][^[]*?agentId\s*=\s*(\S+)/i.exec(config)?.[1];
    const name = /\[user\][^[]*?name\s*=\s*([^\n]+)/i.exec(config)?.[1]?.trim().replace(/^"(.*)"$/, '$1');
    return { ...(agentId ? { agentId } : {}), ...(name ? { name } : {}) };
  } catch {
    return {};
  }
}

/** True when the repo config names an `origin` (read as text: no git process). */
function remoteConfigured(memoryDir: string): boolean {
  try {
    return /^\s*\[remote\s+"origin"\]/m.test(readFileSync(join(memoryDir, '.git', 'config'), 'utf8'));
  } catch {
    return false;
  }
}

function mirrorConfigured(memoryDir: string): boolean {
  try {
    return isMirrorConfigured(readFileSync(join(memoryDir, '.git', 'config'), 'utf8'));
  } catch {
    return false;
  }
}

function authorFor(
  agentId: string | undefined,
  env: Record<string, string | undefined>,
  given?: Partial<Identity>,
  recordedName?: string,
): Identity {
  const id = agentId ?? 'agent';
  const name = given?.name ?? (env['GITMEM_AGENT_NAME']?.trim() || env['AGENT_NAME']?.trim() || recordedName || id);
  return { name, email: given?.email ?? `${id}@gitmem.local` };
}

/**
 * Opens an agent's memory. Throws MEMORY_DIR_MISSING / NOT_A_GIT_REPO when there is none (use initMemory);
 * installs or repairs the hooks on open.
 * @example const memory = await createMemory({ home: '/tmp/gm', agentId: 'a1' }); await memory.tool(call)
 */
export async function createMemory(options: MemoryOptions = {}): Promise<Memory> {
  const env = options.env ?? process.env;
  const { memoryDir, home, agentId: scopeAgent } = openMemoryDir(options);
  const git = options.git ?? createGitRunner({ env, ...(options.launch ? { launch: options.launch } : {}) });
  const { repaired } = await ensureHooks(git, memoryDir);
  await recordProtection(git, memoryDir);
  const recorded = identityFromConfig(memoryDir);
  const agentId = scopeAgent ?? recorded.agentId;
  const deps: WriteDeps = {
    git,
    memoryDir,
    author: authorFor(agentId, env, options.author, recorded.name),
    lease: (fn) => withMemoryOperation(memoryDir, fn, { purpose: 'memory tool write' }),
    systemBudget: () => readSystemBudget(memoryDir, home),
    durable: durableWrites(resolveGitCommonDir(memoryDir), env),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.onWriteStep ? { onStep: options.onWriteStep } : {}),
    afterCommit: (commit) => {
      keepProtectionMarker(memoryDir, commit);
      // The hook's push runs in its own process: tell it which home's credentials this memory uses.
      if (mirrorConfigured(memoryDir)) firePostCommitHook(memoryDir, { ...env, GITMEM_HOME: home });
      gcIfDue(git, memoryDir);
    },
  };
  return buildMemory({ deps, home, agentId, env, hookRepairs: repaired });
}

/**
 * A tool commit passed the validator, which refuses every new read_only file: it protects what its parent
 * did, so the protected list's marker may follow it (the next open then scans nothing). Runs under the lease.
 */
function keepProtectionMarker(memoryDir: string, commit: string): void {
  const object = readLooseObject(join(resolveGitCommonDir(memoryDir), 'objects'), commit);
  if (object?.type !== 'commit') return;
  const parent = /^parent ([0-9a-f]{64}|[0-9a-f]{40})$/m.exec(object.data.toString('latin1'))?.[1] ?? null;
  noteValidatedCommit(memoryDir, parent, commit);
}

function buildMemory(o: { deps: WriteDeps; home: string; agentId: string | undefined; env: Record<string, string | undefined>; hookRepairs: string[] }): Memory {
  const reads = readApi(o.deps, o.agentId);
  const deps: WriteDeps = { ...o.deps, view: async (args) => viewCall(reads, args) };
  const { git, memoryDir } = deps;
  return {
    ...reads,
    agentId: o.agentId,
    hookRepairs: o.hookRepairs,
    home: o.home,
    memoryDir,
    git,
    tool: (call) => runMemoryTool(deps, call),
    applyPatch: async (call) => (await import('./memfs/apply-patch/run.js')).runApplyPatch(deps, call),
    defaultPromptMode: () => (remoteConfigured(memoryDir) ? 'memfs' : 'local-memfs'),
    compilePrompt: async (opts = {}) => {
      // Loaded on demand: prompt/tree rendering is not on the write path (keeps CLI writes fast).
      const { readPrompt } = await import('./memfs/prompt-read.js');
      const mode = opts.mode ?? (remoteConfigured(memoryDir) ? 'memfs' : 'local-memfs');
      return readPrompt(git, memoryDir, { ...opts, mode, treeLimits: resolveTreeLimits(o.env), ...(o.agentId ? { agentId: o.agentId } : {}) });
    },
    tree: async () => (await import('./memfs/prompt-read.js')).readTree(git, memoryDir, resolveTreeLimits(o.env)),
    // The search engine (and its native module) loads on the first search, never with gitmem itself.
    search: async (query, opts) => (await import('./search/search.js')).searchMemory({ git, memoryDir, home: o.home, env: o.env }, query, opts),
    log: (opts = {}) => git.exec(logOp(opts.limit ?? 20), { cwd: memoryDir }).catch((err) => {
      if (/does not have any commits|bad default revision/i.test(String((err as Error).message))) return [];
      throw err;
    }),
    status: async () => toStatus(memoryDir, await git.exec(statusOp('all'), { cwd: memoryDir, env: { ...READ_ONLY_STATUS_ENV } })),
    applyPersonality: async (id, opts = {}) => (await import('./memfs/personality.js')).applyPersonality(deps, id, opts),
  };
}

/** The memory tool's `view` command: the view text, as the message too (nothing is committed). */
async function viewCall(reads: MemoryReadApi, args: Record<string, unknown>): Promise<WriteResult> {
  const path = args['file_path'];
  if (path !== undefined && typeof path !== 'string') throw new MemoryError('INVALID_PATH', "memory view: 'file_path' must be a string", { data: { field: 'file_path' } });
  const v = await reads.view(path, args['view_range'] === undefined ? {} : { range: args['view_range'] as [number, number] });
  return { commit: v.commit, paths: [], message: v.text, view: v.text };
}

function toStatus(memoryDir: string, s: RepoStatus): MemoryStatus {
  const changes = s.entries.map((e) => ({ code: e.code, path: e.path }));
  return { memoryDir, head: s.head, branch: s.branch, dirty: changes.length > 0, changes, upstream: s.upstream, ahead: s.ahead, behind: s.behind };
}

export interface InitOptions extends Omit<MemoryOptions, 'agentId'> {
  /** Default: the rule of memfs/scope.ts resolveInitAgent (… → the home's only agent → `default`). */
  agentId?: string;
  /** Display name used as commit author. */
  name?: string;
  /** Personality preset for the starter persona/human texts. */
  personality?: string;
}

/**
 * Creates an agent's memory repository (or repairs the hooks of an existing one).
 * @example const r = await initMemory({ home: '/tmp/gm', agentId: 'a1' }); r.created === true
 */
export async function initMemory(options: InitOptions): Promise<InitResult> {
  const env = options.env ?? process.env;
  const home = resolveHome(options.home, env);
  const agentId = assertAgentId(resolveInitAgent({ home, agentId: options.agentId, env }));
  const git = options.git ?? createGitRunner({ env });
  const author = authorFor(agentId, env, { ...options.author, ...(options.name ? { name: options.name } : {}) });
  const { defaultMemoryFiles } = await import('./blocks/defaults.js');
  let files = defaultMemoryFiles();
  if (options.personality) {
    const { getPersonality } = await import('./blocks/personalities.js');
    const { composeMemoryFile } = await import('./blocks/replace-body.js');
    const p = getPersonality(options.personality);
    files = (['persona', 'human'] as const).map((n) => ({ path: `system/${n}.md`, content: composeMemoryFile({ description: p[n].description }, p[n].body) }));
  }
  const date = options.clock?.();
  prepareHome(home); // after every check of the arguments: a refused init creates nothing
  const result = await initMemoryRepo(git, { home, agentId, author, files, ...(date ? { date } : {}) });
  await recordProtection(git, result.memoryDir);
  return result;
}

export type { MemoryMode, PromptPreset } from './blocks/presets.js';
export { listPresets, MEMORY_MODES } from './blocks/presets.js';

/** The personality presets (loaded on demand). */
export async function listPersonalities(): Promise<Array<{ id: string; label: string; summary: string }>> {
  return (await import('./blocks/personalities.js')).listPersonalities();
}

/** Agents that have a memory repository under `home` (HOME_UNUSABLE when it is not a directory). */
export function listAgents(home: string): Array<{ agentId: string; memoryDir: string }> {
  return listHomeAgents(home);
}

/** Runs the pre-commit rules on the staged snapshot of the repo at `cwd` (what the hook does). */
export async function runPreCommitCheck(cwd: string, env: Record<string, string | undefined> = process.env): Promise<string[]> {
  return runPreCommit(createGitRunner({ env }), cwd, env);
}

/** The same check as {@link runPreCommitCheck}, as problems (each with its code, line, rule). */
export async function preCommitProblems(cwd: string, env: Record<string, string | undefined> = process.env): Promise<Problem[]> {
  return findPreCommitProblems(createGitRunner({ env }), cwd, env);
}
