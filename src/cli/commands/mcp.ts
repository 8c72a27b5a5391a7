/** `gitmem mcp`: serve an agent's memory tools over MCP on stdio (stdout is the protocol; logs go to stderr). */
import { tmpdir } from 'node:os';
import { createMemory, createShellLauncher } from '../../index.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'mcp',
  summary: 'serve the memory tools over MCP (stdio)',
  usage: `Usage: gitmem mcp [--agent ID] [--home DIR]
  Tools: memory, memory_apply_patch, memory_tree, memory_log, memory_prompt.`,
  async run(ctx) {
    // A long-lived server: start git through resident shells rather than forking this process per call.
    const launcher = createShellLauncher({ scratchParent: ctx.env['TMPDIR']?.trim() || tmpdir() });
    try {
      const memory = await createMemory({ home: ctx.home, agentId: ctx.agent, env: ctx.env, launch: launcher.launch });
      const { serveMemory } = await import('../../mcp/server.js');
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      const server = await serveMemory(memory, new StdioServerTransport());
      ctx.stderr(`gitmem mcp: serving ${memory.memoryDir}`);
      await new Promise<void>((resolve) => {
        server.onclose = () => resolve();
        process.stdin.on('end', () => resolve());
      });
    } finally {
      launcher.close();
    }
    return 0;
  },
};
