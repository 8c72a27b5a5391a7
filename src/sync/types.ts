/**
 * The shapes shared by `gitmem sync` and the post-turn sync.
 */
import type { MemoryErrorCode } from '../errors.js';
import type { GitAuth, GitRetryPolicy, GitRunner } from '../git/runner.js';
import type { GitCredentials } from './credentials.js';

export type SyncStatus =
  'skipped' | 'conflict' | 'rejected' | 'dirty' | 'no_remote' | 'clean' | 'pushed' | 'push_failed';

import type { ConflictPolicy } from './conflict-policy.js';

/** What to do when integrating the remote hits a true conflict: the table in conflict-policy.ts. */
export type { ConflictPolicy } from './conflict-policy.js';

/** The outcome of a sync: a failure is a status here, never a throw. */
export interface SyncResult {
  status: SyncStatus;
  summary: string;
  memoryDir: string;
  /** True when the repo has no remote to sync with. */
  localOnly: boolean;
  /** Commits pushed by this run. */
  pushed: number;
  /** Remote commits integrated into main by this run. */
  pulled: number;
  conflictPaths?: string[];
  /** The branch holding local commits after a `keep-branch` conflict, or the remote's commits main refused (`rejected`). */
  keptBranch?: string;
  /** Set for `rejected`: the rules the remote's commits break, one `<path>: <problem>` line each. */
  problems?: string[];
  /** Where the previous main was saved before a recovery moved it. */
  backupRef?: string;
  /** Set for `push_failed`: the failure's stable code and redacted message. */
  error?: { code: MemoryErrorCode; message: string };
  /** With `sync.integrator = lease`: what this writer's turn at the integration lease did. */
  integration?: LeaseIntegration;
}

/**
 * A writer's turn at the integration lease (sync/integrate-lease.ts): `idle` (nothing to do, or someone else is
 * at it), `handed` (the holder was asked to merge this ref), or the end of the passes it ran as the holder.
 */
export interface LeaseIntegration {
  status: 'idle' | 'handed' | 'integrated' | 'clean' | 'deferred' | 'failed';
  /** The lease holder (`<agent>/<machine>/<nonce>`): this writer when it ran the passes. */
  holder?: string;
  summary: string;
  /** Commits pushed to main by the passes. */
  pushed?: number;
}

export interface SyncOptions {
  git: GitRunner;
  memoryDir: string;
  /** The configured home: its `config` holds the system/ budget incoming commits are held to (validate-move.ts). */
  home?: string | undefined;
  /** Used as given for every network command. Prefer `credentials`, which is scoped to origin's host. */
  auth?: GitAuth;
  credentials?: GitCredentials;
  onConflict?: ConflictPolicy;
  clock?: () => Date;
  signal?: AbortSignal;
  /** Retry policy for network commands (default: 3 attempts, 500 ms doubling). */
  retry?: GitRetryPolicy;
}
