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
import { applyPatchToolSchema, isMemoryError, memoryToolSchema, type HistoryEntry, type Memory } from '../index.js';
import { PROMPT_SURFACES, type PromptSurface } from '../internals.js';
import { checkRequestParams, GuardedTransport } from './guard.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { OUTPUT_SCHEMAS, READ_ONLY, WRITES } from './output-schemas.js';
import { MCP_PROMPT_SURFACE, servePrompts } from './prompts.js';
import { serveResources } from './resources.js';
import { checkToolArguments, type ToolInputSchema } from './tool-args.js';
import { memorySearchTool } from './search-tool.js';

/** The most entries one memory_log call returns. */
const MAX_LOG_LIMIT = 1000;

type Args = Record<string, unknown>;

interface ToolEntry {
  description: string;
  inputSchema: ToolInputSchema;
  /** What structuredContent holds (output-schemas.ts); it also admits an error's `{ code, message, data }`. */
  outputSchema: Record<string, unknown>;
  annotations: Record<string, unknown>;
  run: (memory: Memory, args: Args) => Promise<CallToolResult>;
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

const opt = <K extends string>(key: K, v: unknown): Partial<Record<K, string>> => (typeof v === 'string' ? ({ [key]: v } as Record<K, string>) : {});

function historyText(entries: readonly HistoryEntry[]): string {
  const file = (f: HistoryEntry['files'][number]): string => (f.oldPath !== undefined ? `${f.status} ${f.oldPath} → ${f.path}` : `${f.status} ${f.path}`);
  return entries.map((e) => `${e.sha.slice(0, 7)} ${e.date} ${e.writer} ${e.author}: ${e.reason.split('\n')[0] ?? ''}\n    ${e.files.map(file).join(', ')}`).join('\n') || 'No commits.';
}

/** The tools, in the order they are listed; each runs only with arguments that fit its schema. */
const TOOLS = {
  memory: {
    description:
      'Edit your memory (a git repository of markdown files). Each call is one commit whose message is `reason`. ' +
      'Write when you learn something that should outlast this session: a preference or correction from the user, a fact ' +
      'about the project, a decision and why. Commands: create, str_replace, insert, delete, rename, update_description; ' +
      'and view (a read: no commit, no reason).',
    inputSchema: memoryToolSchema,
    outputSchema: OUTPUT_SCHEMAS.write,
    annotations: WRITES,
    run: async (memory, args) => {
      const r = await memory.tool(args);
      return { ...text(r.view ?? `${r.message} ${r.paths.join(', ')}`), structuredContent: { ...r } };
    },
  },
  memory_apply_patch: {
    description: 'Apply a multi-file patch ("*** Begin Patch" … "*** End Patch") to memory as one commit.',
    inputSchema: applyPatchToolSchema,
    outputSchema: OUTPUT_SCHEMAS.write,
    annotations: WRITES,
    run: async (memory, args) => {
      const r = await memory.applyPatch(args as { reason: string; input: string });
      return { ...text(`${r.message} ${r.paths.join(', ')}`), structuredContent: { ...r } };
    },
  },
  memory_tree: {
    description: 'The committed memory tree: paths and descriptions.',
    inputSchema: { type: 'object', additionalProperties: false, properties: {} },
    outputSchema: OUTPUT_SCHEMAS.tree,
    annotations: READ_ONLY,
    run: async (memory) => {
      const tree = await memory.tree();
      return { ...text(tree), structuredContent: { tree } };
    },
  },
  memory_search: memorySearchTool,
  memory_log: {
    description: 'Recent memory commits: sha, date, author, reason, files.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: { limit: { type: 'integer', minimum: 1, maximum: MAX_LOG_LIMIT, description: `How many commits (default 20, at most ${MAX_LOG_LIMIT}).` } },
    },
    outputSchema: OUTPUT_SCHEMAS.log,
    annotations: READ_ONLY,
    run: async (memory, args) => {
      const entries = await memory.log({ limit: typeof args['limit'] === 'number' ? args['limit'] : 20 });
      return { ...text(JSON.stringify(entries, null, 2)), structuredContent: { entries } };
    },
  },
  memory_prompt: {
    description: 'The system prompt compiled from the committed memory, worded for these memory tools unless `surface` names another.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: { type: 'string', enum: ['standard', 'memfs', 'local-memfs'] },
        preset: { type: 'string' },
        surface: { type: 'string', enum: [...PROMPT_SURFACES], description: `The tools the wording speaks of (default ${MCP_PROMPT_SURFACE}).` },
      },
    },
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
    description:
      'Read committed memory: a directory (default the root) lists its files two levels deep as "<size>\\t<path> — <description>"; ' +
      'read a file when its description bears on the task at hand, before relying on what it covers. ' +
      'a file shows its text with line numbers. `at` reads an older revision (a sha, HEAD~3, or a date: the last commit at or before it).',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        path: { type: 'string', description: 'Memory-relative file or directory (default the root); `notes/a` also finds notes/a.md.' },
        at: { type: 'string', maxLength: 256, description: 'Revision to read: a sha, a branch, HEAD~3, 2025-01-02T10:00 or @{3 days ago}. Default HEAD.' },
        view_range: { type: 'array', description: 'A file\'s lines to show, [start, end], 1-based and inclusive; end -1 = to the end.' },
      },
    },
    outputSchema: OUTPUT_SCHEMAS.view,
    annotations: READ_ONLY,
    run: async (memory, args) => {
      const range = args['view_range'] as [number, number] | undefined;
      const v = await memory.view(args['path'] as string | undefined, { ...opt('at', args['at']), ...(range !== undefined ? { range } : {}) });
      return { ...text(v.text), structuredContent: { ...v } };
    },
  },
  memory_history: {
    description: 'Who changed memory, when and why: commits newest first (of one path: renames followed), each with its writer (agent, worker, reflection, shell, sync), reason and files.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        path: { type: 'string', description: 'Only commits touching this file or directory.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_LOG_LIMIT, description: `How many commits (default 20, at most ${MAX_LOG_LIMIT}).` },
        since: { type: 'string', maxLength: 64, description: 'Only commits at or after this date (2025-01-02, 2025-01-02T10:00Z, "3 days ago").' },
      },
    },
    outputSchema: OUTPUT_SCHEMAS.history,
    annotations: READ_ONLY,
    run: async (memory, args) => {
      const entries = await memory.history({ ...opt('path', args['path']), ...opt('since', args['since']), ...(typeof args['limit'] === 'number' ? { limit: args['limit'] } : {}) });
      return { ...text(historyText(entries)), structuredContent: { entries } };
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
  const tools = Object.entries(TOOLS).map(([name, t]) => ({ name, description: t.description, inputSchema: t.inputSchema, outputSchema: t.outputSchema, annotations: t.annotations }));
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
