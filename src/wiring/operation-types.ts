/**
 * The options and results of the `Memory` handle's operations (status, sync, mirror, workers, reflection,
 * dream, defrag, settings, the agent's shell). Types only; apart from types.ts so the handle's shape reads
 * as one interface.
 */
import type { LanguageModel } from 'ai';
import type { DefragOptions } from '../reflection/defrag-types.js';
import type { DreamOptions } from '../reflection/dream-types.js';
import type { ReflectionHarnessOptions, HarnessOutcome } from '../reflection/harness.js';
import type { SettingsScope } from '../reflection/settings-schema.js';
import type { MirrorPushResult, MirrorLogEntry } from '../sync/mirror.js';
import type { ConflictPolicy } from '../sync/types.js';
import type { MemoryWorkerBody, MemoryWorkerType } from '../worktree/worker-types.js';
import type { RunConfinedResult } from '../sandbox/run.js';
import type { SandboxExecOptions } from './shell.js';

/** The working tree as git sees it. */
export interface MemoryStatus {
  memoryDir: string;
  /** The repository's layout (`gitmem.layout`: `system` or `index`; docs/memory.md#layouts). */
  layout: 'system' | 'index';
  head: string | null;
  branch: string | null;
  dirty: boolean;
  changes: Array<{ code: string; path: string }>;
  upstream: string | null;
  ahead: number;
  behind: number;
}

/** Options of a sync. */
export interface MemorySyncOptions {
  /** What to do when the rebase meets a true conflict (default `keep-branch`; see CONFLICT_POLICIES). */
  onConflict?: ConflictPolicy;
  signal?: AbortSignal;
}

/** What `memory.mirror.set` did: the URL stored and the first push (none while main has no commit). */
export interface MirrorSetResult {
  url: string;
  initialPush: MirrorPushResult | null;
}

/** The mirror's URL, its last push and the recent push log. */
export interface MirrorStatus {
  url: string | null;
  logPath: string;
  last: MirrorLogEntry | null;
  log: string[];
}

/** A worker's task: what it is for, what it needs checked out, and its body — a confined command or a function. */
export type WorkerTask = {
  /** `update` (a private worktree, merged back; the default) or `repair` (the checkout itself, under the lease). */
  type?: MemoryWorkerType;
  /** Free text; recorded in the merge commit's body. */
  description?: string;
  /** Files or directories to check out besides `system/` and top-level files. */
  paths?: readonly string[];
  signal?: AbortSignal;
  /** Wall-clock limit of a command body, in ms. */
  timeoutMs?: number;
  onWarning?: (message: string) => void;
} & (
  | {
      /** Shell text run as `sh -c` confined by the sandbox in the worktree (it must commit its own work). */
      command: string;
      /** The command's captured output when it ends. */
      onOutput?: (result: RunConfinedResult) => void;
      /** Extra read-only paths the command may see. */
      readPaths?: string[];
    }
  | {
      /** A trusted in-process body (not confined): edits and commits in `ctx.worktreeDir`. */
      body: MemoryWorkerBody;
    }
);

/** Options of {@link Memory.reflection}: the harness of this memory's agent. */
export interface MemoryReflectionOptions {
  /** A model or a resolver (default: the configured model: `--model`, GITMEM_MODEL, the config file). */
  model?: LanguageModel | (() => Promise<LanguageModel>);
  projectDir?: string;
  settings?: ReflectionHarnessOptions['settings'];
  run?: ReflectionHarnessOptions['run'];
  onComplete?: (outcome: HarnessOutcome) => void;
}

/**
 * Which conversations one reflection covers when {@link Memory.reflection} is asked to run now: the N most
 * recent, an explicit list (ids or transcript sources such as `claude-code:FILE`), or a model's selection.
 */
export type MemoryReflectionSelection = (
  | { recent: number; conversations?: never; auto?: never }
  | { conversations: string[]; recent?: never; auto?: never }
  | { auto: true; recent?: never; conversations?: never }
) & { instruction?: string };

/** Options of {@link Memory.dream} (the agent is the handle's). */
export type MemoryDreamOptions = Omit<
  DreamOptions,
  | 'home'
  | 'agentId'
  | 'configuredAgent'
  | 'env'
  | 'git'
  | 'launch'
  | 'cwd'
  | 'resolveModel'
  | 'openMemory'
  | 'credentials'
  | 'treeLimits'
> & {
  /** Base for relative `from` / `to` paths (default: the process's directory). */
  cwd?: string;
};

/** Options of {@link Memory.defrag} (the agent, wiring and model resolution are the handle's). */
export type MemoryDefragOptions = Pick<
  DefragOptions,
  'instruction' | 'dryRun' | 'allowDrops' | 'systemPrompt' | 'limits' | 'stream' | 'maxRetries' | 'signal'
> &
  Partial<Pick<DefragOptions, 'refreshParent' | 'onProgress' | 'onWarning' | 'onRecompile'>> & {
    /** A `provider:model` spec or a model instance (default: GITMEM_MODEL, then the config file's `model`). */
    model?: string | LanguageModel;
  };

/** Where `memory.settings` reads and writes. */
export interface MemorySettingsOptions {
  scope?: SettingsScope;
  /** The project directory (default `process.cwd()`). */
  projectDir?: string;
  /** The agent of the `agent` scope and of the effective value (default the handle's agent). */
  agentId?: string;
}

/** Options of {@link Memory.sandboxExec} (the agent, its memory and the configuration are the handle's). */
export type MemorySandboxExecOptions = Pick<SandboxExecOptions, 'cwd' | 'input' | 'timeoutMs' | 'signal'>;
