/**
 * `gitmem hook pre-commit`: run the pre-commit rule set on the staged snapshot of the current repo.
 * `gitmem hook <harness> <event>`: the programs `gitmem connect` points a harness's hooks at (harness/run-hook.ts).
 */
import { MemoryError } from '../../index.js';
import { formatProblem, problemCode } from '../../internals.js';
import { HARNESS_IDS, isHarnessId } from '../../harness/catalogue.js';
import { HOOK_EVENTS, isHookEvent } from '../../harness/hook-events.js';
import { preCommitProblems } from '../../memory.js';
import type { CliCommand, CliContext } from '../types.js';

const USAGE = [
  'Usage: gitmem hook pre-commit            checks the staged changes of the repository in the current directory',
  `       gitmem hook <harness> <event>     harness: ${HARNESS_IDS.join(', ')}; reads the harness's JSON on stdin`,
  ...Object.entries(HOOK_EVENTS).map(([event, what]) => `         ${event.padEnd(14)} ${what}`),
  "  A harness hook always exits 0: a failure is one line on stderr and an entry in the agent's run log.",
].join('\n');

async function preCommit(ctx: CliContext): Promise<number> {
  const found = await preCommitProblems(ctx.cwd, ctx.env);
  const problems = found.map(formatProblem);
  if (problems.length === 0) return (ctx.print({ ok: true, problems }, 'pre-commit: ok'), 0);
  const list = problems.map((p) => `  ${p}`).join('\n');
  throw new MemoryError(
    problemCode(found),
    `the staged changes break the memory rules (${problems.length}):\n${list}`,
    { data: { problems } },
  );
}

export const command: CliCommand = {
  name: 'hook',
  usage: USAGE,
  async run(ctx) {
    const [which, event] = ctx.args;
    if (which === 'pre-commit') return preCommit(ctx);
    if (which === undefined || !isHarnessId(which))
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `unknown hook "${which ?? ''}": expected pre-commit or one of ${HARNESS_IDS.join(', ')}`,
      );
    if (event === undefined || !isHookEvent(event))
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `unknown ${which} hook event "${event ?? ''}": expected one of ${Object.keys(HOOK_EVENTS).join(', ')}`,
      );
    const { runHook } = await import('../../harness/run-hook.js');
    const stdin = async () => (event === 'reflect' ? '' : ctx.readText('-'));
    return runHook({
      harness: which,
      event,
      config: ctx.config,
      agent: ctx.agent,
      env: ctx.env,
      cwd: ctx.cwd,
      stdin,
      stdout: ctx.stdout,
      stderr: ctx.stderr,
      launch: ctx.launch,
    });
  },
};
