/** Kept branches and proposals: work set aside after a conflict waits for a person (gitmem conflicts). */
import { listKeptBranches } from '../sync/conflicts.js';
import { listProposals } from '../conflicts/proposals.js';
import { ok, problem, type DoctorCheck } from './types.js';

export const keptCheck: DoctorCheck = {
  title: 'kept branches and proposals',
  async run(ctx) {
    const deps = { git: ctx.git, memoryDir: ctx.memoryDir };
    const kept = await listKeptBranches(deps);
    const proposals = await listProposals(deps);
    if (kept.length === 0 && proposals.length === 0) return ok('none waiting');
    const details = [
      ...kept.map((b) => `${b.branch}: ${b.commits} commit(s) not on main (gitmem conflicts show ${b.branch})`),
      ...proposals.map(
        (p) => `${p.proposal}: proposed resolution of ${p.branch} (gitmem conflicts accept ${p.proposal})`,
      ),
    ];
    return problem(`${kept.length} kept, ${proposals.length} proposal(s) waiting (gitmem conflicts)`, details);
  },
};
