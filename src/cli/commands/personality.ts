/** `gitmem personality list|apply <id>`: switch the persona/human texts to a preset. */
import { MemoryError } from '../../errors.js';
import { createMemory, listPersonalities } from '../../memory.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'personality',
  summary: 'list personality presets or apply one (one commit)',
  usage: 'Usage: gitmem personality list\n       gitmem personality apply <id> [--reason R] [--agent ID] [--json]',
  async run(ctx) {
    const [sub, id] = ctx.args;
    if (sub === 'list' || sub === undefined) {
      const list = (await listPersonalities()).map((p) => ({ id: p.id, label: p.label, summary: p.summary }));
      return ctx.print(list, list.map((p) => `${p.id.padEnd(10)} ${p.label} — ${p.summary}`).join('\n'));
    }
    if (sub !== 'apply') throw new MemoryError('UNKNOWN_COMMAND', `unknown personality sub-command '${sub}' (list, apply)`);
    if (!id) throw new MemoryError('INVALID_ARGUMENT', 'personality apply needs a preset id (see `gitmem personality list`)');
    const memory = await createMemory({ home: ctx.home, agentId: ctx.agent, env: ctx.env, launch: ctx.launch });
    const reason = typeof ctx.values['reason'] === 'string' ? ctx.values['reason'] : undefined;
    const r = await memory.applyPersonality(id, reason ? { reason } : {});
    ctx.print(r, `${r.message} ${r.paths.join(', ')}`);
  },
};
