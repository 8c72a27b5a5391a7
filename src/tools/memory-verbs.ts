/**
 * The CLI's `memory` verbs, from the one command list: each write command's verb (`update_description` is
 * `describe`), then the verbs that are not memory-tool commands. Keyed by command, so a new command without a
 * verb is a type error. Pure.
 */
import { WRITE_COMMANDS, type WriteCommand } from '../blocks/memory-commands.js';

const VERB_OF: Readonly<Record<WriteCommand, string>> = {
  create: 'create',
  str_replace: 'str-replace',
  insert: 'insert',
  delete: 'delete',
  rename: 'rename',
  update_description: 'describe',
};

/** Every `gitmem memory <verb>`, in help order: the write commands, `apply-patch` (memory_apply_patch), `tool` (a raw call). */
export const MEMORY_VERBS: readonly string[] = [...WRITE_COMMANDS.map((c) => VERB_OF[c]), 'apply-patch', 'tool'];
