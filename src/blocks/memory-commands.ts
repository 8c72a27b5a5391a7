/**
 * The memory tool's commands, listed once: the tool's schema and dispatch (memfs/), the prompt's wording
 * (prompt-surfaces.ts), the MCP description and instructions, the CLI's `memory` verbs and Anthropic's memory
 * tool (which of them it has) all read this list,
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

/**
 * Which commands Anthropic's memory tool (`memory_20250818`, `gitmem/anthropic`) has too, by the same name. Its
 * commands are the SDK's: adapters/anthropic/handlers.ts fails to compile when the two differ, and a new command
 * here must say whether it is one of them.
 */
const IN_ANTHROPIC_TOOL = {
  create: true,
  str_replace: true,
  insert: true,
  delete: true,
  rename: true,
  update_description: false, // its files carry no description argument: the first heading or line is one
  view: true,
} as const satisfies Readonly<Record<MemoryCommand, boolean>>;

/** A command Anthropic's memory tool has. */
export type AnthropicCommand = {
  [C in MemoryCommand]: (typeof IN_ANTHROPIC_TOOL)[C] extends true ? C : never;
}[MemoryCommand];

/** Anthropic's memory tool's commands, in the list's order. */
export const ANTHROPIC_COMMANDS: readonly AnthropicCommand[] = MEMORY_COMMANDS.filter(
  (c): c is AnthropicCommand => IN_ANTHROPIC_TOOL[c],
);

/**
 * Commands as prose: each wrapped in `quote`, the last after "and".
 * @example spokenList(['create', 'delete', 'rename'], '`') // '`create`, `delete` and `rename`'
 */
export function spokenList(commands: readonly string[], quote = ''): string {
  const q = commands.map((c) => `${quote}${c}${quote}`);
  return q.length < 2 ? q.join('') : `${q.slice(0, -1).join(', ')} and ${q.at(-1) as string}`;
}
