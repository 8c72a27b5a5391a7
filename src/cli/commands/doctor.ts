/** `gitmem doctor [--fix] [--json]`: deterministic health checks of a memory repository, one line each. */
import { runMemoryDoctor } from '../../memory.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'doctor',
  usage: `Usage:
  gitmem doctor [--fix]   one line per check; exit 0 when healthy, 1 when a problem remains
  --fix repairs what is safe: hooks, orphan worktrees (their work imported first), stale locks, unfinished writes
Global: --agent ID, --home DIR, --json.`,
  async run(ctx) {
    const report = await runMemoryDoctor({
      home: ctx.home,
      agentId: ctx.agent,
      env: ctx.env,
      launch: ctx.launch,
      fix: ctx.values['fix'] === true,
    });
    const lines = report.checks.flatMap((c) => [
      `${c.status === 'ok' ? 'ok     ' : 'PROBLEM'} ${c.check}: ${c.line}`,
      ...(c.fixed ?? []).map((f) => `          fixed: ${f}`),
      ...(c.status === 'problem' ? (c.details ?? []).map((d) => `          ${d}`) : []),
    ]);
    lines.push(
      report.healthy
        ? 'healthy'
        : `${report.checks.filter((c) => c.status === 'problem').length} check(s) found problems${ctx.values['fix'] === true ? '' : ' (gitmem doctor --fix repairs hooks, worktrees and locks)'}`,
    );
    ctx.print(report, lines.join('\n'));
    return report.healthy ? 0 : 1;
  },
};
