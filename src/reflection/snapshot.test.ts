import { describe, expect, it } from 'vitest';
import { buildParentSnapshot, previewNotice, shrinkSnapshot, SHRUNK_NOTICE } from './snapshot.js';

const md = (description: string, body: string) => `---\ndescription: ${description}\n---\n${body}`;

describe('parent memory snapshot', () => {
  it('shows the tree with descriptions of non-system files and inlines only system files', () => {
    const s = buildParentSnapshot([
      { path: 'system/human.md', content: md('The user', 'Prefers tabs.\n') },
      { path: 'project/notes.md', content: md('Project notes', 'secret body\n') },
      { path: '.hidden/x.md', content: md('x', 'x') },
    ]);
    expect(s.text).toMatch(/^<parent_memory>\n<memory_filesystem>\n\$MEMORY_DIR\//);
    expect(s.text).toContain('notes.md — Project notes');
    expect(s.text).toContain(
      '<memory>\n<path>$MEMORY_DIR/system/human.md</path>\n---\ndescription: The user\n---\nPrefers tabs.\n',
    );
    expect(s.text).not.toContain('secret body');
    expect(s.text).not.toContain('.hidden');
    expect(s.text.endsWith('</parent_memory>')).toBe(true);
    expect(s.stats).toMatchObject({ full: ['system/human.md'], truncated: [], omitted: 0, chars: s.text.length });
    expect(buildParentSnapshot([]).text).toContain('(no memory markdown files found)');
  });

  it('degrades within the budget: truncate with a notice naming the full path, then notice only, then count omissions', () => {
    const big = (n: number) => ({ path: `system/f${n}.md`, content: md(`file ${n}`, `${'x'.repeat(3000)}\n`) });
    const s = buildParentSnapshot([big(1), big(2), big(3), big(4)], { budget: 4_500 });
    console.info(`[snapshot] degraded snapshot ${s.text.length}/${4_500} chars: ${JSON.stringify(s.stats)}`);
    expect(s.text.length).toBeLessThanOrEqual(4_500);
    expect(s.stats.full).toEqual(['system/f1.md']);
    expect(s.stats.truncated).toEqual(['system/f2.md']);
    expect(s.text).toContain(previewNotice('system/f2.md', 'truncated'));
    expect(s.text).toContain('$MEMORY_DIR/system/f2.md');
    expect(s.stats.noticeOnly.length + s.stats.omitted).toBe(2);
    expect(s.text).toContain('<memory_filesystem>');
  });

  it('the second guard keeps the tree and drops file contents, then keeps only the notice', () => {
    const s = buildParentSnapshot([{ path: 'system/a.md', content: md('a', 'y'.repeat(5000)) }]);
    expect(shrinkSnapshot(s, 0, 64_000)).toBe(s.text);
    const treeOnly = shrinkSnapshot(s, 64_000 - 500, 64_000);
    expect(treeOnly).toContain('<memory_filesystem>');
    expect(treeOnly).toContain(SHRUNK_NOTICE);
    expect(treeOnly).not.toContain('yyyy');
    expect(shrinkSnapshot(s, 64_000 - 10, 64_000)).toBe(`<parent_memory>\n${SHRUNK_NOTICE}\n</parent_memory>`);
  });
});
