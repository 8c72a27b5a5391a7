/** `gitmem show <path> [--at REV]`: a committed file's text (a directory: its view), as of HEAD or REV. */
import { isMemoryError } from '../../index.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'show',
  usage: `Usage: gitmem show <path> [--at REV] [--agent ID] [--json]
  REV: a sha, a branch, HEAD~3, an ISO date (2025-01-02T10:00) or @{3 days ago}: the last commit at or before it.
  --json prints { path, frontmatter, body, text, commit } (a directory: its view).`,
  async run(ctx) {
    const memory = await ctx.openMemory();
    const at = ctx.option('at');
    const path = ctx.args[0] as string;
    try {
      const r = await memory.read(path, at === undefined ? {} : { at });
      ctx.print(r, r.text.endsWith('\n') || r.text === '' ? r.text.slice(0, -1) : r.text);
    } catch (err) {
      if (!isMemoryError(err, 'FILE_NOT_FOUND') || err.data['directory'] !== true) throw err;
      const v = await memory.view(path, at === undefined ? {} : { at });
      ctx.print(v, v.text);
    }
  },
};
