/** `gitmem hook pre-commit`: run the pre-commit rule set on the staged snapshot of the current repo. */
import { MemoryError } from '../../index.js';
import { formatProblem, problemCode } from '../../internals.js';
import { preCommitProblems } from '../../memory.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'hook',
  summary: 'run a gitmem hook by hand (pre-commit)',
  usage: 'Usage: gitmem hook pre-commit   (checks the staged changes of the repository in the current directory)',
  async run(ctx) {
    const found = await preCommitProblems(ctx.cwd, ctx.env);
    const problems = found.map(formatProblem);
    if (problems.length === 0) return ctx.print({ ok: true, problems }, 'pre-commit: ok'), 0;
    const list = problems.map((p) => `  ${p}`).join('\n');
    throw new MemoryError(problemCode(found), `the staged changes break the memory rules (${problems.length}):\n${list}`, { data: { problems } });
  },
};
