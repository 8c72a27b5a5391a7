import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { compilePrompt } from './compile-prompt.js';
import { applyPromptTemplate } from './prompt-template.js';

const FILES = [{ path: 'system/persona.md', content: '---\ndescription: me\n---\nI help.\n' }];

describe('applyPromptTemplate (SPEC B1.27)', () => {
  it('replaces every {CORE_MEMORY}, literally', () => {
    expect(applyPromptTemplate('A {CORE_MEMORY} B {CORE_MEMORY} C', 'M')).toBe('A M B M C');
    // `$&` and `$1` are replacement patterns for String.replace; the memory must stay as written.
    expect(applyPromptTemplate('[{CORE_MEMORY}]', 'cost $& and $1')).toBe('[cost $& and $1]');
  });

  it('appends the memory after one blank line when there is no placeholder', () => {
    expect(applyPromptTemplate('You are Ada.', 'M')).toBe('You are Ada.\n\nM');
    expect(applyPromptTemplate('You are Ada.\n\n\n', 'M')).toBe('You are Ada.\n\nM');
    expect(applyPromptTemplate('', 'M')).toBe('M');
    expect(applyPromptTemplate('{core_memory} is not it', 'M')).toBe('{core_memory} is not it\n\nM');
  });

  it('refuses a non-string or an absurdly large template', () => {
    const refused = (t: unknown): string | undefined => {
      try {
        applyPromptTemplate(t as string, 'M');
      } catch (err) {
        return isMemoryError(err) ? err.code : 'other';
      }
      return undefined;
    };
    expect(refused(42)).toBe('INVALID_ARGUMENT');
    expect(refused('x'.repeat(1_000_001))).toBe('INVALID_ARGUMENT');
  });
});

describe('compilePrompt({ template })', () => {
  it('puts the compiled memory (without the preset) where the placeholder is', () => {
    const memory = compilePrompt(FILES, { template: '' });
    const preset = compilePrompt(FILES);
    expect(preset.endsWith(memory)).toBe(true);
    expect(memory.startsWith(preset)).toBe(false); // the preset text is gone
    expect(compilePrompt(FILES, { template: 'HEAD\n{CORE_MEMORY}\nTAIL' })).toBe(`HEAD\n${memory}\nTAIL`);
    expect(compilePrompt(FILES, { template: 'Mine.\n' })).toBe(`Mine.\n\n${memory}`);
    expect(memory).toContain('I help.');
  });

  it('refuses a template with a preset', () => {
    expect(() => compilePrompt(FILES, { template: 'x', preset: 'plain' })).toThrow(/template/);
  });
});
