/**
 * The shape of the front door: the `Memory` handle and the options of the functions that open one. Types
 * only; memory.ts builds the handle and re-exports these (the operations' own options and results:
 * operation-types.ts).
 */
import type { MemoryMode } from '../blocks/presets.js';
import type { PromptSurface } from '../blocks/prompt-surfaces.js';
import type { GitmemConfig } from '../config.js';
import type { GitRunner } from '../git/runner.js';
import type { Identity } from '../identity.js';
import type { WriteStep } from '../memfs/edits.js';
import type { LogEntry } from '../memfs/log.js';
import type { MigrateResult } from '../memfs/migrate.js';
import type { LayoutName } from '../blocks/layouts.js';
import type { OperatorWriteResult } from '../memfs/operator-write.js';
import type { WriteResult } from '../memfs/tool.js';
import type { Launcher } from '../process/run.js';
import type { MemoryReadApi } from '../read/handle.js';
import type { SharedApi } from './shared.js';
import type { DefragResult } from '../reflection/defrag-types.js';
import type { DreamResult } from '../reflection/dream-types.js';
import type { SandboxExecResult } from './shell.js';
import type { ReflectionHarness, ReflectionLaunch } from '../reflection/harness.js';
import type { SettingChange, SettingValue } from '../reflection/settings-store.js';
import type { SearchHit, SearchOptions } from '../search/types.js';
import type { MemoryConflicts } from '../conflicts/handle.js';
import type { MirrorPushResult } from '../sync/mirror.js';
import type { RemoteInfo } from '../sync/remote.js';
import type { RefMove } from '../git/commands/commit-graph.js';
import type { SyncResult } from '../sync/types.js';
import type { IntegrateWritersResult } from '../sync/integrate-writers.js';
import type { PruneResult } from '../worktree/prune.js';
import type { MemoryWorkerHandle } from '../worktree/worker.js';
import type { MemoryWorkerOutcome } from '../worktree/worker-types.js';
import type {
  MemoryDefragOptions,
  MemoryDreamOptions,
  MemoryReflectionOptions,
  MemoryReflectionSelection,
  MemorySandboxExecOptions,
  MemorySettingsOptions,
  MemoryStatus,
  MemorySyncOptions,
  MirrorSetResult,
  MirrorStatus,
  WorkerTask,
} from './operation-types.js';

/** Options of {@link createMemory}. */
export interface MemoryOptions {
  /** A configuration already read ({@link loadConfig}): wins over `home` and `env`. */
  config?: GitmemConfig;
  /** gitmem home; default `GITMEM_HOME` or `~/.gitmem`. */
  home?: string;
  /** Agent id; default from the in-process context or the environment (see memfs/scope.ts). */
  agentId?: string;
  /** Environment to read (default `process.env`): the configuration (config.ts), and what git is handed. */
  env?: Record<string, string | undefined>;
  /** A runner to use instead of the one this handle would wire (tests, an embedding with its own). */
  git?: GitRunner;
  clock?: () => Date;
  /** Diagnostics / test seam: called after each durable step of a write (see memfs/edits.ts). */
  onWriteStep?: (step: WriteStep) => void;
  /** Commit author; default `<agent name> <agentId@gitmem.local>` (see identity.ts). */
  author?: Partial<Identity>;
  /**
   * How child processes start: git (unless `git` is given) and the background writers' sandboxes. Default:
   * the process-wide shell launcher (shell-launcher.ts), so a call costs the same whatever the size of this
   * process's heap.
   */
  launch?: Launcher;
  /**
   * Watch the work tree so a write's clean check costs what changed, not the repository's size (default
   * true; it starts at this process's second write, in repos of about 5,000 files or more, and falls back to
   * the full `git status` whenever it cannot vouch for what it saw). false: every check walks the tree.
   */
  watchWorkTree?: boolean;
}

