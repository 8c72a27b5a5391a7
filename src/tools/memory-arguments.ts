/**
 * The argument rules of the catalogue's two write tools (catalogue.ts): which of the `memory` tool's arguments
 * each command takes, in the order a command line shows them, and which it needs; `memory_apply_patch` takes
 * its schema's arguments. The CLI's `memory` verbs are generated from these rules (memory-verbs.ts), and
 * test/integration/mcp/tool-catalogue.test.ts holds them to the schemas and to what the tool refuses.
 * Keyed by command: a new command without its rule is a type error. Pure data; the schemas come in as types
 * only, so the CLI's tiny entry can read it.
 */
import type { MemoryCommand } from '../blocks/memory-commands.js';
import type { applyPatchToolSchema, memoryToolSchema } from '../memfs/tool-schema.js';

/** An argument of the memory tool other than `command` (which the command line spells as the verb). */
export type MemoryArgument = Exclude<keyof (typeof memoryToolSchema)['properties'], 'command'>;
/** An argument of memory_apply_patch. */
export type ApplyPatchArgument = keyof (typeof applyPatchToolSchema)['properties'];

/** `required`: the tool refuses a call without it; `optional`: it has a meaning when left out. */
export type ArgumentRule = 'required' | 'optional';

/** One command's arguments (and `reason`), in the order a command line shows them. */
export type CommandArguments = Readonly<Partial<Record<MemoryArgument, ArgumentRule>>>;

/** Each memory-tool command's arguments. */
export const MEMORY_COMMAND_ARGUMENTS = {
  create: { file_path: 'required', description: 'optional', file_text: 'optional', reason: 'required' },
  str_replace: {
    file_path: 'required',
    old_string: 'required',
    new_string: 'required',
    replace_all: 'optional',
    reason: 'required',
  },
  insert: { file_path: 'required', insert_line: 'required', insert_text: 'required', reason: 'required' },
  delete: { file_path: 'required', reason: 'required' },
  rename: { old_path: 'required', new_path: 'required', reason: 'required' },
  update_description: { file_path: 'required', description: 'required', reason: 'required' },
  view: { file_path: 'optional', view_range: 'optional' },
} as const satisfies Readonly<Record<MemoryCommand, CommandArguments>>;

/** memory_apply_patch's arguments (its schema requires both). */
export const APPLY_PATCH_ARGUMENTS = { input: 'required', reason: 'required' } as const satisfies Readonly<
  Record<ApplyPatchArgument, ArgumentRule>
>;
