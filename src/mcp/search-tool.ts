/**
 * The `memory_search` MCP tool (its row: tools/catalogue.ts): ranked hits in the committed memory, as text
 * (JSON) and as `structuredContent` matching the listed `outputSchema`. Read-only.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Memory, SearchOptions } from '../internals.js';

// Clients check any structuredContent against this, an isError result's `{ code, message, data }` too.
const outputSchema = {
  type: 'object',
  anyOf: [{ required: ['hits'] }, { required: ['code', 'message'] }],
  properties: {
    code: { type: 'string', description: 'on an error result: the MemoryError code' },
    message: { type: 'string' },
    data: { type: 'object' },
    hits: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'line', 'snippet', 'score', 'description'],
        properties: {
          path: { type: 'string' },
          line: {
            type: 'integer',
            description: '1-based line of the best match, counting the frontmatter, as the memory view numbers lines',
          },
          snippet: { type: 'string' },
          score: { type: 'number', description: 'higher is better; compare only within one answer' },
          description: { type: 'string' },
        },
      },
    },
  },
} as const;

/** How the server serves the catalogue's memory_search row. */
export const memorySearchServing = {
  outputSchema,
  annotations: {
    title: 'Search memory',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: async (memory: Memory, args: Record<string, unknown>): Promise<CallToolResult> => {
    const { query, ...options } = args;
    const hits = await memory.search(query as string, options as SearchOptions);
    return { content: [{ type: 'text', text: JSON.stringify(hits, null, 2) }], structuredContent: { hits } };
  },
};
