import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { checkRange, formatSize, renderDirectoryView, renderFileView, VIEW_LIMITS } from './view-format.js';

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

async function sdkTool(): Promise<BetaLocalFilesystemMemoryTool> {
  const base = makeTmpDir('gitmem-sdk-');
  const root = join(base, 'memories');
  for (const [path, text] of Object.entries(TEXTS)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return BetaLocalFilesystemMemoryTool.init(base);
}

describe('view format (the Anthropic memory tool, string for string)', () => {
  it('renders a file exactly as the SDK does, whole and by range', async () => {
    const sdk = await sdkTool();
    for (const [path, text] of Object.entries(TEXTS)) {
      const shown = `/memories/${path}`;
      expect(renderFileView(shown, text).text).toBe(await sdk.view({ command: 'view', path: shown }));
      const lines = text.split('\n').length;
      for (const range of [[1, -1], [1, 1], [lines, -1], [1, lines]] as Array<[number, number]>) {
        expect(renderFileView(shown, text, range).text).toBe(await sdk.view({ command: 'view', path: shown, view_range: range }));
      }
    }
  });

  it('renders a directory two levels deep like the SDK (directory sizes are gitmem\'s own: bytes below)', async () => {
    const sdk = await sdkTool();
    const files = Object.entries(TEXTS).map(([rel, text]) => ({ rel, size: Buffer.byteLength(text) }));
    const ours = renderDirectoryView('/memories', files).text.split('\n');
    const theirs = (await sdk.view({ command: 'view', path: '/memories' })).split('\n');
    const sizeOfDirsOff = (lines: string[]) => lines.map((l) => (l.endsWith('/') || l.endsWith('\t/memories') ? l.replace(/^[^\t]*\t/, '<dir>\t') : l));
    expect(sizeOfDirsOff(ours)).toEqual(sizeOfDirsOff(theirs));
    expect(ours).toContain('1.5K\t/memories/notes/b.md');
    expect(ours).not.toContain('2B\t/memories/notes/deep/deeper/d.md'); // two levels only
  });

  it('shows descriptions after markdown files and root entries as plain memory paths', () => {
    const r = renderDirectoryView('/', [{ rel: 'system/human.md', size: 10, description: 'who I work with' }, { rel: 'top.md', size: 4 }]);
    expect(r.text.split('\n')).toEqual([
      "Here're the files and directories up to 2 levels deep in /, excluding hidden items and node_modules:",
      '14B\t/',
      '10B\tsystem/',
      '10B\tsystem/human.md — who I work with',
      '4B\ttop.md',
    ]);
  });

  it('formats sizes like the SDK', () => {
    expect([0, 1, 1023, 1024, 1536, 1024 * 1024, 5 * 1024 ** 3].map(formatSize)).toEqual(['0B', '1B', '1023B', '1K', '1.5K', '1M', '5G']);
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
    expect(r.text.split('\n').at(-1)).toBe(`[truncated: lines 1-${VIEW_LIMITS.maxLines} of ${VIEW_LIMITS.maxLines + 10} shown; view_range [${VIEW_LIMITS.maxLines + 1}, -1] shows the rest]`);
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
