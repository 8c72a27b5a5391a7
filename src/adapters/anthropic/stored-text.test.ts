import { describe, expect, it } from 'vitest';
import { tryParseMemoryFile } from '../../blocks/frontmatter.js';
import { findProblems } from '../../blocks/validate.js';
import { rng } from '../../../test/helpers/rng.js';
import { HIDDEN_MARK, hiddenBlock, hiddenLength, storedText, visibleText } from './stored-text.js';

const block = (d: string): string => `---\ndescription: ${d}\n${HIDDEN_MARK}\n---\n`;
const valid = (file: string, text: string, head: string | null = null): boolean =>
  findProblems([{ status: head === null ? 'added' : 'modified', path: file, content: text, headContent: head }], {
    secrets: false,
  }).length === 0;

/** Seeded texts a model might write: frontmatter or not, valid or not, CRLF, a BOM, the mark itself. */
function texts(seed: number, n: number): string[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const parts = [
    '---',
    'description: d',
    'title: t',
    'read_only: true',
    'limit: 3',
    '# Head',
    'plain',
    '',
    ' ',
    HIDDEN_MARK,
    '\ufeff',
    'a\r',
    'x: [1',
  ];
  return Array.from(
    { length: n },
    () =>
      Array.from({ length: Math.floor(r() * 7) }, () => pick(parts)).join(pick(['\n', '\n', '\r\n'])) +
      pick(['', '\n']),
  );
}

describe('what is stored for a text the model wrote', () => {
  it('stores plain files exactly, and a markdown text without valid frontmatter under a hidden block', () => {
    expect(storedText('notes/a.txt', 'x', null)).toBe('x');
    expect(storedText('notes/a.json', '---\ntitle: x\n---\n', null)).toBe('---\ntitle: x\n---\n');
    expect(storedText('notes/a.md', '# Alpha\nbody', null)).toBe(`${block('Alpha')}# Alpha\nbody`);
    expect(storedText('notes/a.md', '', null)).toBe(`${block('Memory file notes/a.md')}`);
  });

  it("keeps frontmatter the validator accepts as the model's own, and hides only gitmem's", () => {
    const own = '---\ndescription: Mine\n---\nbody\n';
    expect(storedText('notes/a.md', own, null)).toBe(own);
    expect(visibleText(own)).toBe(own);
    // Not a memory file as it stands (unknown key, no description, read_only set, not YAML): wrapped, described from it.
    expect(storedText('notes/a.md', '---\ntitle: T\ndescription: Theirs\n---\nb', null)).toBe(
      `${block('Theirs')}---\ntitle: T\ndescription: Theirs\n---\nb`,
    );
    expect(storedText('notes/a.md', '---\ndescription: x\nread_only: true\n---\n', null).startsWith(block('x'))).toBe(
      true,
    );
    expect(storedText('notes/a.md', '---\nx: [1\n---\n# H\n', null)).toBe(`${block('H')}---\nx: [1\n---\n# H\n`);
  });

  it('keeps the hidden block an edit finds (its description too), and drops it when the text brings valid frontmatter', () => {
    const before = `---\ndescription: Set by someone\n${HIDDEN_MARK}\n---\nold`;
    expect(storedText('notes/a.md', 'new', before)).toBe(`---\ndescription: Set by someone\n${HIDDEN_MARK}\n---\nnew`);
    expect(storedText('notes/a.md', '---\ndescription: own\n---\nnew', before)).toBe('---\ndescription: own\n---\nnew');
    // A move to a SKILL.md needs a name: a new block.
    expect(storedText('skills/git/SKILL.md', 'how to', before)).toBe(
      hiddenBlock('skills/git/SKILL.md', 'how to') + 'how to',
    );
    expect(hiddenBlock('skills/git/SKILL.md', 'how to')).toBe(
      `---\nname: git\ndescription: how to\n${HIDDEN_MARK}\n---\n`,
    );
  });

  it('hides only a block gitmem wrote: LF lines, the mark inside, closed by exactly ---', () => {
    expect(hiddenLength(`${block('d')}x`)).toBe(block('d').length);
    expect(hiddenLength('---\ndescription: d\n---\nx')).toBe(0);
    expect(hiddenLength(`---\r\ndescription: d\r\n${HIDDEN_MARK}\r\n---\r\nx`)).toBe(0);
    expect(hiddenLength(`---\ndescription: d\n${HIDDEN_MARK}\n---`)).toBe(0);
    expect(hiddenLength(`---\ndescription: d\n${HIDDEN_MARK}\n---  \nx`)).toBe(0);
    expect(hiddenLength(`\ufeff${block('d')}`)).toBe(0);
  });

  it('round-trips every text, and what it stores at a .md path is a valid memory file (seeded texts)', () => {
    for (const [i, text] of texts(25, 1500).entries()) {
      for (const previous of [null, `${block('kept')}old\n`, '---\ndescription: own\n---\nold\n']) {
        const stored = storedText('notes/a.md', text, previous);
        expect(visibleText(stored), `#${i} ${JSON.stringify(text)}`).toBe(text);
        expect(valid('notes/a.md', stored, previous), `#${i} ${JSON.stringify(stored)}`).toBe(true);
        expect(tryParseMemoryFile(stored)?.data['description'], `#${i}`).toBeTruthy();
      }
      expect(storedText('notes/a.txt', text, null)).toBe(text);
    }
  });
});
