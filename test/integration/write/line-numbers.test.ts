/**
 * One line count for every view of a file and every command that names a line: `view` line N is the line
 * `insert_line: N` inserts after, the line AMBIGUOUS_MATCH reports for a match on it, and the line a search hit
 * on it reports — for LF, CRLF, lone CR, mixed endings, a BOM, a final newline or none, blank lines, a file of
 * only newlines and an empty file, in plain files and in markdown with frontmatter. Files are committed raw
 * (a shell commit), as an editor or another tool would leave them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

interface Case {
  name: string;
  path: string;
  text: string;
  /** The lines the tool counts, as `view` must show them. */
  lines: string[];
  /** Lines 1..frontmatter hold the frontmatter (markdown only): insert and str_replace work on the body. */
  frontmatter: number;
}

const plain = (name: string, text: string, lines: string[]): Case => ({
  name,
  path: `lines/${name}.txt`,
  text,
  lines,
  frontmatter: 0,
});
const CASES: Case[] = [
  plain('lf-final', 'alpha\nbeta\ngamma\n', ['alpha', 'beta', 'gamma']),
  plain('lf-no-final', 'alpha\nbeta\ngamma', ['alpha', 'beta', 'gamma']),
  plain('crlf', 'alpha\r\nbeta\r\ngamma\r\n', ['alpha', 'beta', 'gamma']),
  plain('crlf-no-final', 'alpha\r\nbeta\r\ngamma', ['alpha', 'beta', 'gamma']),
  plain('lone-cr', 'alpha\rbeta\rgamma\r', ['alpha', 'beta', 'gamma']),
  plain('mixed', 'alpha\r\nbeta\rgamma\ndelta', ['alpha', 'beta', 'gamma', 'delta']),
  plain('bom', '\ufeffalpha\nbeta\ngamma\n', ['alpha', 'beta', 'gamma']),
  plain('bom-crlf', '\ufeffalpha\r\nbeta\r\n', ['alpha', 'beta']),
  plain('blank-lines', '\n\nalpha\n\nbeta\n\n', ['', '', 'alpha', '', 'beta', '']),
  plain('only-newlines', '\n\n\n', ['', '', '']),
  plain('only-crs', '\r\r', ['', '']),
  plain('empty', '', []),
  plain('one-line', 'alpha', ['alpha']),
  {
    name: 'markdown-crlf',
    path: 'lines/markdown-crlf.md',
    text: '\ufeff---\r\ndescription: lines\r\n---\r\nalpha\r\nbeta\r\ngamma\r\n',
    lines: ['---', 'description: lines', '---', 'alpha', 'beta', 'gamma'],
    frontmatter: 3,
  },
  {
    name: 'markdown-cr',
    path: 'lines/markdown-cr.md',
    text: '---\rdescription: lines\r---\ralpha\rbeta a\r',
    lines: ['---', 'description: lines', '---', 'alpha', 'beta a'],
    frontmatter: 3,
  },
];

let fx: MemoryFixture;

function commitRaw(path: string, text: string): void {
  mkdirSync(join(fx.dir, path, '..'), { recursive: true });
  writeFileSync(join(fx.dir, path), text);
  git(fx.dir, ['add', path], fx.env);
  git(fx.dir, ['commit', '-q', '--no-verify', '-m', `raw ${path}`], fx.env);
}

/** `view`'s numbered lines, checked to be numbered 1, 2, … in the view's own format. */
async function viewLines(path: string): Promise<string[]> {
  const { text } = await fx.memory.view(path);
  const [header, ...rest] = text.split('\n');
  expect(header).toBe(`Here's the content of ${path} with line numbers:`);
  const numbered = rest.filter((l) => /^ {0,5}\d+\t/.test(l));
  numbered.forEach((l, i) => expect(l.slice(0, 7), path).toBe(`${String(i + 1).padStart(6)}\t`));
  return numbered.map((l) => l.slice(7));
}

async function refusal(call: Record<string, unknown>): Promise<{ code: string; data: Record<string, unknown> }> {
  try {
    await fx.memory.tool({ reason: 'r', ...call });
  } catch (err) {
    if (isMemoryError(err)) return { code: err.code, data: (err.data ?? {}) as Record<string, unknown> };
    throw err;
  }
  throw new Error(`expected a refusal of ${JSON.stringify(call)}`);
}

beforeAll(async () => {
  fx = await memoryFixture('lines');
  for (const c of CASES) commitRaw(c.path, c.text);
});

describe('line numbers agree between view, insert, AMBIGUOUS_MATCH and search', () => {
  it('view numbers exactly the lines the tool counts', async () => {
    for (const c of CASES) expect(await viewLines(c.path), c.name).toEqual(c.lines);
  });

  it('insert_line N inserts after view line N, for every N the view allows, and nothing past it', async () => {
    for (const c of CASES) {
      for (let n = c.frontmatter; n <= c.lines.length; n++) {
        try {
          await fx.memory.tool({
            command: 'insert',
            reason: 'r',
            file_path: c.path,
            insert_line: n,
            insert_text: 'INSERTED',
          });
          const after = await viewLines(c.path);
          expect(after, `${c.name} @ ${n}`).toEqual([...c.lines.slice(0, n), 'INSERTED', ...c.lines.slice(n)]);
        } finally {
          commitRaw(c.path, c.text);
        }
      }
      const past = await refusal({
        command: 'insert',
        file_path: c.path,
        insert_line: c.lines.length + 1,
        insert_text: 'x',
      });
      expect(past.code, c.name).toBe('INVALID_ARGUMENT');
    }
  });

  it('AMBIGUOUS_MATCH reports the view lines that hold the matches, each once', async () => {
    for (const c of CASES) {
      const body = c.lines.slice(c.frontmatter);
      const matches = body.flatMap((line, i) =>
        Array.from({ length: line.split('a').length - 1 }, () => c.frontmatter + i + 1),
      );
      if (matches.length < 2) continue;
      const expected = [...new Set(matches)]; // each line once, however many matches it holds
      const r = await refusal({ command: 'str_replace', file_path: c.path, old_string: 'a', new_string: 'b' });
      expect(r.code, c.name).toBe('AMBIGUOUS_MATCH');
      expect(r.data['lines'], c.name).toEqual(expected.slice(0, 20));
      expect(r.data['matches'], c.name).toBe(matches.length);
      for (const n of expected) expect(c.lines[n - 1], c.name).toContain('a');
    }
  });

  it('a search hit reports the view line of the word it matched', async () => {
    for (const c of CASES) {
      const view = await viewLines(c.path);
      for (const word of ['alpha', 'beta', 'gamma', 'delta']) {
        const n = view.findIndex((l) => l.split(' ').includes(word)) + 1;
        if (n === 0) continue;
        const hit = (await fx.memory.search(word, { paths: c.path })).find((h) => h.path === c.path);
        expect(hit?.line, `${c.name}: ${word}`).toBe(n);
        expect(hit?.snippet, `${c.name}: ${word}`).toBe(view[n - 1]?.trim());
      }
    }
  });
});
