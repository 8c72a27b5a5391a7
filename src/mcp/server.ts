/**
 * The MCP adapter: serves one agent's memory tools over MCP. Thin: it lists the tool catalogue's rows
 * (tools/catalogue.ts), checks each call's arguments against the schema it listed, passes calls through, and maps
 * MemoryError to `isError` results carrying the error code. Protocol errors (a malformed message, params
 * that do not fit the method, an unknown tool) are JSON-RPC errors; arguments a tool refuses are
 * `isError` INVALID_ARGUMENT results, which a model can read and correct.
 * Uses the SDK's low-level Server because the tool schemas are plain JSON Schema, used as they are.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { isMemoryError, type HistoryEntry, type Memory } from '../index.js';
import { checkToolArguments, TOOL_CATALOGUE, TOOL_NAMES, type PromptSurface, type ToolName } from '../internals.js';
import { checkRequestParams, GuardedTransport } from './guard.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { OUTPUT_SCHEMAS, READ_ONLY, WRITES } from './output-schemas.js';
import { MCP_PROMPT_SURFACE, servePrompts } from './prompts.js';
import { serveResources } from './resources.js';
import { memorySearchServing } from './search-tool.js';

type Args = Record<string, unknown>;

/** How the server serves one catalogue row (its name, description and input schema: tools/catalogue.ts). */
interface Serving {
  /** What structuredContent holds (output-schemas.ts); it also admits an error's `{ code, message, data }`. */
  outputSchema: Record<string, unknown>;
  annotations: Record<string, unknown>;
  run: (memory: Memory, args: Args) => Promise<CallToolResult>;
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

const opt = <K extends string>(key: K, v: unknown): Partial<Record<K, string>> =>
  typeof v === 'string' ? ({ [key]: v } as Record<K, string>) : {};

function historyText(entries: readonly HistoryEntry[]): string {
  const file = (f: HistoryEntry['files'][number]): string =>
    f.oldPath !== undefined ? `${f.status} ${f.oldPath} → ${f.path}` : `${f.status} ${f.path}`;
  return (
    entries
      .map(
        (e) =>
          `${e.sha.slice(0, 7)} ${e.date} ${e.writer} ${e.author}: ${e.reason.split('\n')[0] ?? ''}\n    ${e.files.map(file).join(', ')}`,
      )
      .join('\n') || 'No commits.'
  );
}

/** Every catalogue row served: a row without a handler is a type error. Each runs only with arguments that fit its row's schema. */
const SERVING: Record<ToolName, Serving> = {
  memory: {
    outputSchema: OUTPUT_SCHEMAS.write,
    annotations: WRITES,
    run: async (memory, args) => {
      const r = await memory.tool(args);
      return { ...text(r.view ?? `${r.message} ${r.paths.join(', ')}`), structuredContent: { ...r } };
    },
  },
  memory_apply_patch: {
    outputSchema: OUTPUT_SCHEMAS.write,
    annotations: WRITES,
    run: async (memory, args) => {
      const r = await memory.applyPatch(args as { reason: string; input: string });
      return { ...text(`${r.message} ${r.paths.join(', ')}`), structuredContent: { ...r } };
    },
  },
  memory_tree: {
    outputSchema: OUTPUT_SCHEMAS.tree,
    annotations: READ_ONLY,
    run: async (memory) => {
      const tree = await memory.tree();
      return { ...text(tree), structuredContent: { tree } };
    },
  },
  memory_search: memorySearchServing,
  memory_log: {
    outputSchema: OUTPUT_SCHEMAS.log,
    annotations: READ_ONLY,
    run: async (memory, args) => {
      const entries = await memory.log({ limit: typeof args['limit'] === 'number' ? args['limit'] : 20 });
      return { ...text(JSON.stringify(entries, null, 2)), structuredContent: { entries } };
    },
  },
  memory_prompt: {
    outputSchema: OUTPUT_SCHEMAS.prompt,
    annotations: READ_ONLY,
    run: async (memory, args) => {
      const mode = (typeof args['mode'] === 'string' ? args['mode'] : memory.defaultPromptMode()) as 'local-memfs';
      const preset = typeof args['preset'] === 'string' ? args['preset'] : 'default';
      const surface = (typeof args['surface'] === 'string' ? args['surface'] : MCP_PROMPT_SURFACE) as PromptSurface;
      const prompt = await memory.compilePrompt({ mode, preset, surface });
      return { ...text(prompt), structuredContent: { prompt } };
    },
  },
  memory_view: {
    outputSchema: OUTPUT_SCHEMAS.view,
    annotations: READ_ONLY,
    run: async (memory, args) => {
      const range = args['view_range'] as [number, number] | undefined;
      const v = await memory.view(args['path'] as string | undefined, {
        ...opt('at', args['at']),
        ...(range !== undefined ? { range } : {}),
      });
      return { ...text(v.text), structuredContent: { ...v } };
    },
  },
  memory_history: {
    outputSchema: OUTPUT_SCHEMAS.history,
    annotations: READ_ONLY,
    run: async (memory, args) => {
      const entries = await memory.history({
        ...opt('path', args['path']),
        ...opt('since', args['since']),
        ...(typeof args['limit'] === 'number' ? { limit: args['limit'] } : {}),
      });
      return { ...text(historyText(entries)), structuredContent: { entries } };
    },
  },
};

/** The listed tool named `name`; an unknown name is invalid params (a protocol error, not a tool result). */
function toolNamed(name: string): ToolName {
  if (Object.hasOwn(TOOL_CATALOGUE, name)) return name as ToolName;
  // The SDK answers a thrown error with its `code` and `message` (McpError would prefix "MCP error -32602:").
  const message = `Invalid params for tools/call: unknown tool '${name.slice(0, 80)}' (tools: ${TOOL_NAMES.join(', ')})`;
  throw Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}

/**
 * The SDK server gitmem configures: every transport it connects to is wrapped so request params are
 * checked against the SDK's schemas first (guard.ts), whoever calls connect().
 */
class GitmemMcpServer extends Server {
  override connect(transport: Transport): Promise<void> {
    return super.connect(new GuardedTransport(transport, checkRequestParams));
  }
}

/**
 * The configured MCP server for one agent's memory — tools, resources, prompt, instructions and argument
 * checks — not yet connected. Connect it to any transport; closing it stops its resource watcher (its
 * `onclose` does that: chain, do not replace, a handler of your own).
 * @example const server = createMcpServer(memory); await server.connect(new StdioServerTransport())
 */
export function createMcpServer(memory: Memory, version = '0.1.0'): Server {
  const server = new GitmemMcpServer(
    { name: 'gitmem', version },
    { capabilities: { tools: {}, resources: { subscribe: true }, prompts: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  const tools = TOOL_NAMES.map((name) => {
    const { description, inputSchema } = TOOL_CATALOGUE[name];
    return {
      name,
      description,
      inputSchema,
      outputSchema: SERVING[name].outputSchema,
      annotations: SERVING[name].annotations,
    };
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const name = toolNamed(req.params.name);
    try {
      return await SERVING[name].run(
        memory,
        checkToolArguments(name, TOOL_CATALOGUE[name].inputSchema, req.params.arguments),
      );
    } catch (err) {
      if (isMemoryError(err))
        return { ...text(`${err.code}: ${err.message}`), isError: true, structuredContent: err.toJSON() };
      throw err;
    }
  });
  const stopResources = serveResources(server, memory);
  servePrompts(server, memory);
  server.onclose = stopResources;
  return server;
}

/**
 * Creates the MCP server for one agent's memory and connects it to `transport`.
 * @example await serveMemory(memory, new LineStdioTransport())
 */
export async function serveMemory(memory: Memory, transport: Transport, version = '0.1.0'): Promise<Server> {
  const server = createMcpServer(memory, version);
  await server.connect(transport);
  return server;
}
