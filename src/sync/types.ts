/**
 * The shapes shared by `gitmem sync` and the post-turn sync (SPEC A.7, extended).
 */
import type { MemoryErrorCode } from '../errors.js';
import type { GitAuth, GitRetryPolicy, GitRunner } from '../git/runner.js';
import type { GitCredentials } from './credentials.js';

export type SyncStatus = 'skipped' | 'conflict' | 'dirty' | 'no_remote' | 'clean' | 'pushed' | 'push_failed';

/**
 * What to do when integrating the remote hits a true conflict:
 * - `fail`: abort the rebase; main stays exactly as it was (local commits intact, unpushed); report it.
 * - `keep-branch`: keep the local commits on `gitmem/conflict/<time>`, move main to the remote; report it.
 * - `leave`: leave the rebase in progress for someone to resolve (the reference behaviour).
 */
export type ConflictPolicy = 'fail' | 'keep-branch' | 'leave';

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
  /** The branch holding local commits after a `keep-branch` conflict. */
  keptBranch?: string;
  /** Where the previous main was saved before a recovery moved it. */
  backupRef?: string;
  /** Set for `push_failed`: the failure's stable code and redacted message. */
  error?: { code: MemoryErrorCode; message: string };
}

export interface SyncOptions {
  git: GitRunner;
  memoryDir: string;
  /** Used as given for every network command. Prefer `credentials`, which is scoped to origin's host. */
  auth?: GitAuth;
  credentials?: GitCredentials;
  onConflict?: ConflictPolicy;
  clock?: () => Date;
  signal?: AbortSignal;
  /** Retry policy for network commands (default: 3 attempts, 500 ms doubling). */
  retry?: GitRetryPolicy;
}
