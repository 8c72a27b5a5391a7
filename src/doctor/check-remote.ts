/**
 * The remote: `origin` answers (ls-remote, with the sync credentials scoped to its origin), and where main
 * stands against it (ahead/behind from the last fetch; unknown commits on the remote mean behind).
 */
import { authForRemote } from '../sync/credentials.js';
import { getOriginUrl } from '../sync/remote.js';
import { toMemoryError } from '../errors.js';
import { ok, problem, type DoctorCheck, type DoctorContext } from './types.js';

async function standing(ctx: DoctorContext, remoteHead: string): Promise<string> {
  if (ctx.head === null) return 'main has no commit';
  if (remoteHead === ctx.head) return 'main is up to date';
  const known = await ctx.git.run(['cat-file', '-e', `${remoteHead}^{commit}`], {
    cwd: ctx.memoryDir,
    okExitCodes: [1, 128],
  });
  if (known.exitCode !== 0) return 'the remote has commits this repository has not fetched (gitmem sync)';
  const r = await ctx.git.run(['rev-list', '--left-right', '--count', `${ctx.head}...${remoteHead}`], {
    cwd: ctx.memoryDir,
  });
  const [ahead = '0', behind = '0'] = r.stdout.trim().split(/\s+/);
  return `main is ${ahead} ahead, ${behind} behind`;
}

export const remoteCheck: DoctorCheck = {
  title: 'remote reachable, ahead/behind',
  async run(ctx) {
    const url = await getOriginUrl(ctx.git, ctx.memoryDir);
    if (url === null) return ok('none configured (local memory)');
    try {
      const auth = authForRemote(ctx.credentials(), url);
      const r = await ctx.git.run(['ls-remote', '--end-of-options', 'origin', 'refs/heads/main'], {
        cwd: ctx.memoryDir,
        timeoutMs: 20_000,
        auth,
        okExitCodes: [2],
      });
      const remoteHead = r.stdout.split('\t')[0]?.trim() ?? '';
      if (remoteHead === '') return ok('reachable; it has no main yet (gitmem sync pushes it)');
      return ok(`reachable; ${await standing(ctx, remoteHead)}`);
    } catch (err) {
      const e = toMemoryError(err, 'GIT_FAILED');
      return problem(`origin does not answer: ${e.code}: ${e.message.split('\n')[0] ?? ''}`);
    }
  },
};
