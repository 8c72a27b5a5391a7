import { describe, expect, it } from 'vitest';
import { errorCodeOf } from '../../test/helpers/errors.js';
import { normalizeMemoryPath } from './paths.js';

const o = { memoryDir: '/m', field: 'file_path' };
const code = (p: string): string | undefined => errorCodeOf(() => normalizeMemoryPath(p, o));

describe('normalizeMemoryPath', () => {
  it('normalises ordinary paths (label without .md, the legacy memory/ prefix, absolute inside)', () => {
    expect(normalizeMemoryPath('notes/a', o)).toEqual({ label: 'notes/a', file: 'notes/a.md' });
    expect(normalizeMemoryPath('memory/notes/a.md', o)).toEqual({ label: 'notes/a', file: 'notes/a.md' });
    expect(normalizeMemoryPath('/m/notes//a.md', o)).toEqual({ label: 'notes/a', file: 'notes/a.md' });
  });
  it('keeps a path with another extension as that plain file; appends .md only without an extension', () => {
    expect(normalizeMemoryPath('notes/progress.json', o)).toEqual({
      label: 'notes/progress.json',
      file: 'notes/progress.json',
    });
    expect(normalizeMemoryPath('todo.txt', o).file).toBe('todo.txt');
    expect(normalizeMemoryPath('a.markdown', o).file).toBe('a.markdown');
    expect(normalizeMemoryPath('x.MD', o).file).toBe('x.MD');
    expect(normalizeMemoryPath('.env', o).file).toBe('.env.md'); // a dotfile has no extension
    expect(normalizeMemoryPath('v1.2/notes', o).file).toBe('v1.2/notes.md');
  });
  it('refuses every .git look-alike, in any component, label or file', () => {
    for (const p of [
      'x/.git/config',
      '.GIT/config',
      '.Git/hooks/x',
      '.git./x',
      '.git /x',
      'git~1/x',
      '.g\u200cit/x',
      '.git::$INDEX_ALLOCATION/x',
      '.git',
      '.git.md',
      'a/.GIT.md',
    ]) {
      expect(code(p), p).toBe('INVALID_PATH');
    }
    expect(normalizeMemoryPath('.github/notes.md', o).file).toBe('.github/notes.md');
  });
  it('refuses control characters, lone surrogates, long components and deep paths', () => {
    for (const p of ['a\nb.md', 'a\u0007.md', '\ud800.md', `${'x'.repeat(300)}.md`, `${'d/'.repeat(40)}x.md`])
      expect(code(p), JSON.stringify(p)).toBe('INVALID_PATH');
  });
  it('refuses a 50,000-segment path on its length alone, with a short message', () => {
    const huge = `${'a/'.repeat(50_000)}b.md`;
    let message = '';
    try {
      normalizeMemoryPath(huge, o);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/at most 1024 bytes/);
    expect(message.length).toBeLessThan(200);
  });
});
