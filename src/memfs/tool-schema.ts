/**
 * The memory tool's JSON schema (what a harness hands to its model) and the apply-patch tool's.
 * Plain data, so adapters (MCP, AI SDK) can use it without importing anything heavy.
 */

export const MEMORY_COMMANDS = ['create', 'str_replace', 'insert', 'delete', 'rename', 'update_description'] as const;
export type MemoryCommand = (typeof MEMORY_COMMANDS)[number];

/** JSON Schema of a memory-tool call. `command` and `reason` are required. */
export const memoryToolSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['command', 'reason'],
  properties: {
    command: { type: 'string', enum: [...MEMORY_COMMANDS], description: 'The edit to make.' },
    reason: { type: 'string', description: 'Why this change is being made; it becomes the commit message.' },
    file_path: { type: 'string', description: 'Memory-relative path, e.g. system/human.md (create, str_replace, insert, delete, update_description).' },
    old_path: { type: 'string', description: 'rename: the current path.' },
    new_path: { type: 'string', description: 'rename: the new path.' },
    old_string: { type: 'string', description: 'str_replace: exact text to find in the body (must match once unless replace_all).' },
    new_string: { type: 'string', description: 'str_replace: replacement text (empty deletes the match).' },
    replace_all: { type: 'boolean', description: 'str_replace: replace every match.' },
    insert_line: { type: 'number', description: 'insert: 1-based body line to insert before (0 = top, past end = append).' },
    insert_text: { type: 'string', description: 'insert: the text to insert.' },
    description: { type: 'string', description: 'create / update_description: one-line summary shown in the memory tree.' },
    file_text: { type: 'string', description: 'create: the body of the new file.' },
  },
} as const;

/** JSON Schema of a memory_apply_patch call. */
export const applyPatchToolSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason', 'input'],
  properties: {
    reason: { type: 'string', description: 'Why; becomes the commit message.' },
    input: { type: 'string', description: 'The patch, from "*** Begin Patch" to "*** End Patch".' },
  },
} as const;
