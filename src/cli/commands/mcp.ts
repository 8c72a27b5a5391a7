/**
 * `gitmem mcp`: serve an agent's memory tools over MCP on stdio (stdout is the protocol; logs go to stderr),
 * or with `--http` over Streamable HTTP (mcp-http.ts).
 * The memory is opened before the transport starts, so a bad --agent or home is one stderr line and exit 1
 * before any handshake. At the end of input the server answers what is in flight, then exits 0.
 */
import { MemoryError } from '../../index.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'mcp',
  usage: `Usage: gitmem mcp [--agent ID] [--home DIR]
       gitmem mcp --http [--host 127.0.0.1] [--port 8377] [--token-file F] [--agent ID] [--home DIR]
  Tools: memory, memory_apply_patch, memory_tree, memory_log, memory_prompt, memory_view, memory_history.
  Resources: gitmem://<agent>/<path> (list, read, subscribe). Prompt: system_prompt (mode, preset).
  One JSON-RPC message per line, at most 4 MiB; a malformed or oversized line gets an error response.
  --http: /mcp (--agent, else the default agent) and /agents/<id>/mcp; every request needs
  Authorization: Bearer <token> (from --token-file, a 0600 file, else generated and printed to stderr);
  beyond loopback --token-file is required. Port 0 = any free port.`,
  async run(ctx) {
    if (ctx.values['http'] === true) return (await import('./mcp-http.js')).serveHttp(ctx);
    for (const name of ['host', 'port', 'token-file']) {
      if (ctx.values[name] !== undefined)
        throw new MemoryError('INVALID_ARGUMENT', `--${name} needs --http`, { data: { field: name } });
    }
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
