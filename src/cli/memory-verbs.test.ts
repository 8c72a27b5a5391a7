// The `memory` command's grammar and usage are generated from the tool catalogue's argument rules
// (tools/memory-arguments.ts, tools/memory-verbs.ts): what a user sees stays as it was written by hand.
import { describe, expect, it } from 'vitest';
import { command } from './commands/memory.js';
import { COMMANDS } from './registry.js';

const HAND_WRITTEN_GRAMMAR = {
  options: {
    reason: { type: 'string', fills: 'reason' },
    description: { type: 'string', fills: 'description' },
    text: { type: 'string', fills: ['file_text', 'insert_text'] },
    'text-file': { type: 'string' },
    old: { type: 'string', fills: 'old_string' },
    new: { type: 'string', fills: 'new_string' },
    all: { type: 'boolean', fills: 'replace_all' },
    line: { type: 'string', fills: 'insert_line' },
    'patch-file': { type: 'string', fills: 'input' },
    call: { type: 'string' },
  },
  subcommands: {
    create: ['<path>'],
    'str-replace': ['<path>'],
    insert: ['<path>'],
    delete: ['<path>'],
    rename: ['<old-path>', '<new-path>'],
    describe: ['<path>'],
    'apply-patch': [],
    tool: [],
  },
  spells: {
    file_path: '<path>',
    old_path: '<old-path>',
    new_path: '<new-path>',
    str_replace: 'str-replace',
    update_description: 'describe',
    memory_apply_patch: 'memory apply-patch',
  },
  verbatim: ['tool'],
};

const HAND_WRITTEN_USAGE = `Usage:
  gitmem memory create <path> [--description D] [--text T | --text-file F] --reason R
  gitmem memory str-replace <path> --old S --new S [--all] --reason R
  gitmem memory insert <path> --line N --text T --reason R   (after line N of the file; 0 = the top)
  gitmem memory delete <path> --reason R
  gitmem memory rename <old-path> <new-path> --reason R
  gitmem memory describe <path> --description D --reason R
  gitmem memory apply-patch [--patch-file F | --patch-file -] --reason R   (default: patch on stdin)
  gitmem memory tool --call '<tool call JSON>'   (--call - reads the call from stdin)
A .md path (or one without an extension) is memory markdown: a description is needed, or frontmatter at the
start of the text; another extension (notes/progress.json) is a plain file, kept exactly as written.
Every write is one commit whose message is the reason. A value may start with "-" (--text "- a bullet"),
but a value that is one of these options (--reason --json) is refused: write --reason=--json to mean it.
--text-file / --patch-file: UTF-8, or UTF-16 with a byte-order mark (converted); - is stdin.
Global: --agent ID, --home DIR, --json (output as JSON).`;

describe('the memory command, generated from the catalogue', () => {
  it('has the grammar it had when it was written by hand', () => {
    expect(COMMANDS.memory.grammar).toEqual(HAND_WRITTEN_GRAMMAR);
  });

  it('prints the usage it had when it was written by hand', () => {
    expect(command.usage).toBe(HAND_WRITTEN_USAGE);
  });
});
