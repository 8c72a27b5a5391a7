/** `gitmem tree`: the memory tree (paths + descriptions) at HEAD; `--json`: the entries as data. */
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'tree',
  usage: `Usage: gitmem tree [--agent ID] [--json]
  --json prints { commit, files: [{ path, size, description? }] }: every committed file.`,
  async run(ctx) {
    const memory = await ctx.openMemory();
    if (ctx.json) {
      ctx.print(await memory.files(), '');
      return;
    }
    const tree = await memory.tree();
    ctx.print({ tree }, tree);
  },
};
