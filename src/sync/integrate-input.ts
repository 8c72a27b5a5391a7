/**
 * What bringing origin's main into local main takes and gives (IntegrateInput, IntegrateResult, FetchOutcome)
 * and the runner options an input implies. Apart from integrate.ts so the syncs that build an input (sync,
 * refresh, writer refs, the lease) share the contract without importing the integration itself.
 */
import { NETWORK_RETRY, type GitAuth, type GitRetryPolicy, type GitRunner } from '../git/runner.js';
import type { ConflictPolicy } from './conflict-policy.js';
import type { IncomingRejection } from './incoming.js';
import type { TrackingUpdate } from './quick-relation.js';

export const REMOTE_MAIN = 'refs/remotes/origin/main';

export interface IntegrateInput {
  git: GitRunner;
  memoryDir: string;
  /** The configured home: its `config` holds the system/ budget incoming commits are held to (validate-move.ts). */
  home?: string | undefined;
  auth: GitAuth | undefined;
  /** origin's URL, named in error messages (an SSH host to add, a host name that does not resolve). */
  remoteUrl?: string;
  onConflict: ConflictPolicy;
  clock: () => Date;
  signal: AbortSignal | undefined;
  retry: GitRetryPolicy | undefined;
}

export interface IntegrateResult {
  outcome: 'remote_empty' | 'up_to_date' | 'fast_forward' | 'rebased' | 'conflict' | 'rejected';
  /** Remote commits now in main. */
  pulled: number;
  /** Local commits on main not on the remote, after integration. */
  ahead: number;
  conflictPaths?: string[];
  keptBranch?: string;
  backupRef?: string;
  /** With `rejected`: the remote tip that breaks the memory rules (main did not move). */
  rejection?: IncomingRejection;
}

/** What a fetch of origin's main found. */
export interface FetchOutcome {
  /** False when the remote has no main yet. */
  found: boolean;
  /** The fetch's own report of how refs/remotes/origin/main moved. */
  update: TrackingUpdate;
}

/** Runner options for this repo; `network` adds auth and the retry policy. */
export function runOpts(
  input: Pick<IntegrateInput, 'memoryDir' | 'signal'> & Partial<Pick<IntegrateInput, 'auth' | 'retry' | 'remoteUrl'>>,
  network = false,
): { cwd: string; signal?: AbortSignal; auth?: GitAuth; retry?: GitRetryPolicy; remote?: string } {
  return {
    cwd: input.memoryDir,
    signal: input.signal,
    auth: network ? input.auth : undefined,
    ...(network && input.remoteUrl ? { remote: input.remoteUrl } : {}),
    ...(network ? { retry: input.retry ?? NETWORK_RETRY } : {}),
  };
}
