/** `gitmem init`: create an agent's memory repository, or repair its hooks. */
import { initMemory } from '../../memory.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'init',
  usage: `Usage: gitmem init [--agent ID] [--name NAME] [--personality ID] [--layout system|index] [--json]
  Creates $GITMEM_HOME/agents/<ID>/memory with system/persona.md and system/human.md (--layout index:
  persona.md, human.md and the root MEMORY.md index), an initial commit and the hooks. The layout is recorded
  as gitmem.layout (docs/memory.md#layouts). Re-running on an existing agent repairs the hooks.
  ID: --agent, else GITMEM_AGENT_ID / AGENT_ID, else the home's only agent (its hooks are repaired), else
  "default" on a home without agents; with several agents and none named, the error lists them.`,
  async run(ctx) {
    const name = ctx.option('name');
    const personality = ctx.option('personality');
    const layout = ctx.option('layout');
    const r = await initMemory({
      home: ctx.home,
      agentId: ctx.agent,
      env: ctx.env,
      ...(name ? { name } : {}),
      ...(personality ? { personality } : {}),
      // initMemory refuses a name that is no layout.
      ...(layout !== undefined
        ? { layout: layout as NonNullable<NonNullable<Parameters<typeof initMemory>[0]>['layout']> }
        : {}),
    });
    const text = r.created
      ? `Initialized memory for agent ${r.agentId}\n  path: ${r.memoryDir}\n  commit: ${r.commit ?? ''}`
      : `Agent ${r.agentId} already exists at ${r.memoryDir}; ${r.repairedHooks.length > 0 ? `repaired: ${r.repairedHooks.join(', ')}` : 'hooks are up to date'}`;
    ctx.print(
      {
        agentId: r.agentId,
        memoryDir: r.memoryDir,
        created: r.created,
        commit: r.commit,
        repairedHooks: r.repairedHooks,
      },
      text,
    );
  },
};
