/**
 * `gitmem protect [list] | add <path>… | remove <path>…`: the protected list — paths gitmem saw committed as
 * read_only, which no tool write, plain commit or merge may change even after the key is gone. Adding and
 * removing is an operator action; the agent's tools cannot do either.
 */
import { MemoryError } from '../../index.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'protect',
  summary: 'list, add or remove protected (read_only) paths',
  usage: `Usage: gitmem protect [list] | add <path>... | remove <path>... [--agent ID] [--json]
  list    the protected paths (gitmem first records the read_only files committed since it last looked)
  add     protect paths (files need not exist yet)
  remove  lift protection; a file whose frontmatter still says read_only stays protected by it`,
  async run(ctx) {
    const [sub = 'list', ...paths] = ctx.args;
    const { protection } = await ctx.openMemory();
    if (sub === 'list') {
      const list = await protection.list();
      ctx.print(list, list.length > 0 ? list.join('\n') : 'No protected paths.');
      return 0;
    }
    if (sub !== 'add' && sub !== 'remove') throw new MemoryError('UNKNOWN_COMMAND', `unknown sub-command '${sub}' (use list, add or remove)`);
    if (paths.length === 0) throw new MemoryError('INVALID_ARGUMENT', `usage: gitmem protect ${sub} <path>...`);
    const list = sub === 'add' ? await protection.add(paths) : await protection.remove(paths);
    ctx.print(list, `${sub === 'add' ? 'Protected' : 'Unprotected'}: ${paths.join(', ')}\nProtected paths now: ${list.length > 0 ? list.join(', ') : '(none)'}`);
    return 0;
  },
};
