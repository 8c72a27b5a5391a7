/** `gitmem conflicts [list] | show <branch> | drop <branch>`: local commits kept aside after a conflict. */
import { MemoryError } from '../../index.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'conflicts',
  summary: 'list, show or drop branches that keep local commits after a conflict',
  usage: `Usage:
  gitmem conflicts [list]         branches kept after a conflict (sync keep-branch, background writers)
  gitmem conflicts show <branch>  its commits and changes
  gitmem conflicts drop <branch>  delete it (its commits stay reachable under refs/gitmem/backup/)
Global: --agent ID, --home DIR, --json.`,
  async run(ctx) {
    const [sub = 'list', branch] = ctx.args;
    const { conflicts } = await ctx.openMemory();
    if (sub === 'list') {
      const kept = await conflicts.list();
      const text = kept
        .map((b) => `${b.branch}  (${b.commits} commit(s), ${b.date})\n  ${b.files.join('\n  ') || '(no file changes)'}`)
        .join('\n');
      ctx.print(kept, text || 'No kept branches: nothing is waiting to be reconciled.');
      return 0;
    }
    if (sub === 'show') {
      const d = await conflicts.show(branch as string);
      const log = d.log.map((c) => `  ${c.sha.slice(0, 7)} ${c.subject}`).join('\n');
      ctx.print(d, `${d.branch} (${d.kind}) head ${d.head.slice(0, 7)}\ncommits not on main:\n${log}\nchanges:\n  ${d.changes.join('\n  ')}`);
      return 0;
    }
    if (sub === 'drop') {
      const r = await conflicts.drop(branch as string);
      ctx.print(r, `Dropped ${r.branch}; its commits stay reachable at ${r.backupRef}.`);
      return 0;
    }
    throw new MemoryError('UNKNOWN_COMMAND', `unknown sub-command '${sub}' (use list, show or drop)`);
  },
};
