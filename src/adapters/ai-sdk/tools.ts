/**
 * `memoryTools(memory)`: gitmem's memory tools as Vercel AI SDK `tool()`s for `generateText` / `streamText`.
 * The schemas are the memory tool's own (memfs/tool-schema.ts); every write is one commit; a refusal is
 * thrown, so the SDK hands its one-line message to the model as the tool's error.
 */
import { jsonSchema, tool, type Tool } from 'ai';
import { MemoryError } from '../../errors.js';
import type { Memory } from '../../memory.js';
import { applyPatchToolSchema, memoryToolSchema } from '../../memfs/tool-schema.js';
import type { WriteResult } from '../../memfs/tool.js';
import { SEARCH_LIMITS, SEARCH_MODES, type SearchOptions } from '../../search/types.js';

/** The tools, by the name the model calls them. */
export const MEMORY_TOOL_NAMES = ['memory', 'memory_apply_patch', 'memory_view', 'memory_search'] as const;
export type MemoryToolName = (typeof MEMORY_TOOL_NAMES)[number];

/** The part of the Memory handle the tools use. */
export type ToolsMemory = Pick<Memory, 'tool' | 'applyPatch' | 'view' | 'search'>;

type Args = Record<string, unknown>;

const written = (r: WriteResult): string => r.view ?? `${r.message} [commit ${r.commit.slice(0, 12)}: ${r.paths.join(', ')}]`;

const viewSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    path: { type: 'string', description: 'Memory-relative file or directory (default the root); `notes/a` also finds notes/a.md.' },
    at: { type: 'string', maxLength: 256, description: 'Revision to read: a sha, HEAD~3, or a date (the last commit at or before it). Default HEAD.' },
    view_range: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2, description: "A file's lines, [start, end], 1-based and inclusive; end -1 = to the end." },
  },
} as const;

const searchSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  properties: {
    query: { type: 'string', minLength: 1, maxLength: SEARCH_LIMITS.queryChars, description: 'Words to find (any order), "quoted phrases" as written.' },
    limit: { type: 'integer', minimum: 1, maximum: SEARCH_LIMITS.maxLimit, description: `Most hits (default ${SEARCH_LIMITS.defaultLimit}).` },
    paths: { type: 'array', items: { type: 'string' }, description: 'Only files matching one of these globs, e.g. ["notes/**"].' },
    mode: { type: 'string', enum: [...SEARCH_MODES], description: 'fulltext, semantic or hybrid (the last two need embeddings configured).' },
  },
} as const;

const BUILDERS: Record<MemoryToolName, (memory: ToolsMemory) => Tool<Args, string>> = {
  memory: (memory) =>
    tool({
      description: 'Edit your memory (one commit per call, its message your reason), or view it. Paths are relative to the memory root.',
      inputSchema: jsonSchema<Args>(memoryToolSchema as never),
      execute: async (args) => written(await memory.tool(args)),
    }),
  memory_apply_patch: (memory) =>
    tool({
      description: 'Apply a multi-file patch ("*** Begin Patch" … "*** End Patch") to memory as one commit.',
      inputSchema: jsonSchema<Args>(applyPatchToolSchema as never),
      execute: async (args) => written(await memory.applyPatch(args as { input: string; reason: string })),
    }),
  memory_view: (memory) =>
    tool({
      description: 'Read committed memory: a directory (default the root) two levels deep with descriptions, or a file with line numbers.',
      inputSchema: jsonSchema<Args>(viewSchema as never),
      execute: async (args) => {
        const range = args['view_range'] as [number, number] | undefined;
        const at = typeof args['at'] === 'string' ? { at: args['at'] } : {};
        return (await memory.view(args['path'] as string | undefined, { ...at, ...(range ? { range } : {}) })).text;
      },
    }),
  memory_search: (memory) =>
    tool({
      description: "Search your memory: ranked hits with path, best line, snippet and the file's description.",
      inputSchema: jsonSchema<Args>(searchSchema as never),
      execute: async (args) => {
        const { query, ...options } = args;
        return JSON.stringify(await memory.search(String(query), options as SearchOptions), null, 2);
      },
    }),
};

/**
 * The memory tools for one agent's memory (all four unless `include` names some).
 * @example
 *   const { text } = await generateText({ model, tools: memoryTools(memory), stopWhen: stepCountIs(8), prompt });
 */
export function memoryTools(memory: ToolsMemory, options: { include?: readonly MemoryToolName[] } = {}): Record<string, Tool<Args, string>> {
  const names = options.include ?? MEMORY_TOOL_NAMES;
  const unknown = names.filter((n) => !MEMORY_TOOL_NAMES.includes(n));
  if (unknown.length > 0) {
    throw new MemoryError('INVALID_ARGUMENT', `memoryTools: unknown tool ${unknown.join(', ')} (known: ${MEMORY_TOOL_NAMES.join(', ')})`, { data: { field: 'include' } });
  }
  return Object.fromEntries(names.map((n) => [n, BUILDERS[n](memory)]));
}
