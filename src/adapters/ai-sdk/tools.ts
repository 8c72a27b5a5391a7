/**
 * `memoryTools(memory)`: gitmem's memory tools as Vercel AI SDK `tool()`s for `generateText` / `streamText`.
 * Each tool is its row of the tool catalogue (tools/catalogue.ts: the description and input schema the MCP
 * server lists too); every write is one commit; a refusal is thrown, so the SDK hands its one-line message to
 * the model as the tool's error.
 */
import { jsonSchema, tool, type Tool } from 'ai';
import { MemoryError } from '../../errors.js';
import type { Memory } from '../../memory.js';
import type { WriteResult } from '../../memfs/tool.js';
import type { SearchOptions } from '../../search/types.js';
import { TOOL_CATALOGUE, type ToolName } from '../../tools/catalogue.js';

/** The tools, by the name the model calls them. */
export const MEMORY_TOOL_NAMES = [
  'memory',
  'memory_apply_patch',
  'memory_view',
  'memory_search',
] as const satisfies readonly ToolName[];
export type MemoryToolName = (typeof MEMORY_TOOL_NAMES)[number];

/** The part of the Memory handle the tools use. */
export type ToolsMemory = Pick<Memory, 'tool' | 'applyPatch' | 'view' | 'search'>;

type Args = Record<string, unknown>;

const written = (r: WriteResult): string =>
  r.view ?? `${r.message} [commit ${r.commit.slice(0, 12)}: ${r.paths.join(', ')}]`;

/** What each tool does with a call's arguments; its description and schema are its catalogue row. */
const EXECUTE: Record<MemoryToolName, (memory: ToolsMemory, args: Args) => Promise<string>> = {
  memory: async (memory, args) => written(await memory.tool(args)),
  memory_apply_patch: async (memory, args) =>
    written(await memory.applyPatch(args as { input: string; reason: string })),
  memory_view: async (memory, args) => {
    const range = args['view_range'] as [number, number] | undefined;
    const at = typeof args['at'] === 'string' ? { at: args['at'] } : {};
    return (await memory.view(args['path'] as string | undefined, { ...at, ...(range ? { range } : {}) })).text;
  },
  memory_search: async (memory, args) => {
    const { query, ...options } = args;
    return JSON.stringify(await memory.search(String(query), options as SearchOptions), null, 2);
  },
};

function build(name: MemoryToolName, memory: ToolsMemory): Tool<Args, string> {
  const row = TOOL_CATALOGUE[name];
  return tool({
    description: row.description,
    inputSchema: jsonSchema<Args>(row.inputSchema as never),
    execute: (args) => EXECUTE[name](memory, args),
  });
}

/**
 * The memory tools for one agent's memory (all four unless `include` names some).
 * @example
 *   const { text } = await generateText({ model, tools: memoryTools(memory), stopWhen: stepCountIs(8), prompt });
 */
export function memoryTools(
  memory: ToolsMemory,
  options: { include?: readonly MemoryToolName[] } = {},
): Record<string, Tool<Args, string>> {
  const names = options.include ?? MEMORY_TOOL_NAMES;
  const unknown = names.filter((n) => !MEMORY_TOOL_NAMES.includes(n));
  if (unknown.length > 0) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `memoryTools: unknown tool ${unknown.join(', ')} (known: ${MEMORY_TOOL_NAMES.join(', ')})`,
      { data: { field: 'include' } },
    );
  }
  return Object.fromEntries(names.map((n) => [n, build(n, memory)]));
}
