/** `gitmem integrate [--watch] [--interval S]`: the integrator of `sync.mode = writer-refs` (sync/integrate-writers.ts). */
import { MemoryError } from '../../internals.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'integrate',
  usage: [
    'Usage: gitmem integrate [--watch] [--interval S] [--agent ID] [--json]',
    '  Merges every writers/<agent>/<machine> ref that passes the memory rules into main and pushes main',
    '  (at most sync.pushesPerMinute a minute, default 6). A breaking writer ref is kept on gitmem/rejected/<time>,',
    '  a conflicting one on gitmem/conflict/<time>; both are reported. --watch repeats every S seconds (default 10).',
  ].join('\n'),
  async run(ctx) {
    const memory = await ctx.openMemory();
    const interval = Number(ctx.values['interval'] ?? '10');
    if (!Number.isFinite(interval) || interval < 1 || interval > 3600)
      throw new MemoryError('INVALID_ARGUMENT', '--interval must be a number of seconds from 1 to 3600');
    for (;;) {
      const r = await memory.integrate();
      const lines = [`${r.status}: ${r.summary}`];
      for (const w of r.writers) {
        if (w.outcome === 'merged') continue;
        lines.push(`${w.writer} ${w.outcome}, kept on ${w.keptBranch ?? '?'}:`);
        lines.push(...(w.problems ?? w.conflictPaths ?? []).map((p) => `  ${p}`));
      }
      if (ctx.values['watch'] !== true) {
        if (r.status === 'failed')
          throw new MemoryError(r.pull?.error?.code ?? 'PUSH_FAILED', lines.join('\n'), { data: { ...r } });
        return (ctx.print(r, lines.join('\n')), 0);
      }
      ctx.print(r, lines.join('\n'));
      await new Promise((res) => setTimeout(res, interval * 1000));
    }
  },
};
