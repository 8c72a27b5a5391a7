/**
 * The CLI's `memory` verbs, generated from the catalogue's write tools: one verb per memory-tool command (its
 * arguments and rules: memory-arguments.ts), `apply-patch` for memory_apply_patch, and `tool` (a raw call).
 * This file only says how a command line spells each tool argument and names each command's verb; the CLI
 * derives its grammar, usage lines and calls from it (cli/memory-grammar.ts, cli/commands/memory.ts). Keyed by
 * command and by argument, so a new command or a new schema argument is a type error here until it is spelled
 * (or marked `null`: not on the command line). Pure data; the CLI's tiny entry reads it.
 */
import { MEMORY_COMMANDS, type MemoryCommand } from '../blocks/memory-commands.js';
import {
  APPLY_PATCH_ARGUMENTS,
  MEMORY_COMMAND_ARGUMENTS,
  type ApplyPatchArgument,
  type ArgumentRule,
  type MemoryArgument,
} from './memory-arguments.js';

/** How a command line gives one tool argument: a positional, or an option. */
export type Spelling =
  | { readonly positional: `<${string}>` }
  | {
      /** The option's name (`old`: `--old`). */
      readonly option: string;
      /** Its value as usage shows it (`S` in `--old S`); absent: a flag, the argument `true` when given. */
      readonly value?: string;
      /** Another option naming a file whose text is the value instead (`text-file`; `-` is stdin). */
      readonly orFile?: string;
      /** The option's value names a file whose text is the argument (`-` is stdin). */
      readonly fromFile?: true;
      /** The value when the option is not given; absent: the argument is passed as undefined. */
      readonly default?: string;
    };

/** How the command line spells each memory-tool argument (the same option for every command that takes it). */
export const MEMORY_SPELLINGS: Readonly<Record<MemoryArgument, Spelling | null>> = {
  file_path: { positional: '<path>' },
  old_path: { positional: '<old-path>' },
  new_path: { positional: '<new-path>' },
  reason: { option: 'reason', value: 'R' },
  description: { option: 'description', value: 'D' },
  file_text: { option: 'text', value: 'T', orFile: 'text-file', default: '' },
  insert_text: { option: 'text', value: 'T' },
  old_string: { option: 'old', value: 'S' },
  new_string: { option: 'new', value: 'S', default: '' }, // left out: the match is deleted
  replace_all: { option: 'all' },
  insert_line: { option: 'line', value: 'N' },
  view_range: null, // reading is `gitmem show`
};

/** How the command line spells memory_apply_patch's arguments. */
export const APPLY_PATCH_SPELLINGS: Readonly<Record<ApplyPatchArgument, Spelling>> = {
  input: { option: 'patch-file', value: 'F', fromFile: true, default: '-' },
  reason: { option: 'reason', value: 'R', default: '' },
};

/** Each command's verb and usage note; null: no verb (`view`: reading is `gitmem show`). */
const COMMAND_VERBS: Readonly<Record<MemoryCommand, { verb: string; note?: string } | null>> = {
  create: { verb: 'create' },
  str_replace: { verb: 'str-replace' },
  insert: { verb: 'insert', note: 'after line N of the file; 0 = the top' },
  delete: { verb: 'delete' },
  rename: { verb: 'rename' },
  update_description: { verb: 'describe' },
  view: null,
};

/** One `gitmem memory <verb>`: the catalogue tool it calls and that tool's arguments, spelled. */
export interface MemoryVerb {
  verb: string;
  tool: 'memory' | 'memory_apply_patch';
  /** The memory tool's command (absent for memory_apply_patch). */
  command?: MemoryCommand;
  /** The arguments, in the order usage shows them. */
  arguments: Readonly<Record<string, ArgumentRule>>;
  spellings: Readonly<Record<string, Spelling | null>>;
  /** Said after the usage line, in parentheses. */
  note?: string;
}

/** The verb that takes the memory tool's call as written (`--call '<json>'`), not spelled per argument. */
export const RAW_CALL_VERB = 'tool';

/** The tool verbs, in help order: each write command's, then `apply-patch`. */
export const MEMORY_VERB_TABLE: readonly MemoryVerb[] = [
  ...MEMORY_COMMANDS.flatMap((command): MemoryVerb[] => {
    const v = COMMAND_VERBS[command];
    if (v === null) return [];
    const args = MEMORY_COMMAND_ARGUMENTS[command];
    return [{ ...v, tool: 'memory', command, arguments: args, spellings: MEMORY_SPELLINGS }];
  }),
  {
    verb: 'apply-patch',
    tool: 'memory_apply_patch',
    arguments: APPLY_PATCH_ARGUMENTS,
    spellings: APPLY_PATCH_SPELLINGS,
    note: 'default: patch on stdin',
  },
];

/** Every `gitmem memory <verb>`, in help order. */
export const MEMORY_VERBS: readonly string[] = [...MEMORY_VERB_TABLE.map((v) => v.verb), RAW_CALL_VERB];
