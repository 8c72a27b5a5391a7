/** `gitmem agents`: list the agents under this home. */
import { listAgents } from '../../memory.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'agents',
  usage: 'Usage: gitmem agents [--home DIR] [--json]',
  async run(ctx) {
    const agents = listAgents(ctx.home);
    ctx.print(
      agents,
      agents.length === 0
        ? `No agents under ${ctx.home}`
        : agents.map((a) => `${a.agentId}\t${a.memoryDir}`).join('\n'),
    );
  },
};
