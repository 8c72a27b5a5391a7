/**
 * Orphan worktrees: a background writer's worktree whose process is gone. Repair: `worker prune` (what it
 * committed is imported first; a branch with unmerged work is kept).
 */
import { findOrphanWorktrees, pruneOrphanWorktrees } from '../worktree/prune.js';
import { ok, problem, type DoctorCheck } from './types.js';

export const worktreesCheck: DoctorCheck = {
  title: 'orphan worktrees',
  async run(ctx) {
    const orphans = findOrphanWorktrees({ memoryDir: ctx.memoryDir, git: ctx.git });
    return orphans.length === 0
      ? ok('no orphans')
      : problem(
          `${orphans.length} orphan(s) of writers that are gone`,
          orphans.map((o) => o.worktreeDir),
        );
  },
  async fix(ctx) {
    const r = await pruneOrphanWorktrees({ memoryDir: ctx.memoryDir, git: ctx.git });
    return r.pruned.map((p) => `pruned worktree ${p.name} (branch ${p.branch})`);
  },
};
