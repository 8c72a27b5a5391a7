/** `gitmem integrate [--watch] [--interval S]`: the integrator of `sync.mode = writer-refs` (sync/integrate-writers.ts). */
import { MemoryError } from '../../internals.js';
import type { CliCommand } from '../types.js';

interface Round {
  status: string;
  summary: string;
  writers: { writer: string; outcome: string; keptBranch?: string; problems?: string[]; conflictPaths?: string[] }[];
}

function report(r: Round): string {
  const lines = [`${r.status}: ${r.summary}`];
  for (const w of r.writers) {
    if (w.outcome === 'merged') continue;
    lines.push(`${w.writer} ${w.outcome}, kept on ${w.keptBranch ?? '?'}:`);
    lines.push(...(w.problems ?? w.conflictPaths ?? []).map((p) => `  ${p}`));
  }
  return lines.join('\n');
}

export const command: CliCommand = {
  name: 'integrate',
  usage: [
    'Usage: gitmem integrate [--watch] [--interval S] [--agent ID] [--json]',
    '  Merges every writers/<agent>/<machine> ref that passes the memory rules into main and pushes main',
    '  (at most sync.pushesPerMinute a minute, default 6). A breaking writer ref is kept on gitmem/rejected/<time>,',
    '  a conflicting one on gitmem/conflict/<time>; both are reported. --watch repeats every S seconds (default 10)',
    '  until SIGTERM or SIGINT: the round under way finishes (a wait for a push slot ends, its merges undone), exit 0.',
  ].join('\n'),
  async run(ctx) {
    const memory = await ctx.openMemory();
    const interval = Number(ctx.values['interval'] ?? '10');
    if (!Number.isFinite(interval) || interval < 1 || interval > 3600)
      throw new MemoryError('INVALID_ARGUMENT', '--interval must be a number of seconds from 1 to 3600');
    if (ctx.values['watch'] !== true) {
      const r = await memory.integrate();
      if (r.status === 'failed')
        throw new MemoryError(r.pull?.error?.code ?? 'PUSH_FAILED', report(r), { data: { ...r } });
      return (ctx.print(r, report(r)), 0);
    }
    // A stop never cuts a git command short: the round finishes, then the loop ends.
    const stop = new AbortController();
    const onSignal = (): void => stop.abort();
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
    try {
      while (!stop.signal.aborted) {
        const r = await memory.integrate({ stop: stop.signal });
        ctx.print(r, report(r));
        await new Promise<void>((res) => {
          const timer = setTimeout(res, interval * 1000);
          stop.signal.addEventListener('abort', () => (clearTimeout(timer), res()), { once: true });
        });
      }
      ctx.stderr('integrate --watch: stopped\n');
      return 0;
    } finally {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    }
  },
};
