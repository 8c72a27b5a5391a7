import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { fileLines, lineCount, numberLines } from '../memfs/line-numbers.js';
import { checkRange, EMPTY_FILE, formatSize, renderDirectoryView, renderFileView, VIEW_LIMITS } from './view-format.js';

afterAll(cleanupTmp);

const TEXTS: Record<string, string> = {
  'a.md': '---\ndescription: A\n---\nfirst\nsecond\n',
  'no-newline.txt': 'one\ntwo',
  'empty.md': '',
  'crlf.md': 'x\r\ny\r\n',
  'notes/b.md': 'b'.repeat(1536),
  'notes/deep/c.md': 'c\n',
  'notes/deep/deeper/d.md': 'd\n',
  '.hidden/e.md': 'e\n',
  'node_modules/f.md': 'f\n',
};

async function sdkTool(texts: Record<string, string> = TEXTS): Promise<BetaLocalFilesystemMemoryTool> {
  const base = makeTmpDir('gitmem-sdk-');
  const root = join(base, 'memories');
  for (const [path, text] of Object.entries(texts)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return BetaLocalFilesystemMemoryTool.init(base);
}

/** mulberry32: seeded, so a failure names a text that reproduces. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Texts made of words, spaces, tabs and every kind of line end, sometimes with a BOM. */
function randomTexts(count: number, seed: number): string[] {
  const random = rng(seed);
  const pieces = ['a', 'bc', ' ', '\t', 'é', '\n', '\n', '\r\n', '\r', '\n\n'];
  return Array.from({ length: count }, () => {
    let t = random() < 0.15 ? '\ufeff' : '';
    const n = Math.floor(random() * 12);
    for (let i = 0; i < n; i++) t += pieces[Math.floor(random() * pieces.length)];
    return t;
  });
}

describe('view format (the Anthropic memory tool, string for string)', () => {
  it('renders a file with LF line ends and no final newline exactly as the SDK does, whole and by range', async () => {
    const same: Record<string, string> = Object.fromEntries(
      Object.entries(TEXTS)
        .map(([p, t]): [string, string] => [p, t.replace(/\r\n/g, '\n').replace(/\n$/, '')])
        .filter(([, t]) => t !== ''),
    );
    const sdk = await sdkTool(same);
    for (const [path, text] of Object.entries(same)) {
      const shown = `/memories/${path}`;
      expect(renderFileView(shown, text).text).toBe(await sdk.view({ command: 'view', path: shown }));
      const lines = text.split('\n').length;
      for (const range of [
        [1, -1],
        [1, 1],
        [lines, -1],
        [1, lines],
      ] as Array<[number, number]>) {
        expect(renderFileView(shown, text, range).text).toBe(
          await sdk.view({ command: 'view', path: shown, view_range: range }),
        );
      }
    }
  });

  it("numbers the lines gitmem's tool counts where the SDK splits on LF alone", async () => {
    // Each row: the file, what the SDK shows after its header, what gitmem shows (the lines insert_line counts).
    const rows: Array<[string, string, string]> = [
      ['a\nb\n', '     1\ta\n     2\tb\n     3\t', '     1\ta\n     2\tb'], // a final newline starts no line
      ['a\r\nb', '     1\ta\r\n     2\tb', '     1\ta\n     2\tb'], // CRLF is one line end, the CR not shown
      ['a\rb\rc', '     1\ta\rb\rc', '     1\ta\n     2\tb\n     3\tc'], // a lone CR ends a line
      ['\ufeffa\nb', '     1\t\ufeffa\n     2\tb', '     1\ta\n     2\tb'], // a BOM is not text
      ['\n\n', '     1\t\n     2\t\n     3\t', '     1\t\n     2\t'], // only newlines: one line each
      ['', '     1\t', EMPTY_FILE], // an empty file has no lines
    ];
    const sdk = await sdkTool(Object.fromEntries(rows.map(([text], i) => [`r${i}.txt`, text])));
    for (const [i, [text, theirs, ours]] of rows.entries()) {
      const header = `Here's the content of /memories/r${i}.txt with line numbers:\n`;
      expect(await sdk.view({ command: 'view', path: `/memories/r${i}.txt` }), JSON.stringify(text)).toBe(
        header + theirs,
      );
      expect(renderFileView(`/memories/r${i}.txt`, text).text, JSON.stringify(text)).toBe(header + ours);
    }
  });

  it('shows any text as the SDK shows its lines joined by LF (seeded texts), numbered as numberLines does', async () => {
    const texts = randomTexts(300, 12);
    const canonical = texts.map((t) => fileLines(t).join('\n'));
    const sdk = await sdkTool(Object.fromEntries(canonical.map((t, i) => [`t${i}.txt`, t])));
    for (const [i, text] of texts.entries()) {
      const ours = renderFileView(`/memories/t${i}.txt`, text).text;
      const body = ours.slice(ours.indexOf('\n') + 1);
      expect(body, JSON.stringify(text)).toBe(fileLines(text).length === 0 ? EMPTY_FILE : numberLines(text));
      expect(body.split('\n').length, JSON.stringify(text)).toBe(Math.max(1, lineCount(text)));
      if (canonical[i] !== '')
        expect(ours, JSON.stringify(text)).toBe(await sdk.view({ command: 'view', path: `/memories/t${i}.txt` }));
    }
  });

  it("renders a directory two levels deep like the SDK (directory sizes are gitmem's own: bytes below)", async () => {
    const sdk = await sdkTool();
    const files = Object.entries(TEXTS).map(([rel, text]) => ({ rel, size: Buffer.byteLength(text) }));
    const ours = renderDirectoryView('/memories', files).text.split('\n');
    const theirs = (await sdk.view({ command: 'view', path: '/memories' })).split('\n');
    const sizeOfDirsOff = (lines: string[]) =>
      lines.map((l) => (l.endsWith('/') || l.endsWith('\t/memories') ? l.replace(/^[^\t]*\t/, '<dir>\t') : l));
    expect(sizeOfDirsOff(ours)).toEqual(sizeOfDirsOff(theirs));
    expect(ours).toContain('1.5K\t/memories/notes/b.md');
    expect(ours).not.toContain('2B\t/memories/notes/deep/deeper/d.md'); // two levels only
  });

  it('shows descriptions after markdown files and root entries as plain memory paths', () => {
    const r = renderDirectoryView('/', [
      { rel: 'system/human.md', size: 10, description: 'who I work with' },
      { rel: 'top.md', size: 4 },
    ]);
    expect(r.text.split('\n')).toEqual([
      "Here're the files and directories up to 2 levels deep in /, excluding hidden items and node_modules:",
      '14B\t/',
      '10B\tsystem/',
      '10B\tsystem/human.md — who I work with',
      '4B\ttop.md',
    ]);
  });

  it('formats sizes like the SDK', () => {
    expect([0, 1, 1023, 1024, 1536, 1024 * 1024, 5 * 1024 ** 3].map(formatSize)).toEqual([
      '0B',
      '1B',
      '1023B',
      '1K',
      '1.5K',
      '1M',
      '5G',
    ]);
  });

  it('refuses ranges that do not fit the file', () => {
    for (const bad of [[0, 2], [3, 2], [5, -1], [1.5, 2], [1], 'x', [1, -2]]) {
      expect(() => checkRange(bad, 4), JSON.stringify(bad)).toThrow(/view_range/);
    }
    expect(checkRange([2, 99], 4)).toEqual([1, 4]);
  });

  it('bounds a long file and a big directory, and says so', () => {
    const text = Array.from({ length: VIEW_LIMITS.maxLines + 10 }, (_, i) => `line ${i + 1}`).join('\n');
    const r = renderFileView('big.md', text);
    expect(r.truncated).toBe(true);
    expect(r.text.split('\n').at(-1)).toBe(
      `[truncated: lines 1-${VIEW_LIMITS.maxLines} of ${VIEW_LIMITS.maxLines + 10} shown; view_range [${VIEW_LIMITS.maxLines + 1}, -1] shows the rest]`,
    );
    const wide = renderFileView('wide.md', 'x'.repeat(VIEW_LIMITS.maxChars * 2));
    expect(wide.text.length).toBeLessThan(VIEW_LIMITS.maxChars * 2 + 200); // one line is always shown
    const files = Array.from({ length: VIEW_LIMITS.maxEntries + 5 }, (_, i) => ({ rel: `f${i}.md`, size: 1 }));
    const d = renderDirectoryView('/', files);
    expect(d.truncated).toBe(true);
    expect(d.text.split('\n').at(-1)).toBe('[truncated: 5 more entries not shown; view a subdirectory to see them]');
  });

  it('never lets a control character in a name break the one-entry-per-line shape', () => {
    const r = renderDirectoryView('/', [{ rel: 'a\nb.md', size: 1 }]);
    expect(r.text.split('\n')).toHaveLength(3);
  });
});
