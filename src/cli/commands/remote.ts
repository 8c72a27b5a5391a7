/** `gitmem remote set <url> | show | remove`: the memory repo's sync remote (origin; never a token in it). */
import { MemoryError } from '../../index.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'remote',
  usage: `Usage:
  gitmem remote set <url>   the agent's origin: a path, SSH or HTTPS URL (never one with a token in it)
  gitmem remote show        origin and how far main is ahead/behind it (as of the last fetch)
  gitmem remote remove      forget origin (the prompt then says the memory is local)
Global: --agent ID, --home DIR, --json.`,
  async run(ctx) {
    const [sub, first] = ctx.args;
    const { remote } = await ctx.openMemory();
    if (sub === 'set') {
      const url = (first ?? '').trim();
      if (!url) throw new MemoryError('INVALID_ARGUMENT', 'remote set: the <url> is empty');
      const info = await remote.set(url, { baseDir: ctx.cwd });
      ctx.print(info, `origin set to ${info.url}`);
    } else if (sub === 'show') {
      const info = await remote.show();
      const lines = [
        info.url === null ? 'No remote configured. Use `gitmem remote set <url>`.' : `origin: ${info.url}`,
      ];
      if (info.upstream)
        lines.push(
          `upstream: ${info.upstream}  ahead ${info.ahead ?? '?'}, behind ${info.behind ?? '?'} (as of the last fetch)`,
        );
      else if (info.url !== null) lines.push('not synced yet: run `gitmem sync`');
      ctx.print(info, lines.join('\n'));
    } else if (sub === 'remove' || sub === 'rm') {
      const r = await remote.remove();
      ctx.print(r, r.removed === null ? 'No remote was configured.' : `Removed origin (was ${r.removed}).`);
    } else {
      throw new MemoryError('UNKNOWN_COMMAND', `unknown sub-command '${sub}' (use set, show or remove)`);
    }
  },
};
