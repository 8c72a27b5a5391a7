import { describe, expect, it } from 'vitest';
import { MemoryError } from '../errors.js';
import { COMMANDS } from './registry.js';
import { speakCli, speakText, spellingsOf } from './speak.js';

const memory = COMMANDS.memory.grammar;
const spell = spellingsOf(memory, memory.options, 'str-replace');

describe("errors in the command line's words", () => {
  it('spells each argument as the option that fills it, the first option when several do', () => {
    expect(spell.get('old_string')).toEqual({ cli: '--old', flag: false });
    expect(spell.get('replace_all')).toEqual({ cli: '--all', flag: true });
    expect(spell.get('file_text')?.cli).toBe('--text');
    expect(spell.get('insert_text')?.cli).toBe('--text');
    expect(spell.get('file_path')?.cli).toBe('<path>');
  });

  it('rewrites quoted names, bare snake_case names and `flag: true`, never a plain word, a path or a quoted value', () => {
    expect(speakText("memory str_replace: 'old_string' must be a non-empty string", spell)).toBe(
      'memory str-replace: --old must be a non-empty string',
    );
    expect(
      speakText(
        'memory str_replace: old_string matches 2 times (lines 4, 6); add context, or pass replace_all: true',
        spell,
      ),
    ).toBe('memory str-replace: --old matches 2 times (lines 4, 6); add context, or pass --all');
    expect(speakText("memory: 'reason' must be a non-empty string", spell)).toBe(
      'memory: --reason must be a non-empty string',
    );
    expect(speakText('give a reason and a description', spell)).toBe('give a reason and a description');
    for (const untouched of [
      'no memory file at notes/old_string.md',
      'no file old_string.md',
      'got "old_string"',
      'x_old_string y',
      'old_string-2',
    ]) {
      expect(speakText(untouched, spell)).toBe(untouched);
    }
    expect(speakText('memory_apply_patch: bad', spell)).toBe('memory apply-patch: bad');
  });

  it("keeps the library's names for a call written in them (memory tool), and for other commands' words", () => {
    const verbatim = spellingsOf(memory, memory.options, 'tool');
    expect(speakText("memory str_replace: 'old_string' must be a non-empty string", verbatim)).toBe(
      "memory str_replace: 'old_string' must be a non-empty string",
    );
    const revert = spellingsOf(COMMANDS.revert.grammar, COMMANDS.revert.grammar.options, undefined);
    expect(speakText("'old_string' and 'reason'", revert)).toBe("'old_string' and --reason");
  });

  it('keeps the code and data of the error, adds the option the field names, and leaves other errors alone', () => {
    const err = new MemoryError('INVALID_ARGUMENT', "memory insert: 'insert_line' must be a whole number", {
      data: { field: 'insert_line', path: 'a.md' },
    });
    const spoken = speakCli(err, spell) as MemoryError;
    expect(spoken).toBeInstanceOf(MemoryError);
    expect({ code: spoken.code, message: spoken.message, data: spoken.data }).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'memory insert: --line must be a whole number',
      data: { field: 'insert_line', path: 'a.md', option: '--line' },
    });
    const plain = new Error('old_string');
    expect(speakCli(plain, spell)).toBe(plain);
    const unrelated = new MemoryError('NO_CHANGES', 'nothing changed');
    expect(speakCli(unrelated, spell)).toBe(unrelated);
  });
});
