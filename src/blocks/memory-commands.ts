/**
 * The memory tool's commands, listed once: the tool's schema and dispatch (memfs/), the prompt's wording
 * (prompt-surfaces.ts), the MCP description and instructions, and the CLI's `memory` verbs all read this list,
 * so a command added here shows up (or fails to compile) everywhere it must. Pure.
 */

/** The commands that write (one commit each). */
export const WRITE_COMMANDS = ['create', 'str_replace', 'insert', 'delete', 'rename', 'update_description'] as const;
export type WriteCommand = (typeof WRITE_COMMANDS)[number];
/** Every command: the writes, and `view` (a read of the committed memory; no commit, no reason). */
export const MEMORY_COMMANDS = [...WRITE_COMMANDS, 'view'] as const;
export type MemoryCommand = (typeof MEMORY_COMMANDS)[number];

/**
 * The write commands as a sentence's list, each wrapped in `quote`.
 * @example writeCommandList('`') // '`create`, `str_replace`, `insert`, `delete`, `rename`, `update_description`'
 */
export function writeCommandList(quote = ''): string {
  return WRITE_COMMANDS.map((c) => `${quote}${c}${quote}`).join(', ');
}
