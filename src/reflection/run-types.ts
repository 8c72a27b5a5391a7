/**
 * The shapes of one reflection run: its options (everything injected: model, git, environment, clock) and
 * its result — skipped before anything was created, or completed with an outcome.
 */
import type { LanguageModel } from 'ai';
import type { MemoryErrorCode } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import type { Launcher } from '../process/run.js';
import type { TreeLimits } from '../blocks/tree-limits.js';
import type { SubAgentLimits } from '../llm/sub-agent.js';
import type { GitCredentials } from '../sync/credentials.js';
import type { PreparedRefresh } from '../sync/refresh.js';
import type { ReflectionFinalizeStatus } from '../worktree/finalize-result.js';
import type { MultiPayload } from './multi-payload.js';
import type { ReflectionMergeMode } from './settings.js';
import type { ParentSnapshot } from './snapshot.js';
import type { ReflectionTriggerSource } from './triggers.js';

/** What an explicit-merge integrator receives (it merges the branch into the parent itself). */
export interface PendingIntegration {
  parentMemoryDir: string;
  worktreeDir: string;
  branchName: string;
  baseHead: string;
  commitCount: number;
  mergeInstructions: string;
}

/** Phases reported while a run progresses (for progress lines). */
export type ReflectionPhase = 'preparing' | 'reflecting' | 'step' | 'finalizing' | 'done';

export interface ReflectionProgress {
  phase: ReflectionPhase;
  message: string;
}

/** Options of {@link runReflection}. */
export interface ReflectionRunOptions {
  home: string;
  agentId: string;
  conversationId: string;
  model: LanguageModel;
  env: Record<string, string | undefined>;
  git: GitRunner;
  /** Starts the sub-agent's confined commands (the handle's launcher, wired by the composition root). */
  launch: Launcher;
  trigger?: ReflectionTriggerSource;
  /** `auto` merges here; `explicit` hands the branch to `integrate` or keeps it for review. */
  merge?: ReflectionMergeMode;
  mergeInstructions?: string;
  integrate?: (pending: PendingIntegration) => Promise<void>;
  instruction?: string;
  /**
   * A reflection over several conversations (multi-payload.ts): its manifest replaces the single
   * conversation's payload, the parent's dirtiness is caught at finalize rather than before, and on success
   * only `advance` moves (the unreflected slices; replays never do).
   */
  multi?: Pick<MultiPayload, 'payload' | 'reviewed' | 'advance'>;
  /** Replaces the system prompt (default: reflection + memory-worker rules). */
  systemPrompt?: string;
  /** Replaces the task message entirely (no snapshot is built). */
  taskPrompt?: string;
  limits?: Partial<SubAgentLimits>;
  stream?: boolean;
  maxRetries?: number;
  /**
   * How the parent is brought up to date with its remote before an auto merge (default: fetch origin with
   * {@link credentials}, then fast-forward or rebase under the lease); `false` merges locally.
   */
  refreshParent?: false | (() => Promise<PreparedRefresh>);
  /** The sync credentials, asked for when the parent is refreshed (the wiring passes config.credentials). */
  credentials?: () => GitCredentials | undefined;
  /** Print-only: compute the diff the run would merge, then discard everything. */
  dryRun?: boolean;
  snapshotBudget?: number;
  /** The tree caps of the snapshot's memory tree (the wiring passes config.treeLimits; default: the defaults). */
  treeLimits?: TreeLimits;
  signal?: AbortSignal;
  onProgress?: (p: ReflectionProgress) => void;
  /** Called after a merge changed memory (recompile the system prompt). */
  onRecompile?: () => void | Promise<void>;
  onWarning?: (message: string) => void;
  clock?: () => Date;
}

export type ReflectionSkipReason = 'parent_dirty' | 'no_payload';

export interface ReflectionSkipped {
  launched: false;
  reason: ReflectionSkipReason;
  conversationId: string;
  message: string;
}

/** Outcomes: finalize's six, plus a dry run and an explicit merge left for review. */
export type ReflectionStatus = ReflectionFinalizeStatus | 'dry_run' | 'pending_review';

export interface ReflectionCompleted {
  launched: true;
  status: ReflectionStatus;
  /** The transcript was consumed (merged or nothing to change) and the cursor moved. */
  success: boolean;
  message: string;
  conversationId: string;
  /** Transcript lines reviewed. */
  lines: { from: number; to: number };
  branchName: string;
  commitCount: number;
  head?: string;
  branchKept?: boolean;
  conflictingPaths?: string[];
  recompiled: boolean;
  recompileError?: string;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  steps: number;
  durationMs: number;
  model: string;
  /** The sub-agent's final report. */
  report: string;
  stoppedBy?: string;
  error?: string;
  /** The stable code of `error` (MODEL_ERROR, TIMEOUT for a limit, SYNC_CONFLICT, REFLECTION_FAILED, …). */
  errorCode?: MemoryErrorCode;
  /** Set when the parent has a remote that could not be fetched before the merge (the merge was local). */
  refreshError?: string;
  /** Dry run: the diff that would have been merged. */
  diff?: string;
  snapshot?: ParentSnapshot['stats'];
  payloadChars: number;
}

export type ReflectionResult = ReflectionSkipped | ReflectionCompleted;
