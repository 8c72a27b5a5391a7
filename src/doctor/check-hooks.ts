/**
 * Hooks: gitmem's pre-commit hook is there, executable, and names this install (so a raw `git commit` run
 * now is checked by it); the post-commit hook is current; `core.hooksPath` is the one effective value.
 * Repair: the same repair an open does (hooks/install.ts).
 */
import { accessSync, constants, existsSync, lstatSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { currentInstall, ensureHooks } from '../hooks/install.js';
import { postCommitScript } from '../hooks/post-commit.js';
import { isGitmemHookText, parseHookInstalls } from '../hooks/pre-commit-script.js';
import { ok, problem, type DoctorCheck, type DoctorContext } from './types.js';

function hookFile(ctx: DoctorContext, name: string): { text: string | null; problem: string | null } {
  const file = join(ctx.gitDir, 'hooks', name);
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return { text: null, problem: `${name} is not a regular file` };
    if ((st.mode & 0o7777) !== 0o755)
      return {
        text: null,
        problem: `${name} has mode ${(st.mode & 0o7777).toString(8)} (git skips a hook that is not executable)`,
      };
    if (st.size > 64 * 1024) return { text: null, problem: `${name} is not gitmem's hook (too large)` };
    return { text: readFileSync(file, 'utf8'), problem: null };
  } catch {
    return { text: null, problem: `${name} is missing` };
  }
}

function runnable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function hooksPathProblem(ctx: DoctorContext): Promise<string | null> {
  const r = await ctx.git.run(['config', '--get-all', 'core.hooksPath'], { cwd: ctx.memoryDir, okExitCodes: [1] });
  const values = r.stdout.split('\n').filter((v) => v !== '');
  const want = join(ctx.gitDir, 'hooks');
  if (values.length === 0) return 'core.hooksPath is not set (a global hooks path could switch the hooks off)';
  if (values.length > 1 || resolve(ctx.memoryDir, values[0] as string) !== want)
    return `core.hooksPath is ${values.join(', ')}, not ${want} as the one value`;
  return null;
}

async function inspect(ctx: DoctorContext): Promise<string[]> {
  const out: string[] = [];
  const pre = hookFile(ctx, 'pre-commit');
  if (pre.problem !== null) out.push(pre.problem);
  else if (!isGitmemHookText(pre.text as string)) out.push("pre-commit is not gitmem's hook");
  else {
    const self = currentInstall();
    const mine = parseHookInstalls(pre.text).find((i) => i.entry === self.entry);
    if (mine === undefined) out.push(`pre-commit does not name this install (${self.entry})`);
    else if (!runnable(mine.node) || !existsSync(mine.entry))
      out.push(`pre-commit names ${mine.node} ${mine.entry}, which this machine cannot run`);
  }
  const post = hookFile(ctx, 'post-commit');
  if (post.problem !== null) out.push(post.problem);
  else if (post.text !== postCommitScript()) out.push('post-commit is out of date');
  const path = await hooksPathProblem(ctx);
  if (path !== null) out.push(path);
  return out;
}

export const hooksCheck: DoctorCheck = {
  title: 'hooks installed and runnable by this install',
  async run(ctx) {
    const found = await inspect(ctx);
    return found.length === 0
      ? ok("pre-commit and post-commit hooks are gitmem's and run with this install")
      : problem(`need repair: ${found.join('; ')}`, found);
  },
  async fix(ctx) {
    const { repaired } = await ensureHooks(ctx.git, ctx.memoryDir);
    return repaired.map((r) => `repaired ${r}`);
  },
};
