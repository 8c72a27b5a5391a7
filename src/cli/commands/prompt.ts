/** `gitmem prompt`: print the system prompt compiled from the committed memory. */
import { createMemory } from '../../memory.js';
import type { MemoryMode } from '../../memory.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'prompt',
  summary: 'print the system prompt compiled from the committed memory',
  usage: `Usage: gitmem prompt [--mode standard|memfs|local-memfs] [--preset ID] [--agent ID] [--json]
  Compiled from HEAD only: uncommitted edits are not included. Default mode local-memfs, preset default.`,
  async run(ctx) {
    const memory = await createMemory({ home: ctx.home, agentId: ctx.agent, env: ctx.env, launch: ctx.launch });
    const mode = (typeof ctx.values['mode'] === 'string' ? ctx.values['mode'] : 'local-memfs') as MemoryMode;
    const preset = typeof ctx.values['preset'] === 'string' ? ctx.values['preset'] : 'default';
    const prompt = await memory.compilePrompt({ mode, preset });
    ctx.print({ mode, preset, prompt }, prompt);
  },
};
