/** `gitmem status`: HEAD, branch, uncommitted changes and upstream distance. */
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'status',
  usage: 'Usage: gitmem status [--agent ID] [--json]',
  async run(ctx) {
    const memory = await ctx.openMemory();
    const s = await memory.status();
    const lines = [
      `memory: ${s.memoryDir}`,
      `layout: ${s.layout}`,
      `branch: ${s.branch ?? '(detached)'}  head: ${s.head?.slice(0, 7) ?? '(none)'}`,
    ];
    if (s.upstream) lines.push(`upstream: ${s.upstream}  ahead ${s.ahead}, behind ${s.behind}`);
    lines.push(s.dirty ? `${s.changes.length} uncommitted change(s):` : 'clean');
    for (const c of s.changes) lines.push(`  ${c.code} ${c.path}`);
    ctx.print(s, lines.join('\n'));
  },
};
