/** `gitmem migrate --layout index|system [--dry-run]`: the repository moved to the other layout in one commit. */
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'migrate',
  usage: `Usage: gitmem migrate --layout index|system [--dry-run] [--agent ID] [--json]
  Moves every memory file to the other layout (system/a/b.md <-> a-b.md, links between moved files rewritten,
  the MEMORY.md indexes written or dropped), validated by the target layout's rules, as ONE commit that lands
  only if main did not move meanwhile; then sets gitmem.layout. Every body and description is kept.
  --dry-run   print the diff and change nothing`,
  async run(ctx) {
    const memory = await ctx.openMemory();
    const dryRun = ctx.values['dry-run'] === true;
    // The value is checked by migrate (INVALID_ARGUMENT unless system or index).
    const r = await memory.migrate({ layout: ctx.option('layout') as 'index' | 'system', dryRun });
    const tail =
      r.commit === null
        ? `dry run: ${r.moves.length} file(s) would move from the ${r.from} layout to ${r.to}; nothing changed`
        : `Migrated to the ${r.to} layout (${r.commit.slice(0, 7)}): ${r.moves.length} file(s) moved`;
    ctx.print(r, `${r.diff.trimEnd()}\n${tail}`);
  },
};
