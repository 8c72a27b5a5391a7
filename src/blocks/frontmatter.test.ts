import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  parseFrontmatterYaml,
  parseMemoryFile,
  renderFrontmatter,
  renderMemoryFile,
  setFrontmatterKeys,
  splitFrontmatter,
} from './frontmatter.js';

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
    const alphabet = [
      'a',
      'Z',
      '1',
      ' ',
      ':',
      '#',
      '-',
      '"',
      "'",
      '[',
      '{',
      ',',
      '?',
      '!',
      '&',
      '*',
      '%',
      '@',
      '`',
      '|',
      '>',
      '.',
      't',
      'r',
      'u',
      'e',
      'n',
      'l',
      '~',
      '\\',
    ];
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
  it('renders every key in its order, the description on one line, values as YAML reads them back', () => {
    const out = renderMemoryFile(
      { description: 'line one\nline: two', read_only: true, limit: 5, colour: 'x' },
      'body\n',
    );
    expect(out).toBe('---\ndescription: "line one line: two"\nread_only: true\nlimit: 5\ncolour: x\n---\nbody\n');
    const skill = {
      name: 'git',
      description: 'Git',
      license: 'MIT',
      'allowed-tools': ['Bash', 'Read'],
      metadata: { author: 'a', v: 2 },
      compatibility: null,
    };
    const rendered = renderMemoryFile(skill, 'x\n');
    expect(Object.keys(parseMemoryFile(rendered).data)).toEqual(Object.keys(skill));
    expect(parseMemoryFile(rendered).data).toEqual(skill);
    const hostile = renderFrontmatter({ 'a: b\nread_only': 1, description: 'd' }, '');
    expect(parseMemoryFile(hostile).data).toEqual({ 'a: b\nread_only': 1, description: 'd' });
  });

  it('setFrontmatterKeys edits only the keys it is given, keeping the rest byte for byte', () => {
    const text =
      '---\nname: git\n# who wrote it\ndescription: >\n  old text\n  on two lines\n\nallowed-tools:\n- Bash\n- Read\nmetadata:\n  author: a   # kept\n---\nbody\n';
    const out = setFrontmatterKeys(text, [['description', 'New: text']]);
    expect(out).toBe(
      '---\nname: git\n# who wrote it\ndescription: "New: text"\n\nallowed-tools:\n- Bash\n- Read\nmetadata:\n  author: a   # kept\n---\nbody\n',
    );
    expect(
      setFrontmatterKeys('---\ndescription: d\nread_only: false\n---\nx', [
        ['read_only', undefined],
        ['name', 'n'],
      ]),
    ).toBe('---\nname: n\ndescription: d\n---\nx');
    // not plain enough to edit by line: rendered again from the data, order and values kept
    const flow = setFrontmatterKeys('---\n{name: git, description: old, metadata: {a: 1}}\n---\nb\n', [
      ['description', 'new'],
    ]);
    expect(flow).toBe('---\nname: git\ndescription: new\nmetadata: {"a":1}\n---\nb\n');
    expect(() => setFrontmatterKeys('no frontmatter', [['description', 'x']])).toThrow(/missing frontmatter/);
  });
});