/** A handle on one agent's memory repository: every operation a harness needs. */
export interface Memory extends MemoryReadApi {
  readonly agentId: string | undefined;
  readonly home: string;
  readonly memoryDir: string;
  /** What opening repaired in the hooks (see ensureHooks); empty when all was well. */
  readonly hookRepairs: readonly string[];
  /** Runs one memory-tool call → one commit whose message is its reason. */
  tool(call: unknown): Promise<WriteResult>;
  /** Shared memory repositories of the home and this agent's attachments (docs/sync.md#shared-memory-repositories). */
  shared: SharedApi;
  /** Runs one memory_apply_patch call (`{ patch | input, reason }`) → one commit. */
  applyPatch(call: { patch?: string; input?: string; reason: string }): Promise<WriteResult>;
  /**
   * Replaces system/persona.md with a preset's, and system/human.md while it holds only a starter or preset
   * text (else WOULD_DISCARD_EDITS unless `force`); one commit whose message says what was replaced.
   */
  applyPersonality(id: string, options?: { reason?: string; force?: boolean }): Promise<WriteResult>;
  /**
   * Compiles the system prompt from the committed HEAD (never the working tree); mode: {@link Memory.defaultPromptMode}.
   * `surface` words it for the tools the model has: `shell` (default: `$MEMORY_DIR`, file tools, git), `tools`
   * (gitmem's memory tools only: MCP, AI SDK) or `anthropic` (Anthropic's memory tool, `/memories`).
   * `maxChars` compiles a harness's session context instead (what `gitmem hook … session-start` answers): the
   * memory phrased as facts, the `system/` blocks that fit plus the tree, never longer than `maxChars`;
   * `notice`, a line it must carry. `template`, the caller's own raw prompt in place of the preset's: every
   * `{CORE_MEMORY}` becomes the memory, else the memory follows it after a blank line (not with preset or maxChars).
   */
  compilePrompt(options?: {
    mode?: MemoryMode;
    preset?: string;
    surface?: PromptSurface;
    maxChars?: number;
    notice?: string;
    /** Whose `.skills/` and `.claude/skills/` the skills block lists too (default: no project's). */
    projectDir?: string;
    /** false: memory's own skills only (no project, configured or user skill roots). */
    skillRoots?: boolean;
    template?: string;
  }): Promise<string>;
  /** `memfs` while the repository has a remote (`origin`) to sync with, else `local-memfs`. */
  defaultPromptMode(): MemoryMode;
  /** The memory tree (paths + descriptions) at HEAD. */
  tree(): Promise<string>;
  /** Ranked hits for `query` in the memory committed at `at` (default HEAD); the index follows every commit. */
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  log(options?: { limit?: number }): Promise<LogEntry[]>;
  status(): Promise<MemoryStatus>;
  /** Pull (fast-forward, else rebase), then push; a failure is an outcome, not a throw. */
  sync(options?: MemorySyncOptions): Promise<SyncResult>;
  /**
   * `sync.mode = writer-refs`: one integration round — writer refs validated and merged into main, main pushed
   * at the configured rate (sync/integrate-writers.ts). `stop` ends a wait for a push slot (the round then ends
   * `deferred`, its merges undone) without cutting a git command short.
   */
  integrate(options?: MemorySyncOptions & { stop?: AbortSignal }): Promise<IntegrateWritersResult>;
  /** What a harness runs after each turn: push what is new, report a conflict or a dirty tree, never block. */
  syncAfterTurn(options?: MemorySyncOptions): Promise<SyncResult>;
  /** The sync remote (`origin`; never a URL with a token in it). */
  readonly remote: {
    set(url: string, options?: { baseDir?: string }): Promise<RemoteInfo>;
    show(): Promise<RemoteInfo>;
    remove(): Promise<{ removed: string | null }>;
    /** How main's upstream moved lately (its reflog: fetches, pushes), newest first; `limit` default 10. */
    moves(options?: { limit?: number }): Promise<RefMove[]>;
  };
  /** A push-only mirror of main, pushed after each commit in the background. */
  readonly mirror: {
    set(url: string, options?: { baseDir?: string }): Promise<MirrorSetResult>;
    push(): Promise<MirrorPushResult>;
    status(): Promise<MirrorStatus>;
    unset(): Promise<{ removed: string | null }>;
  };
  /**
   * Branches that keep local commits after a conflict (sync keep-branch, background writers), and what ends
   * them: list, show (with the diff), drop, resolve, propose, accept, and a reminder for the harness.
   */
  readonly conflicts: MemoryConflicts;
  /**
   * The protected list (paths seen committed as read_only, which no agent write may change) and the operator's
   * actions on it. None of these is a tool of the agent's.
   */
  readonly protection: {
    list(): Promise<string[]>;
    add(paths: readonly string[]): Promise<string[]>;
    remove(paths: readonly string[]): Promise<string[]>;
    /**
     * An operator creates or replaces a file with its whole new `text`, read_only or listed included: one commit
     * whose message is `reason`, authored by the operator (`author`, else GIT_AUTHOR_*, else the user's git
     * configuration, else `gitmem operator <operator@gitmem.local>`), never by the agent. Every other rule holds
     * (paths, links, format, secrets, budgets). A read_only text puts the path on the protected list; a path
     * already on it stays there (`remove` lifts it).
     */
    write(
      path: string,
      text: string,
      options: { reason: string; author?: Partial<Identity> },
    ): Promise<OperatorWriteResult>;
  };
  /** Runs a background writer to its outcome (merged, no_changes, merge_conflict, rejected, discarded). */
  runWorker(task: WorkerTask): Promise<MemoryWorkerOutcome>;
  /** Starts a background writer and returns at once: its outcome promise and a cancel. */
  startWorker(task: WorkerTask): MemoryWorkerHandle;
  /** Removes the worktrees of workers whose process is gone (a branch with new commits is kept). */
  pruneWorkers(): Promise<PruneResult>;
  /**
   * With a selection, one reflection over several conversations now (`{ recent: 5 }`, `{ conversations: [...] }`,
   * `{ auto: true }`; `gitmem dream --recent|--conversation|--auto` as a call), queued behind a running one.
   * @example const r = await memory.reflection({ recent: 5 }).done
   */
  reflection(options: MemoryReflectionOptions & MemoryReflectionSelection): ReflectionLaunch;
  /** The reflection harness of this agent: recordTurn, onTurnEnd, onCompaction, reflectNow, reflectMany, idle. */
  reflection(options?: MemoryReflectionOptions): ReflectionHarness;
  /** One reflection by hand: over a stored conversation or an external transcript, optionally a document. */
  dream(options?: MemoryDreamOptions): Promise<DreamResult>;
  /**
   * Restructures memory with the defragmentation sub-agent in a private worktree and merges it, unless it
   * deleted a line that is nowhere any more (`content_dropped`, branch kept) or `dryRun` (the diff only).
   */
  defrag(options?: MemoryDefragOptions): Promise<DefragResult>;
  /**
   * Moves the repository to the other layout in one commit (`gitmem migrate`; docs/memory.md#migrating-between-layouts):
   * staged in a temporary index, validated by the target layout, landed only if main did not move; `dryRun`: the diff only.
   */
  migrate(options: { layout: LayoutName; dryRun?: boolean }): Promise<MigrateResult>;
  /**
   * Runs `command` (argv, no shell) as this agent's own shell with every other agent's memory hidden
   * (opt-in: GITMEM_SHELL_SANDBOX=1 or the config file's `sandbox.shell`; SANDBOX_OFF otherwise,
   * SANDBOX_UNAVAILABLE without a kernel sandbox). Never throws for a non-zero exit.
   */
  sandboxExec(command: string[], options?: MemorySandboxExecOptions): Promise<SandboxExecResult>;
  /**
   * The settings `gitmem config` edits, by dotted key (`reflection.stepCount`, `reflection.trigger`, `model`…),
   * checked against one schema. `scope`: `global` (default for set/unset), `project` (`<projectDir>/.gitmem/
   * config.json`, projectDir default the process's cwd) or `agent` (this agent's entry in the project file).
   * `get` without a scope answers the effective value, every scope applied in order.
   */
  readonly settings: {
    get(key: string, options?: MemorySettingsOptions): Promise<SettingValue>;
    set(key: string, value: unknown, options?: MemorySettingsOptions): Promise<SettingChange>;
    unset(key: string, options?: MemorySettingsOptions): Promise<SettingChange>;
  };
}
