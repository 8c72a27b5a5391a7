import { describe, expect, it } from 'vitest';
import { clipDescription, renderTree, type TreeEntry } from './tree.js';
import { resolveTreeLimits } from '../config.js';
import { DEFAULT_TREE_LIMITS, type TreeLimits } from './tree-limits.js';

const limits = (over: Partial<TreeLimits> = {}): TreeLimits => ({ ...DEFAULT_TREE_LIMITS, ...over });
const files = (...paths: string[]): TreeEntry[] => paths.map((path) => ({ path }));

describe('renderTree', () => {
  it('starts with the root line, lists directories before files and draws branches', () => {
    const out = renderTree(files('zeta.md', 'notes/b.md', 'notes/a.md', 'alpha.md', 'archive/old/x.md'), limits());
    expect(out).toBe(
      [
        '/memory/',
        '├── archive/',
        '│   └── old/',
        '│       └── x.md',
        '├── notes/',
        '│   ├── a.md',
        '│   └── b.md',
        '├── alpha.md',
        '└── zeta.md',
      ].join('\n'),
    );
  });

  it('always shows the requested directories, even when empty, and honours a custom root', () => {
    expect(renderTree([], limits(), { alwaysShow: ['system'] })).toBe('/memory/\n└── system/');
    expect(renderTree(files('a.md'), limits(), { root: '$MEMORY_DIR/', alwaysShow: ['system'] })).toBe(
      '$MEMORY_DIR/\n├── system/\n└── a.md',
    );
  });

  it('orders names by a fixed locale collation with a stable tie-break, independent of input order', () => {
    const names = ['b.md', 'B.md', 'a.md', 'A.md', 'a10.md', 'a2.md', 'é.md', 'e.md'];
    const one = renderTree(files(...names), limits());
    const two = renderTree(files(...[...names].reverse()), limits());
    expect(one).toBe(two);
    const order = one
      .split('\n')
      .slice(1)
      .map((l) => l.slice(4));
    expect(order.indexOf('a.md')).toBeLessThan(order.indexOf('b.md'));
    expect(order.indexOf('A.md')).toBeLessThan(order.indexOf('b.md')); // case does not split the alphabet
    expect(order.indexOf('e.md')).toBeLessThan(order.indexOf('é.md'));
  });

  it('shows a description after an em dash, on one line and clipped to about 200 characters', () => {
    const long = 'x'.repeat(500);
    const out = renderTree(
      [
        { path: 'notes/a.md', description: 'Ideas\n   for later' },
        { path: 'notes/b.md', description: long },
        { path: 'notes/c.md', description: '   ' },
      ],
      limits(),
    );
    const lines = out.split('\n');
    expect(lines[2]).toBe('    ├── a.md — Ideas for later');
    expect(lines[3]?.endsWith('…')).toBe(true);
    expect(lines[3]?.length).toBe('    ├── b.md — '.length + 200);
    expect(lines[4]).toBe('    └── c.md');
    expect(clipDescription('short')).toBe('short');
  });

  it('caps children per directory with a thousands-formatted "more entries" marker as the last item', () => {
    const many = Array.from({ length: 1_205 }, (_, i) => `big/f${String(i).padStart(4, '0')}.md`);
    const out = renderTree(files(...many, 'small.md'), limits({ maxChildrenPerDir: 5, maxLines: 5_000 }));
    const lines = out.split('\n');
    expect(lines).toContain('│   └── … (1,200 more entries)');
    expect(lines.filter((l) => l.startsWith('│   ├── f'))).toHaveLength(5);
    expect(lines.at(-1)).toBe('└── small.md');
    expect(out).not.toContain('Tree truncated');
  });

  it('pop-back truncation keeps both caps and reports shown, total and omitted counts', () => {
    const many = Array.from({ length: 300 }, (_, i) => `d${i % 3}/file-${String(i).padStart(3, '0')}.md`);
    const total = 300 + 3; // files + directories
    for (const caps of [
      { maxLines: 10, maxChars: 20_000 },
      { maxLines: 500, maxChars: 400 },
      { maxLines: 2, maxChars: 128 },
    ]) {
      const out = renderTree(files(...many), limits({ ...caps, maxChildrenPerDir: 1_000 }));
      const lines = out.split('\n');
      expect(lines.length).toBeLessThanOrEqual(caps.maxLines);
      expect(out.length).toBeLessThanOrEqual(caps.maxChars);
      const notice = lines.at(-1) as string;
      const m = /^\[Tree truncated: showing (\d+) of (\d+) entries\. (\d+) omitted\.\]$/.exec(notice);
      expect(m, notice).not.toBeNull();
      const shown = Number(m?.[1]);
      expect(shown).toBe(lines.length - 2);
      expect(Number(m?.[2])).toBe(total);
      expect(Number(m?.[3])).toBe(total - shown);
    }
  });

  it('keeps per-directory omission markers when the global cap also truncates', () => {
    const many = Array.from({ length: 200 }, (_, i) => `a/x${String(i).padStart(3, '0')}.md`);
    const out = renderTree(files(...many, 'b/y.md', 'b/z.md'), limits({ maxChildrenPerDir: 5, maxLines: 9 }));
    expect(out).toContain('│   └── … (195 more entries)');
    expect(out.split('\n').at(-1)).toMatch(/^\[Tree truncated: showing 7 of 204 entries\. 197 omitted\.\]$/);
  });

  it('an untruncated tree that exactly fits is left alone', () => {
    const out = renderTree(files('a.md', 'b.md'), limits({ maxLines: 3 }));
    expect(out).toBe('/memory/\n├── a.md\n└── b.md');
  });
});

