/**
 * The shapes of `gitmem defrag` as a library call: its options (everything injected: model, git, launcher,
 * environment) and its result, documented in docs/background.md ("Defragmentation: gitmem defrag").
 */
import type { LanguageModel } from 'ai';
import type { MemoryErrorCode } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import type { Launcher } from '../process/run.js';
import type { TreeLimits } from '../blocks/tree-limits.js';
import type { SubAgentLimits, SubAgentRun } from '../llm/sub-agent.js';
import type { GitCredentials } from '../sync/credentials.js';
import type { PreparedRefresh } from '../sync/refresh.js';
import type { MemoryWorktree } from '../worktree/create.js';
import type { ReflectionFinalizeStatus } from '../worktree/finalize-result.js';
import type { PreservationReport } from './defrag-preserve.js';

/** Options of {@link runDefrag}. */
export interface DefragOptions {
  home: string;
  agentId: string;
  model: LanguageModel;
  /** The environment the sub-agent's sandbox is built from. */
  env: Record<string, string | undefined>;
  git: GitRunner;
  /** Starts the sub-agent's confined commands (the handle's launcher). */
  launch: Launcher;
  /** Extra instruction for this run (e.g. "focus on project/"). */
  instruction?: string;
  /** Compute the diff (and the preservation check) the run would merge, then discard everything. */
  dryRun?: boolean;
  /** Merge even when the check finds lines that are nowhere any more (they are still reported). */
  allowDrops?: boolean;
  /** Replaces the system prompt (default: the defragmentation + memory-worker rules). */
  systemPrompt?: string;
  limits?: Partial<SubAgentLimits>;
  stream?: boolean;
  maxRetries?: number;
  /** As for reflection: how the parent is brought up to date before the merge; `false` merges locally. */
  refreshParent?: false | (() => Promise<PreparedRefresh>);
  credentials?: () => GitCredentials | undefined;
  treeLimits?: TreeLimits;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  onWarning?: (message: string) => void;
  /** Called after a merge changed memory (recompile the system prompt). */
  onRecompile?: () => void | Promise<void>;
  clock?: () => Date;
}

/** Finalize's outcomes, a dry run, and `content_dropped`: the check refused the run (branch kept). */
export type DefragStatus = ReflectionFinalizeStatus | 'dry_run' | 'content_dropped';

/** The outcome of one defragmentation. */
export interface DefragResult {
  /** Merged, nothing to change, or a dry run that found no drop (or `allowDrops`). */
  success: boolean;
  status: DefragStatus;
  message: string;
  agentId: string;
  branchName: string;
  commitCount: number;
  head?: string;
  branchKept?: boolean;
  conflictingPaths?: string[];
  /** What the content-preservation check found (absent when nothing was committed or imported). */
  preservation?: PreservationReport;
  /** Dry run: the diff that would have been merged. */
  diff?: string;
  /** Present exactly when something went wrong. */
  error?: { code: MemoryErrorCode; message: string };
  refreshError?: string;
  recompiled: boolean;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  steps: number;
  durationMs: number;
  model: string;
  /** The sub-agent's final report. */
  report: string;
}

/** A prepared run: its worktree and the two prompts. */
export interface PreparedDefrag {
  wt: MemoryWorktree;
  agentDir: string;
  system: string;
  prompt: string;
}

/** How the sub-agent ended. */
export interface DefragAgentEnd {
  run?: SubAgentRun;
  error?: { code: MemoryErrorCode; message: string };
  model: string;
  startedAt: Date;
  t0: number;
}
