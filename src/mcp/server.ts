/**
 * The MCP adapter: serves one agent's memory tools over MCP. Thin: it lists the library's own JSON
 * schemas, passes calls through, and maps MemoryError to `isError` results carrying the error code.
 * Uses the SDK's low-level Server because the tool schemas are plain JSON Schema, used as they are.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { applyPatchToolSchema, isMemoryError, memoryToolSchema, type Memory } from '../index.js';

const TOOLS = [
  {
    name: 'memory',
    description:
      'Edit your memory (a git repository of markdown files). Each call is one commit whose message is `reason`. ' +
      'Commands: create, str_replace, insert, delete, rename, update_description.',
    inputSchema: memoryToolSchema,
  },
  {
    name: 'memory_apply_patch',
    description: 'Apply a multi-file patch ("*** Begin Patch" … "*** End Patch") to memory as one commit.',
    inputSchema: applyPatchToolSchema,
  },
  { name: 'memory_tree', description: 'The committed memory tree: paths and descriptions.', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'memory_log',
    description: 'Recent memory commits: sha, date, author, reason, files.',
    inputSchema: { type: 'object', properties: { limit: { type: 'number' } } },
  },
  {
    name: 'memory_prompt',
    description: 'The system prompt compiled from the committed memory.',
    inputSchema: { type: 'object', properties: { mode: { type: 'string', enum: ['standard', 'memfs', 'local-memfs'] }, preset: { type: 'string' } } },
  },
] as const;

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

async function dispatch(memory: Memory, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  switch (name) {
    case 'memory': {
      const r = await memory.tool(args);
      return { ...text(`${r.message} ${r.paths.join(', ')}`), structuredContent: { ...r } };
    }
    case 'memory_apply_patch': {
      const r = await memory.applyPatch(args as { reason: string; input?: string });
      return { ...text(`${r.message} ${r.paths.join(', ')}`), structuredContent: { ...r } };
    }
    case 'memory_tree':
      return text(await memory.tree());
    case 'memory_log': {
      const limit = typeof args['limit'] === 'number' ? args['limit'] : 20;
      return text(JSON.stringify(await memory.log({ limit }), null, 2));
    }
    case 'memory_prompt': {
      const mode = (typeof args['mode'] === 'string' ? args['mode'] : 'local-memfs') as 'local-memfs';
      const preset = typeof args['preset'] === 'string' ? args['preset'] : 'default';
      return text(await memory.compilePrompt({ mode, preset }));
    }
    default:
      return { ...text(`UNKNOWN_COMMAND: no tool named ${name}`), isError: true };
  }
}

/**
 * Creates the MCP server for one agent's memory and connects it to `transport`.
 * @example await serveMemory(memory, new StdioServerTransport())
 */
export async function serveMemory(memory: Memory, transport: Transport, version = '0.1.0'): Promise<Server> {
  const server = new Server({ name: 'gitmem', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => ({ ...t })) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    try {
      return await dispatch(memory, req.params.name, (req.params.arguments ?? {}) as Record<string, unknown>);
    } catch (err) {
      if (isMemoryError(err)) return { ...text(`${err.code}: ${err.message}`), isError: true, structuredContent: err.toJSON() };
      throw err;
    }
  });
  await server.connect(transport);
  return server;
}