describe('resolveTreeLimits', () => {
  it('defaults to 500 lines, 20,000 characters and 50 children per directory', () => {
    expect(resolveTreeLimits({})).toEqual({ maxLines: 500, maxChars: 20_000, maxChildrenPerDir: 50 });
  });

  it('reads trimmed base-10 env values inside their ranges', () => {
    const env = {
      GITMEM_TREE_MAX_LINES: ' 40 ',
      GITMEM_TREE_MAX_CHARS: '128',
      GITMEM_TREE_MAX_CHILDREN_PER_DIR: '5000',
    };
    expect(resolveTreeLimits(env)).toEqual({ maxLines: 40, maxChars: 128, maxChildrenPerDir: 5_000 });
  });

  it('silently falls back to the default for empty, non-numeric or out-of-range env values', () => {
    for (const bad of ['', '  ', 'abc', '12abc', '-5', '1', '50001', '0x20', '1e3', '3.5']) {
      expect(resolveTreeLimits({ GITMEM_TREE_MAX_LINES: bad }).maxLines, bad).toBe(500);
    }
    expect(resolveTreeLimits({ GITMEM_TREE_MAX_CHARS: '127' }).maxChars).toBe(20_000);
    expect(resolveTreeLimits({ GITMEM_TREE_MAX_CHARS: '5000001' }).maxChars).toBe(20_000);
    expect(resolveTreeLimits({ GITMEM_TREE_MAX_CHILDREN_PER_DIR: '0' }).maxChildrenPerDir).toBe(50);
  });

  it('lets explicit options beat env values, clamping them from below only', () => {
    const env = { GITMEM_TREE_MAX_LINES: '40', GITMEM_TREE_MAX_CHARS: '1000' };
    expect(resolveTreeLimits(env, { maxLines: 10 })).toEqual({ maxLines: 10, maxChars: 1_000, maxChildrenPerDir: 50 });
    expect(resolveTreeLimits(env, { maxLines: 0, maxChars: 5, maxChildrenPerDir: -3 })).toEqual({
      maxLines: 2,
      maxChars: 128,
      maxChildrenPerDir: 1,
    });
    expect(resolveTreeLimits({}, { maxLines: 999_999 }).maxLines).toBe(999_999);
    expect(resolveTreeLimits(env, { maxLines: Number.NaN }).maxLines).toBe(40);
  });
});
