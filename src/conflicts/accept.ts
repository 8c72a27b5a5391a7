/**
 * `gitmem conflicts accept <proposal>`: lands a proposal as one validated commit on main (validated again:
 * the protected list, the allow list or the budget may have changed since), then removes the kept branch
 * and the proposal, each only if it still points where it did. A proposal made on an older main is stale.
 */
import { MemoryError } from '../errors.js';
import { withMemoryOperation } from '../git/lease.js';
import { resolveCommit } from '../worktree/inspect.js';
import { assertResolutionValid, commitTree, landCommit } from './land.js';
import { requireProposal } from './proposals.js';
import { mergeStages } from './resolved-tree.js';
import { checkReason, mainHead, removeBranch } from './resolve.js';
import type { ConflictDeps, ResolveResult } from './types.js';

/**
 * Accepts `proposal`; the commit's message is `reason` (default: says which proposal was accepted).
 * @example await acceptProposal(deps, 'gitmem/proposal/20260101T000000.000Z', { reason: 'read the diff; both facts kept' })
 */
export async function acceptProposal(
  deps: ConflictDeps,
  proposal: string,
  options: { reason?: string } = {},
): Promise<ResolveResult & { proposal: string }> {
  const reason = options.reason === undefined ? undefined : checkReason('conflicts accept', options.reason);
  return withMemoryOperation(
    deps.memoryDir,
    async () => {
      const p = await requireProposal(deps, proposal);
      const { git, memoryDir: cwd } = deps;
      const head = await mainHead(deps);
      const keptTip = await resolveCommit(git, cwd, `refs/heads/${p.branch}`);
      if (p.base !== head || keptTip !== p.branchHead) {
        throw new MemoryError(
          'PROPOSAL_STALE',
          `${p.proposal} was made on ${p.base !== head ? 'an older main' : `another tip of ${p.branch}`}; propose again (gitmem conflicts resolve ${p.branch} --propose)`,
          { data: { proposal: p.proposal, branch: p.branch } },
        );
      }
      const tree = (await git.run(['rev-parse', '--verify', `${p.commit}^{tree}`], { cwd })).stdout.trim();
      const message = `${reason ?? `Accept the proposed resolution of ${p.branch}`}\n\nAccepts ${p.proposal} (${p.commit}): resolves kept branch ${p.branch} (${p.branchHead}) into main.`;
      await assertResolutionValid(git, cwd, head, tree, message, deps.home);
      const conflicted = (await mergeStages(git, cwd, head, p.branchHead)).conflicts.map((c) => c.path);
      const commit = await commitTree(git, cwd, tree, [head, p.branchHead], message, deps.author);
      const changedPaths = await landCommit(git, cwd, head, commit, `gitmem: accept ${p.proposal}`);
      const branchRemoved = await removeBranch(deps, p.branch, p.branchHead);
      await removeBranch(deps, p.proposal, p.commit);
      return {
        proposal: p.proposal,
        branch: p.branch,
        head: p.branchHead,
        commit,
        conflicted,
        changedPaths,
        branchRemoved,
      };
    },
    { purpose: 'conflicts accept' },
  );
}
