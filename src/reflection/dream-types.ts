/**
 * The shapes of `gitmem dream` as a library call: its options and its one-line JSON result (documented in
 * docs/background.md), plus its exit-code rule (dreamExitCode).
 */
import type { LanguageModel } from 'ai';
import type { MemoryErrorCode } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import type { Launcher } from '../process/run.js';
import type { TreeLimits } from '../blocks/tree-limits.js';
import type { SubAgentLimits } from '../llm/sub-agent.js';
import type { GitCredentials } from '../sync/credentials.js';
import type { MultiManifest, MultiSlice } from './multi-payload.js';
import type { ReflectionCompleted, ReflectionStatus } from './run-types.js';
import type { ReflectionMergeMode } from './settings.js';

/** Default wall-clock limit of a dream, in seconds. */
export const DREAM_TIMEOUT_SECONDS = 1_500;

/**
 * Options of one dream, everything wired in (memory.ts fills the wiring for `runDream` and `memory.dream`).
 */
export interface DreamOptions {
  home: string;
  /** `--memory`; else the default-agent rule (memfs/scope.ts) over `configuredAgent` and the home's agents. */
  agentId?: string;
  /** The agent the configuration names (config.ts `agent`), for the default-agent rule. */
  configuredAgent?: { id?: string; memoryDir?: string };
  /** The environment the sub-agent's sandbox is built from (and provider keys looked up in). */
  env: Record<string, string | undefined>;
  /** Base for relative `--from` / `--to` paths. */
  cwd: string;
  /** Conversation id or `<type>:<path>`; default `default`. */
  from?: string;
  /** Reflect over the N most recently written conversations (one of recent / conversations / auto). */
  recent?: number | string;
  /** Reflect over these: conversation ids or `<type>:<path>` sources (staged first). */
  conversations?: string[];
  /** Let a selector model pick up to five conversations from a scored catalogue. */
  auto?: boolean;
  /** The conversation the caller is in (a bonus in the `auto` catalogue). */
  currentConversation?: string;
  /** Total characters of a multi run's slices (default 150,000; the first slice is always kept). */
  multiBudgetChars?: number;
  to?: string;
  instruction?: string;
  /** A `provider:model` spec (else GITMEM_MODEL / config), or a model instance (tests, embedding). */
  model?: string | LanguageModel;
  /** Turns the spec (or none: the configured model) into a model, after the options were checked. */
  resolveModel?: (spec: string | undefined) => Promise<LanguageModel>;
  /** Opens the agent's memory for the `--to` sync-in (without it the document is not synced in first). */
  openMemory?: (agentId: string) => Promise<{ tool(call: unknown): Promise<unknown> }>;
  /** Passed to the reflection run (see ReflectionRunOptions). */
  credentials?: () => GitCredentials | undefined;
  treeLimits?: TreeLimits;
  /** Seconds; a string is parsed like the CLI flag (integer prefix). */
  timeoutSeconds?: number | string;
  dryRun?: boolean;
  /** Default: the resolved reflection settings' merge mode. */
  merge?: ReflectionMergeMode;
  /** Replace the task message / the system prompt. */
  prompt?: string;
  system?: string;
  git: GitRunner;
  /** Starts the sub-agent's confined commands (the handle's launcher, wired by the composition root). */
  launch: Launcher;
  /** Stream model output (default true). */
  stream?: boolean;
  maxRetries?: number;
  limits?: Partial<SubAgentLimits>;
  onProgress?: (line: string) => void;
  onWarning?: (message: string) => void;
}

/** What went wrong, when something did: a stable code and one line. */
export interface DreamError {
  code: MemoryErrorCode;
  message: string;
  /** Extra detail of an error thrown before the run (usage errors), as the error carried it. */
  data?: Record<string, unknown>;
}

/** The outcome of one dream (see dreamExitCode for the CLI's exit code). */
export interface DreamResult {
  launched: boolean;
  /** The outcome consumed the transcript (or a dry run finished) and any `--to` write succeeded. */
  success: boolean;
  message: string;
  agentId: string;
  conversationId?: string;
  /** Why nothing ran: `no_payload`, `parent_dirty`, `source_error`. */
  reason?: string;
  status?: ReflectionStatus;
  /** Set whenever the dream went wrong (not for `no_payload` or `pending_review`, which are outcomes). */
  error?: DreamError;
  timedOut?: true;
  /** The parent has a remote that could not be fetched before the merge, so the merge was local. */
  refreshError?: string;
  transcriptPath?: string;
  stagedEntries?: number;
  skippedEntries?: number;
  targetPath?: string;
  targetWritten?: boolean;
  targetError?: string;
  commitCount?: number;
  branchName?: string;
  branchKept?: boolean;
  conflictingPaths?: string[];
  lines?: { from: number; to: number };
  usage?: ReflectionCompleted['usage'];
  steps?: number;
  durationMs?: number;
  model?: string;
  diff?: string;
  snapshot?: ReflectionCompleted['snapshot'];
  /** A multi run: its manifest, its slices, what was left out, the `auto` catalogue. */
  manifestPath?: string;
  slices?: MultiSlice[];
  skippedConversations?: MultiManifest['skipped'];
  candidatesPath?: string;
}

/**
 * Exit status of a dream: 0 when it succeeded or there was nothing new to reflect on, else 1.
 * @example dreamExitCode({ launched: false, reason: 'no_payload', success: false, message: '', agentId: 'a' }) === 0
 */
export function dreamExitCode(r: DreamResult): 0 | 1 {
  if (!r.launched) return r.reason === 'no_payload' ? 0 : 1;
  return r.success && r.targetError === undefined ? 0 : 1;
}
