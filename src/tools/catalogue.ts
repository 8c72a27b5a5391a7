/**
 * The tool catalogue: every memory tool gitmem offers a model, one row each — its name, what the model is told
 * (when to read, when to write) and its input schema. The MCP server lists these rows and checks calls against
 * them (arguments.ts), the AI SDK tools are built from the same rows, so a schema or a description cannot
 * differ between surfaces (test/integration/mcp/tool-catalogue.test.ts). The write tools' argument rules (which
 * arguments each command takes and needs) are memory-arguments.ts, re-exported here; the CLI's `memory` verbs
 * are generated from them (memory-verbs.ts). Pure data.
 *
 * Plain JSON Schema, not zod: the MCP server's refusals are its own one-line messages (pinned by tests), and
 * loading zod would cost the write path 125–300 ms.
 */
import { writeCommandList } from '../blocks/memory-commands.js';
import { MEMORY_MODES } from '../blocks/presets.js';
import { PROMPT_SURFACES, WORDING_TOOLS, type PromptSurface } from '../blocks/prompt-surfaces.js';
import { MAX_REVISION_LENGTH } from '../git/revision.js';
import { applyPatchToolSchema, memoryToolSchema } from '../memfs/tool-schema.js';
import { SEARCH_LIMITS, SEARCH_MODES } from '../search/types.js';
import type { ToolInputSchema } from './arguments.js';

/** One tool as every surface shows it to a model. */
export interface ToolRow {
  /** What the tool does and when to use it. */
  description: string;
  /** Its arguments: listed as they are, and the rules a call must fit (arguments.ts). */
  inputSchema: ToolInputSchema;
}

/** The most entries one memory_log or memory_history call returns. */
export const MAX_LOG_LIMIT = 1000;

/** The surface the memory_prompt tool words the prompt for unless told otherwise: these tools. */
export const TOOLS_PROMPT_SURFACE: PromptSurface = 'tools';

const logLimit = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_LOG_LIMIT,
  description: `How many commits (default 20, at most ${MAX_LOG_LIMIT}).`,
} as const;

/** `at` on every tool that reads an older revision (git/revision.ts says what it accepts). */
const at = (description: string) =>
  ({ type: 'string', minLength: 1, maxLength: MAX_REVISION_LENGTH, description }) as const;

const memory: ToolRow = {
  description:
    'Edit your memory (a git repository of markdown files). Each call is one commit whose message is `reason`. ' +
    'Write when you learn something that should outlast this session: a preference or correction from the user, a fact ' +
    `about the project, a decision and why. Commands: ${writeCommandList()}; and view (a read: no commit, no reason).`,
  inputSchema: memoryToolSchema,
};

const memoryView = {
  description:
    'Read committed memory: a directory (default the root) lists its files two levels deep as "<size>\\t<path> — <description>"; ' +
    'a file shows its text with line numbers. Read a file when its description bears on the task at hand, before relying on what it covers. ' +
    '`at` reads an older revision (a sha, HEAD~3, or a date: the last commit at or before it).',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      path: {
        type: 'string',
        description: 'Memory-relative file or directory (default the root); `notes/a` also finds notes/a.md.',
      },
      at: at('Revision to read: a sha, a branch, HEAD~3, 2025-01-02T10:00 or @{3 days ago}. Default HEAD.'),
      view_range: {
        type: 'array',
        items: { type: 'integer' },
        minItems: 2,
        maxItems: 2,
        description: "A file's lines to show, [start, end], 1-based and inclusive; end -1 = to the end.",
      },
    },
  },
} as const satisfies ToolRow;

const memorySearch = {
  description:
    'Search your memory (the committed markdown files) and get ranked hits: path, best-matching line number, snippet, score and the ' +
    "file's description. Use it before answering from memory, or to find the file to open or edit.",
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: SEARCH_LIMITS.queryChars,
        description:
          'Words to find (any order; files with more and rarer words rank first), "quoted phrases" as written; the last word also matches as a prefix.',
      },
      at: at(
        'Search an older revision: a commit sha, branch, HEAD~3, or an ISO date (the last commit at or before it). Default: the current memory.',
      ),
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: SEARCH_LIMITS.maxLimit,
        description: `Most hits (default ${SEARCH_LIMITS.defaultLimit}).`,
      },
      paths: {
        type: 'array',
        items: { type: 'string' },
        description: 'Only files matching one of these globs, e.g. ["notes/**"].',
      },
      mode: {
        type: 'string',
        enum: [...SEARCH_MODES],
        description:
          'fulltext, semantic or hybrid (semantic and hybrid need embeddings configured; default hybrid then, else fulltext).',
      },
    },
  },
} as const satisfies ToolRow;

export { APPLY_PATCH_ARGUMENTS, MEMORY_COMMAND_ARGUMENTS, type ArgumentRule } from './memory-arguments.js';

/** The tools, in the order every surface lists them. */
export const TOOL_CATALOGUE = {
  memory,
  memory_apply_patch: {
    description: 'Apply a multi-file patch ("*** Begin Patch" … "*** End Patch") to memory as one commit.',
    inputSchema: applyPatchToolSchema,
  },
  memory_tree: {
    description: 'The committed memory tree: paths and descriptions.',
    inputSchema: { type: 'object', additionalProperties: false, properties: {} },
  },
  memory_search: memorySearch,
  memory_log: {
    description: 'Recent memory commits: sha, date, author, reason, files.',
    inputSchema: { type: 'object', additionalProperties: false, properties: { limit: logLimit } },
  },
  memory_prompt: {
    description:
      'The system prompt compiled from the committed memory, worded for these memory tools unless `surface` names another.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: { type: 'string', enum: [...MEMORY_MODES] },
        preset: { type: 'string' },
        surface: {
          type: 'string',
          enum: [...PROMPT_SURFACES],
          description: `The tools the wording speaks of (default ${TOOLS_PROMPT_SURFACE}).`,
        },
      },
    },
  },
  memory_view: memoryView,
  memory_history: {
    description:
      'Who changed memory, when and why: commits newest first (of one path: renames followed), each with its writer (agent, worker, reflection, shell, sync), reason and files.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        path: { type: 'string', description: 'Only commits touching this file or directory.' },
        limit: logLimit,
        since: {
          type: 'string',
          maxLength: 64,
          description: 'Only commits at or after this date (2025-01-02, 2025-01-02T10:00Z, "3 days ago").',
        },
      },
    },
  },
} as const satisfies Record<string, ToolRow>;

export type ToolName = keyof typeof TOOL_CATALOGUE;

/** Every tool's name, in the catalogue's order. */
export const TOOL_NAMES = Object.keys(TOOL_CATALOGUE) as ToolName[];

/** The tools the prompt's wording names (blocks/prompt-surfaces.ts): a tool renamed or dropped here fails to compile there. */
export const WORDED_TOOL_NAMES = Object.values(WORDING_TOOLS) satisfies readonly ToolName[];
