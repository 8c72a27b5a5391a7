/** Drops a kept branch or a proposal; the tip is saved under refs/gitmem/backup/ first, so nothing is lost. */
import { withMemoryOperation } from '../git/lease.js';
import { dropKeptBranch } from '../sync/conflicts.js';
import { BACKUP_REF_PREFIX, createUniqueRef } from '../sync/refs.js';
import { PROPOSAL_PREFIX, requireProposal } from './proposals.js';
import { removeBranch } from './resolve.js';
import type { ConflictDeps } from './types.js';

/**
 * @example await dropBranchOrProposal(deps, 'gitmem/proposal/20260101T000000.000Z')
 */
export async function dropBranchOrProposal(
  deps: ConflictDeps,
  branch: string,
): Promise<{ branch: string; head: string; backupRef: string }> {
  const clock = deps.clock ?? (() => new Date());
  if (!branch.replace(/^refs\/heads\//, '').startsWith(PROPOSAL_PREFIX))
    return dropKeptBranch({ git: deps.git, memoryDir: deps.memoryDir, branch, clock });
  return withMemoryOperation(
    deps.memoryDir,
    async () => {
      const p = await requireProposal(deps, branch);
      const backupRef = await createUniqueRef(deps.git, deps.memoryDir, BACKUP_REF_PREFIX, clock(), p.commit);
      await removeBranch(deps, p.proposal, p.commit);
      return { branch: p.proposal, head: p.commit, backupRef };
    },
    { purpose: 'conflicts drop' },
  );
}
