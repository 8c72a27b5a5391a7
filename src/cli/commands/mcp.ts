/**
 * `gitmem mcp`: serve an agent's memory tools over MCP on stdio (stdout is the protocol; logs go to stderr).
 * The memory is opened before the transport starts, so a bad --agent or home is one stderr line and exit 1
 * before any handshake. At the end of input the server answers what is in flight, then exits 0.
 */
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'mcp',
  summary: 'serve the memory tools over MCP (stdio)',
  usage: `Usage: gitmem mcp [--agent ID] [--home DIR]
  Tools: memory, memory_apply_patch, memory_tree, memory_log, memory_prompt, memory_view, memory_history.
  Resources: gitmem://<agent>/<path> (list, read, subscribe). Prompt: system_prompt (mode, preset).
  One JSON-RPC message per line, at most 4 MiB; a malformed or oversized line gets an error response.`,
  async run(ctx) {
    // A long-lived server: git starts through the process's resident shells (the handle's default launcher).
    const memory = await ctx.openMemory();
    const { serveMemory } = await import('../../mcp/server.js');
    const { LineStdioTransport } = await import('../../mcp/stdio-transport.js');
    const transport = new LineStdioTransport();
    await serveMemory(memory, transport);
    ctx.stderr(`gitmem mcp: serving ${memory.memoryDir}`);
    await transport.closed;
    return 0;
  },
};
