/** `gitmem diff [REV [REV]] [--path P]`: what changed between two commits (default: what HEAD's commit did). */
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'diff',
  usage: `Usage: gitmem diff [FROM [TO]] [--path P] [--agent ID] [--json]
  No revision: what HEAD's commit changed. FROM alone: FROM → HEAD. Revisions as in gitmem show.
  --json prints { from, to, text, truncated, files: [{ status, path, oldPath?, additions, deletions }] }.`,
  async run(ctx) {
    const memory = await ctx.openMemory();
    const [from, to] = ctx.args;
    const path = ctx.option('path');
    const d = await memory.diff({ from, to, path });
    ctx.print(d, d.text === '' ? 'No changes.' : d.text.replace(/\n$/, ''));
  },
};
