/** `gitmem log`: recent memory commits — sha, date, author, reason, files. */
import { MemoryError } from '../../errors.js';
import { createMemory } from '../../memory.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'log',
  summary: 'show recent memory commits with their reasons and files',
  usage: 'Usage: gitmem log [-n N] [--agent ID] [--json]',
  async run(ctx) {
    const raw = typeof ctx.values['n'] === 'string' ? ctx.values['n'] : '20';
    const limit = Number(raw);
    if (!Number.isInteger(limit) || limit < 1) throw new MemoryError('INVALID_ARGUMENT', `-n must be a positive integer, got ${raw}`);
    const memory = await createMemory({ home: ctx.home, agentId: ctx.agent, env: ctx.env, launch: ctx.launch });
    const entries = await memory.log({ limit });
    const text = entries
      .map((e) => `${e.sha.slice(0, 7)} ${e.date} ${e.author}\n    ${e.reason.split('\n').join('\n    ')}\n    files: ${e.files.join(', ')}`)
      .join('\n');
    ctx.print(entries, text || 'No commits yet.');
  },
};
