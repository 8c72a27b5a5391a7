/**
 * `memory.conflicts`: the kept branches of one repository and what ends them — list, show (with the diff),
 * drop, resolve (ours / theirs / given text), propose (a model's resolution on a proposal branch) and accept.
 * Each operation's module loads on first use.
 */
import type { KeptBranch } from '../sync/conflicts.js';
import type { ProposalInfo } from './proposals.js';
import type { ProposeOptions, ProposeResult } from './propose.js';
import type { Resolution } from './resolved-tree.js';
import type { ConflictDetail } from './show.js';
import type { ConflictDeps, ResolveResult } from './types.js';

export type { ConflictDeps, ResolveResult } from './types.js';
export type { Resolution } from './resolved-tree.js';
export type { ProposalInfo } from './proposals.js';
export type { ProposeOptions, ProposeResult } from './propose.js';
export type { ConflictDetail } from './show.js';

export interface MemoryConflicts {
  /** Kept branches (not proposals), with the files each changes. */
  list(): Promise<KeptBranch[]>;
  /** Proposed resolutions waiting for `accept`. */
  proposals(): Promise<ProposalInfo[]>;
  /** One kept branch: commits, its diff, the paths that conflict with main now and main's diff of them. */
  show(branch: string): Promise<ConflictDetail>;
  /** Deletes a kept branch (or a proposal); its tip stays reachable under refs/gitmem/backup/. */
  drop(branch: string): Promise<{ branch: string; head: string; backupRef: string }>;
  /**
   * One validated merge commit of main and the branch whose message is `reason`; the branch is removed after.
   * @example await memory.conflicts.resolve('gitmem/worker/w1', { take: 'theirs', reason: 'the worker saw the later fact' })
   */
  resolve(branch: string, options: Resolution & { reason: string }): Promise<ResolveResult>;
  /** A model's resolution on a new branch `gitmem/proposal/<time>`; main is not touched. */
  propose(branch: string, options?: ProposeOptions): Promise<ProposeResult>;
  /** What a harness shows the agent while kept branches or proposals wait (null when none). */
  reminder(): Promise<string | null>;
  /** Lands a proposal made on the current main (else PROPOSAL_STALE). */
  accept(proposal: string, options?: { reason?: string }): Promise<ResolveResult & { proposal: string }>;
}

function resolutionOf(o: Resolution & { reason: string }): Resolution {
  return 'take' in o ? { take: o.take } : { files: o.files };
}

/**
 * The conflicts API bound to one repository.
 * @example const c = conflictsApi({ git, memoryDir, author, home, env }); await c.list()
 */
export function conflictsApi(deps: ConflictDeps): MemoryConflicts {
  const { git, memoryDir } = deps;
  return {
    list: async () => (await import('../sync/conflicts.js')).listKeptBranches({ git, memoryDir }),
    proposals: async () => (await import('./proposals.js')).listProposals({ git, memoryDir }),
    show: async (branch) => (await import('./show.js')).showConflict({ git, memoryDir }, branch),
    drop: async (branch) => (await import('./drop.js')).dropBranchOrProposal(deps, branch),
    resolve: async (branch, o) =>
      (await import('./resolve.js')).resolveKeptBranch(deps, branch, resolutionOf(o), o.reason),
    propose: async (branch, o) => (await import('./propose.js')).proposeResolution(deps, branch, o),
    reminder: async () => {
      const [{ listKeptBranches }, { listProposals }, { conflictsReminder }] = await Promise.all([
        import('../sync/conflicts.js'),
        import('./proposals.js'),
        import('./reminder.js'),
      ]);
      return conflictsReminder(await listKeptBranches({ git, memoryDir }), await listProposals({ git, memoryDir }));
    },
    accept: async (proposal, o) => (await import('./accept.js')).acceptProposal(deps, proposal, o),
  };
}
