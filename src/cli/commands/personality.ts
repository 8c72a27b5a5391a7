/** `gitmem personality list|apply <id>`: switch the persona/human texts to a preset. */
import { listPersonalities } from '../../memory.js';
import type { CliCommand } from '../types.js';

const USAGE = `Usage:
  gitmem personality list                      the presets
  gitmem personality apply <id> [--force] [--reason R]
apply replaces system/persona.md with the preset's persona, and system/human.md with the preset's human
text only while it still holds a starter or preset text; if it holds what the agent learned about its
human, apply refuses (WOULD_DISCARD_EDITS) unless --force. One commit; its message says what was replaced.
Refused on a repository with uncommitted changes. Global: --agent ID, --home DIR, --json.`;

export const command: CliCommand = {
  name: 'personality',
  usage: USAGE,
  async run(ctx) {
    const [sub, id] = ctx.args;
    if (sub === 'list') {
      const list = (await listPersonalities()).map((p) => ({ id: p.id, label: p.label, summary: p.summary }));
      return ctx.print(list, list.map((p) => `${p.id.padEnd(10)} ${p.label} — ${p.summary}`).join('\n'));
    }
    const memory = await ctx.openMemory();
    const reason = ctx.option('reason');
    const r = await memory.applyPersonality(id as string, {
      ...(reason ? { reason } : {}),
      force: ctx.values['force'] === true,
    });
    ctx.print(r, `${r.message} ${r.paths.join(', ')}`);
  },
};
