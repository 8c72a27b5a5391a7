/**
 * The MCP adapter: serves one agent's memory tools over MCP. Thin: it lists the library's own JSON
 * schemas, checks each call's arguments against the schema it listed, passes calls through, and maps
 * MemoryError to `isError` results carrying the error code. Protocol errors (a malformed message, params
 * that do not fit the method, an unknown tool) are JSON-RPC errors; arguments a tool refuses are
 * `isError` INVALID_ARGUMENT results, which a model can read and correct.
 * Uses the SDK's low-level Server because the tool schemas are plain JSON Schema, used as they are.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { applyPatchToolSchema, isMemoryError, memoryToolSchema, type Memory } from '../index.js';
import { checkRequestParams, GuardedTransport } from './guard.js';
import { checkToolArguments, type ToolInputSchema } from './tool-args.js';
import { memorySearchTool } from './search-tool.js';

/** The most entries one memory_log call returns. */
const MAX_LOG_LIMIT = 1000;

type Args = Record<string, unknown>;

interface ToolEntry {
  description: string;
  inputSchema: ToolInputSchema;
  /** With an output schema, results carry matching `structuredContent`; it must also admit an error's `{ code, message, data }`. */
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  run: (memory: Memory, args: Args) => Promise<CallToolResult>;
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/** The tools, in the order they are listed; each runs only with arguments that fit its schema. */
const TOOLS = {
  memory: {
    description:
      'Edit your memory (a git repository of markdown files). Each call is one commit whose message is `reason`. ' +
      'Commands: create, str_replace, insert, delete, rename, update_description.',
    inputSchema: memoryToolSchema,
    run: async (memory, args) => {
      const r = await memory.tool(args);
      return { ...text(`${r.message} ${r.paths.join(', ')}`), structuredContent: { ...r } };
    },
  },
  memory_apply_patch: {
    description: 'Apply a multi-file patch ("*** Begin Patch" … "*** End Patch") to memory as one commit.',
    inputSchema: applyPatchToolSchema,
    run: async (memory, args) => {
      const r = await memory.applyPatch(args as { reason: string; input: string });
      return { ...text(`${r.message} ${r.paths.join(', ')}`), structuredContent: { ...r } };
    },
  },
  memory_tree: {
    description: 'The committed memory tree: paths and descriptions.',
    inputSchema: { type: 'object', additionalProperties: false, properties: {} },
    run: async (memory) => text(await memory.tree()),
  },
  memory_search: memorySearchTool,
  memory_log: {
    description: 'Recent memory commits: sha, date, author, reason, files.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { limit: { type: 'integer', minimum: 1, maximum: MAX_LOG_LIMIT, description: `How many commits (default 20, at most ${MAX_LOG_LIMIT}).` } },
    },
    run: async (memory, args) => text(JSON.stringify(await memory.log({ limit: typeof args['limit'] === 'number' ? args['limit'] : 20 }), null, 2)),
  },
  memory_prompt: {
    description: 'The system prompt compiled from the committed memory.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { mode: { type: 'string', enum: ['standard', 'memfs', 'local-memfs'] }, preset: { type: 'string' } },
    },
    run: async (memory, args) => {
      const mode = (typeof args['mode'] === 'string' ? args['mode'] : 'local-memfs') as 'local-memfs';
      const preset = typeof args['preset'] === 'string' ? args['preset'] : 'default';
      return text(await memory.compilePrompt({ mode, preset }));
    },
  },
} as const satisfies Record<string, ToolEntry>;

/** The listed tool named `name`; an unknown name is invalid params (a protocol error, not a tool result). */
function toolNamed(name: string): [string, ToolEntry] {
  if (Object.hasOwn(TOOLS, name)) return [name, TOOLS[name as keyof typeof TOOLS]];
  // The SDK answers a thrown error with its `code` and `message` (McpError would prefix "MCP error -32602:").
  const message = `Invalid params for tools/call: unknown tool '${name.slice(0, 80)}' (tools: ${Object.keys(TOOLS).join(', ')})`;
  throw Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}

/**
 * Creates the MCP server for one agent's memory and connects it to `transport`.
 * @example await serveMemory(memory, new LineStdioTransport())
 */
export async function serveMemory(memory: Memory, transport: Transport, version = '0.1.0'): Promise<Server> {
  const server = new Server({ name: 'gitmem', version }, { capabilities: { tools: {} } });
  const tools = Object.entries(TOOLS).map(([name, t]: [string, ToolEntry]) => ({
    name,
    description: t.description,
    inputSchema: t.inputSchema,
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
    ...(t.annotations ? { annotations: t.annotations } : {}),
  }));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const [name, tool] = toolNamed(req.params.name);
    try {
      return await tool.run(memory, checkToolArguments(name, tool.inputSchema, req.params.arguments));
    } catch (err) {
      if (isMemoryError(err)) return { ...text(`${err.code}: ${err.message}`), isError: true, structuredContent: err.toJSON() };
      throw err;
    }
  });
  await server.connect(new GuardedTransport(transport, checkRequestParams));
  return server;
}
