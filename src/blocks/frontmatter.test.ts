import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseFrontmatterYaml, parseMemoryFile, renderMemoryFile, splitFrontmatter } from './frontmatter.js';

const YAML = createRequire(import.meta.url)('yaml') as { parse: (s: string) => unknown };

describe('frontmatter', () => {
  it('normalises BOM and CRLF on read', () => {
    const f = parseMemoryFile('\uFEFF---\r\ndescription: hi\r\n---\r\nbody\r\n');
    expect(f).toEqual({ data: { description: 'hi' }, body: 'body\n' });
  });
  it('reports missing and unclosed frontmatter', () => {
    expect(splitFrontmatter('hello').kind).toBe('none');
    expect(splitFrontmatter('---\ndescription: x\n').kind).toBe('unclosed');
  });
  it('parses real YAML (quotes, lists, colons) and rejects invalid YAML', () => {
    expect(parseFrontmatterYaml('description: "a: b"\nlimit: 10')).toEqual({ description: 'a: b', limit: 10 });
    expect(parseFrontmatterYaml('description: >\n  folded\n  text')).toEqual({ description: 'folded text\n' });
    expect(() => parseFrontmatterYaml('description: [unclosed')).toThrow(/not valid YAML/);
    expect(() => parseFrontmatterYaml('description: a\ndescription: b')).toThrow();
    expect(() => parseFrontmatterYaml('- a\n- b')).toThrow(/mapping/);
  });
  it('the fast path agrees with YAML on generated values', () => {
    const alphabet = ['a', 'Z', '1', ' ', ':', '#', '-', '"', "'", '[', '{', ',', '?', '!', '&', '*', '%', '@', '`', '|', '>', '.', 't', 'r', 'u', 'e', 'n', 'l', '~', '\\'];
    let seed = 42;
    const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 3000; i++) {
      const len = 1 + rand(8);
      let v = '';
      for (let j = 0; j < len; j++) v += alphabet[rand(alphabet.length)];
      const text = `description: ${v}`;
      let expected: unknown;
      try {
        expected = YAML.parse(text);
      } catch {
        expect(() => parseFrontmatterYaml(text), text).toThrow();
        continue;
      }
      if (expected === null || typeof expected !== 'object') continue;
      expect(parseFrontmatterYaml(text), JSON.stringify(text)).toEqual(expected);
    }
  });
  it('renders allowed keys in order with a one-line, safely quoted description', () => {
    const out = renderMemoryFile({ description: 'line one\nline: two', read_only: true, limit: 5, colour: 'x' }, 'body\n');
    expect(out).toBe('---\ndescription: "line one line: two"\nlimit: 5\nread_only: true\n---\nbody\n');
    expect(parseMemoryFile(out).data).toEqual({ description: 'line one line: two', limit: 5, read_only: true });
  });
});
