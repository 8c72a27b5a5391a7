import { describe, expect, it } from 'vitest';
import { MemoryError } from '../../errors.js';
import { checkToolText, toolError } from './refusals.js';
import { AnthropicToolError } from './semantics.js';

const shown = { files: ['notes/a.md', 'a.md'], hiddenLines: (f: string) => (f === 'notes/a.md' ? 4 : 0) };
const message = (err: unknown): string => toolError(err, shown).message;

describe("gitmem's refusals in the Anthropic tool's terms", () => {
  it("names problems by tool path and by the model's own line", () => {
    const err = new MemoryError(
      'SECRET_DETECTED',
      'Refused: credential (nothing was written):\n  notes/a.md:6: SECRET_DETECTED: x',
      {
        data: { errors: ['notes/a.md:6: SECRET_DETECTED: x', 'a.md: y', '(reason):1: SECRET_DETECTED: z'] },
      },
    );
    expect(message(err)).toBe(
      'Refused: credential (nothing was written):\n  /memories/notes/a.md:2: SECRET_DETECTED: x\n  /memories/a.md: y\n  (commit message):1: SECRET_DETECTED: z',
    );
  });

  it("drops gitmem's tool label and maps paths; a message still naming gitmem's tools gives its code only", () => {
    expect(
      message(new MemoryError('READ_ONLY', 'memory_apply_patch: notes/a.md is read_only and cannot be modified')),
    ).toBe('gitmem: /memories/notes/a.md is read_only and cannot be modified');
    expect(message(new MemoryError('INVALID_ARGUMENT', "memory_apply_patch: 'input' is 3000000 characters long"))).toBe(
      'gitmem refused this change (INVALID_ARGUMENT); nothing was written',
    );
    expect(message(new MemoryError('FRONTMATTER_INVALID', 'memory: file_path x'))).toBe(
      'gitmem refused this change (FRONTMATTER_INVALID); nothing was written',
    );
    expect(message(new MemoryError('PATH_ESCAPE', 'memory_apply_patch: a is a symbolic link'))).toBe(
      'Path would escape /memories directory via symlink',
    );
  });

  it("passes the tool's own errors through, and refuses text a memory file cannot hold by the parameter's name", () => {
    const own = new AnthropicToolError('The path /memories/x does not exist');
    expect(toolError(own, shown)).toBe(own);
    expect(() => checkToolText('insert_text', 'a\0')).toThrow(
      'gitmem: `insert_text` contains a NUL character, which memory files cannot hold',
    );
    expect(() => checkToolText('new_str', '\ud800')).toThrow(
      'gitmem: `new_str` is not valid Unicode (a lone surrogate), which memory files cannot hold',
    );
    expect(() => checkToolText('file_text', 3)).toThrow('gitmem: `file_text` must be a string');
  });
});
