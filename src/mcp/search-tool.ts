/**
 * The `memory_search` MCP tool: ranked hits in the committed memory, as text (JSON) and as
 * `structuredContent` matching the listed `outputSchema`. Read-only.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_REVISION_LENGTH, SEARCH_LIMITS, SEARCH_MODES, type Memory, type SearchOptions } from '../internals.js';
import type { ToolInputSchema } from './tool-args.js';

const inputSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  properties: {
    query: {
      type: 'string',
      minLength: 1,
      maxLength: SEARCH_LIMITS.queryChars,
      description: 'Words to find (any order; files with more and rarer words rank first), "quoted phrases" as written; the last word also matches as a prefix.',
    },
    at: { type: 'string', minLength: 1, maxLength: MAX_REVISION_LENGTH, description: 'Search an older revision: a commit sha, branch, HEAD~3, or an ISO date (the last commit at or before it). Default: the current memory.' },
    limit: { type: 'integer', minimum: 1, maximum: SEARCH_LIMITS.maxLimit, description: `Most hits (default ${SEARCH_LIMITS.defaultLimit}).` },
    paths: { type: 'array', items: { type: 'string' }, description: 'Only files matching one of these globs, e.g. ["notes/**"].' },
    mode: { type: 'string', enum: [...SEARCH_MODES], description: 'fulltext, semantic or hybrid (semantic and hybrid need embeddings configured; default hybrid then, else fulltext).' },
  },
} as const satisfies ToolInputSchema & Record<string, unknown>;

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
          line: { type: 'integer', description: '1-based line of the best match, counting the frontmatter, as the memory view numbers lines' },
          snippet: { type: 'string' },
          score: { type: 'number', description: 'higher is better; compare only within one answer' },
          description: { type: 'string' },
        },
      },
    },
  },
} as const;

export const memorySearchTool = {
  description:
    'Search your memory (the committed markdown files) and get ranked hits: path, best-matching line number, snippet, score and the ' +
    "file's description. Use it before answering from memory, or to find the file to open or edit.",
  inputSchema,
  outputSchema,
  annotations: { title: 'Search memory', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (memory: Memory, args: Record<string, unknown>): Promise<CallToolResult> => {
    const { query, ...options } = args;
    const hits = await memory.search(query as string, options as SearchOptions);
    return { content: [{ type: 'text', text: JSON.stringify(hits, null, 2) }], structuredContent: { hits } };
  },
};
