// The incremental tree against renderTree from scratch: seeded random adds, edits, deletes, renames and moves
// (names used as both file and directory, repaired paths, pinned directories, caps small enough to cut),
// compared after every step.
import { describe, expect, it } from 'vitest';
import { renderTree, type TreeEntry } from './tree.js';
import { DEFAULT_TREE_LIMITS, type TreeLimits } from './tree-limits.js';
import { TreeModel } from './tree-model.js';
import { rng } from '../../test/helpers/rng.js';

const NAMES = ['a', 'b', 'B', 'a.md', 'A.md', 'é.md', 'e.md', 'a10.md', 'a2.md', 'system', 'notes', 'x y.md'];
const ODD = ['a\\b.md', 'c/./d.md', 'e//f.md', 'g\u0007.md', 'dir/'];

function randomPath(next: () => number): string {
  if (next() < 0.03) return ODD[Math.floor(next() * ODD.length)] as string;
  const depth = 1 + Math.floor(next() * 3);
  return Array.from({ length: depth }, () => NAMES[Math.floor(next() * NAMES.length)]).join('/');
}

function fromScratch(entries: Map<string, string | undefined>, limits: TreeLimits, root: string): string {
  const list: TreeEntry[] = [...entries].map(([path, description]) =>
    description === undefined ? { path } : { path, description },
  );
  return renderTree(list, limits, { root, alwaysShow: ['system'] });
}

describe('TreeModel', () => {
  it('renders like renderTree from scratch after every random step (seeded)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = rng(seed);
      const model = new TreeModel(['system']);
      const entries = new Map<string, string | undefined>();
      const limits: TreeLimits =
        seed % 3 === 0
          ? DEFAULT_TREE_LIMITS
          : { maxLines: 3 + (seed % 11), maxChars: 128 + seed * 7, maxChildrenPerDir: 1 + (seed % 4) };
      for (let step = 0; step < 120; step++) {
        const roll = next();
        const paths = [...entries.keys()];
        const pick = paths[Math.floor(next() * paths.length)];
        if (roll < 0.45 || pick === undefined) {
          const path = randomPath(next);
          const description =
            next() < 0.5 ? `d${step}${next() < 0.2 ? '\n  more' : ''}` : next() < 0.5 ? '   ' : undefined;
          model.set(path, description);
          entries.set(path, description);
        } else if (roll < 0.6) {
          model.set(pick, `edited ${step}`);
          entries.set(pick, `edited ${step}`);
        } else if (roll < 0.8) {
          model.delete(pick);
          entries.delete(pick);
        } else {
          const to =
            next() < 0.5
              ? `${randomPath(next)}`
              : pick.replace(/^[^/]*/, NAMES[Math.floor(next() * NAMES.length)] as string);
          const description = entries.get(pick);
          model.delete(pick);
          entries.delete(pick);
          model.set(to, description);
          entries.set(to, description);
        }
        const root = step % 2 === 0 ? '/memory/' : '$MEMORY_DIR/';
        expect(model.render(limits, root), `seed ${seed} step ${step}`).toBe(fromScratch(entries, limits, root));
      }
    }
  });

  it('keeps a pinned directory when its last file goes, and drops emptied directories', () => {
    const model = new TreeModel(['system']);
    model.set('system/a.md');
    model.set('notes/deep/x.md', 'X');
    model.delete('system/a.md');
    model.delete('notes/deep/x.md');
    expect(model.render(DEFAULT_TREE_LIMITS)).toBe('/memory/\n└── system/');
  });
});
