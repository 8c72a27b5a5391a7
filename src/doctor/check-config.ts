/**
 * Repository config as gitmem needs it: a work tree on branch `main`, the agent id init recorded, an author.
 * The large-repository settings init sets are advice (a clone of an existing memory lacks them; nothing breaks
 * without them). Reported, not repaired: which value is right is the owner's call.
 */
import { ok, problem, type DoctorCheck, type DoctorContext } from './types.js';

const EXPECTED: ReadonlyArray<{ key: string; want?: string; why: string; advice?: true }> = [
  { key: 'core.bare', want: 'false', why: 'memory needs a work tree' },
  { key: 'gitmem.agentId', why: 'init records the agent this repository belongs to' },
  { key: 'user.name', why: 'raw commits need an author' },
  { key: 'user.email', why: 'raw commits need an author' },
  { key: 'core.untrackedCache', want: 'true', why: 'keeps the clean check cheap in large repositories', advice: true },
  { key: 'core.splitIndex', want: 'true', why: 'keeps re-staging one path cheap in large repositories', advice: true },
];

async function configProblems(ctx: DoctorContext): Promise<{ out: string[]; advice: string[] }> {
  const cwd = ctx.memoryDir;
  const out: string[] = [];
  const advice: string[] = [];
  for (const e of EXPECTED) {
    const r = await ctx.git.run(['config', '--local', '--get', e.key], { cwd, okExitCodes: [1] });
    const value = r.stdout.trim();
    const to = e.advice ? advice : out;
    if (r.exitCode !== 0 || value === '')
      to.push(`${e.key} is not set (${e.why})${e.want ? `: git config ${e.key} ${e.want}` : ''}`);
    else if (e.want !== undefined && value !== e.want)
      to.push(`${e.key} is ${value}, want ${e.want} (${e.why}): git config ${e.key} ${e.want}`);
  }
  const branch = await ctx.git.run(['symbolic-ref', '-q', 'HEAD'], { cwd, okExitCodes: [1] });
  if (branch.stdout.trim() !== 'refs/heads/main')
    out.push(`HEAD is ${branch.stdout.trim() || 'detached'}, not branch main (gitmem writes main): git checkout main`);
  else if (ctx.head === null) out.push('main has no commit (an init that did not finish?)');
  return { out, advice };
}

export const configCheck: DoctorCheck = {
  title: 'repository config as gitmem needs it',
  async run(ctx) {
    const { out: found, advice } = await configProblems(ctx);
    if (found.length > 0)
      return problem(`${found.length} setting(s) off: ${found[0]}${found.length > 1 ? ' …' : ''}`, [
        ...found,
        ...advice.map((a) => `advice: ${a}`),
      ]);
    return ok(
      advice.length === 0
        ? 'on main, agent id, author and large-repo settings as init set them'
        : `on main, agent id and author as gitmem needs; advice: ${advice.join('; ')}`,
      advice,
    );
  },
};
