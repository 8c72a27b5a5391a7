/** `gitmem revert <sha> --reason R`: one new commit that undoes one commit's change (a memory write). */
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'revert',
  usage: `Usage: gitmem revert <sha> --reason R [--agent ID] [--json]
  Through the same rules as every write (read_only and protected files, format); a file changed since in
  a way the undo cannot merge with refuses the whole revert (REVERT_CONFLICT, the files listed) and
  nothing changes. A merge commit is reverted against its first parent.`,
  async run(ctx) {
    const memory = await ctx.openMemory();
    const r = await memory.revert(ctx.args[0] as string, { reason: ctx.option('reason') as string });
    ctx.print(r, `Reverted ${r.reverted.slice(0, 7)}: ${r.message} ${r.paths.join(', ')}`);
  },
};
