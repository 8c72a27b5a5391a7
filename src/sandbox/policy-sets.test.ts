// The set-based path tests the policy code uses instead of comparing every root with every other one must
// answer exactly as the pairwise isWithin they replace, refusals (and their messages) included. Seeded.
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rng } from '../../test/helpers/rng.js';
import { ancestorsOf, hasAncestorIn, isWithin, normalizePolicy, withReadPaths, type SandboxPolicy } from './policy.js';

const SEGMENTS = ['a', 'b', 'ab', 'a.b', '.x', 'é', 'a b'];

function randomPath(next: () => number, messy: boolean): string {
  const n = Math.floor(next() * 4);
  const parts = Array.from({ length: n }, () => SEGMENTS[Math.floor(next() * SEGMENTS.length)] as string);
  if (!messy) return `/${parts.join('/')}`;
  const sep = (): string => ['/', '//', '/./'][Math.floor(next() * 3)] as string;
  return `${sep()}${parts.join(sep())}${next() < 0.3 ? '/' : ''}`;
}

/** The pairwise checks normalizePolicy made before (the oracle). */
function pairwiseRefusal(p: SandboxPolicy): string | null {
  for (const plain of [...p.writableRoots, ...p.readonlyRoots]) {
    const hider = p.deniedRoots.find((d) => isWithin(d, plain));
    if (hider) return `sandbox root ${plain} lies inside denied ${hider}; list it in reopenedRoots`;
  }
  for (const r of p.reopenedRoots) {
    const exposed = p.deniedRoots.find((d) => isWithin(r.path, d));
    if (exposed) return `re-opened root ${r.path} would re-expose denied ${exposed}`;
  }
  return null;
}

describe('set-based path tests', () => {
  it('hasAncestorIn and ancestorsOf agree with isWithin on normalised paths', () => {
    const next = rng(15_006);
    for (let i = 0; i < 3000; i++) {
      const set = new Set(Array.from({ length: Math.floor(next() * 4) }, () => randomPath(next, false)));
      const path = randomPath(next, false);
      expect(hasAncestorIn(path, set), `${path} in ${[...set].join(',')}`).toBe(
        [...set].some((s) => isWithin(s, path)),
      );
      const other = randomPath(next, false);
      expect(ancestorsOf(path).includes(other), `${other} above ${path}`).toBe(isWithin(other, path));
    }
  });

  it('normalizePolicy refuses exactly what the pairwise checks refuse, with the same message', () => {
    const next = rng(15_007);
    const roots = (messy: boolean): string[] =>
      Array.from({ length: Math.floor(next() * 4) }, () => randomPath(next, messy));
    let refused = 0;
    for (let i = 0; i < 2000; i++) {
      const messy = next() < 0.5;
      const p: SandboxPolicy = {
        readonlyRoots: roots(messy),
        writableRoots: roots(messy),
        deniedRoots: roots(messy),
        reopenedRoots: roots(messy).map((path) => ({ path, writable: next() < 0.5 })),
        allowNetwork: false,
      };
      let got: string | null = null;
      try {
        normalizePolicy(p);
      } catch (err) {
        got = (err as Error).message;
      }
      // the oracle runs on the normalised roots, as the checks did
      const clean = (xs: string[]): string[] => [
        ...new Set(xs.map((x) => posix.normalize(x).replace(/(?<=.)\/$/, ''))),
      ];
      const oracle = pairwiseRefusal({
        ...p,
        readonlyRoots: clean(p.readonlyRoots).filter((x) => x !== '/'),
        writableRoots: clean(p.writableRoots),
        deniedRoots: clean(p.deniedRoots),
        reopenedRoots: clean(p.reopenedRoots.map((r) => r.path)).map((path) => ({ path, writable: false })),
      });
      expect(got, JSON.stringify(p)).toBe(oracle);
      if (got !== null) refused++;
    }
    expect(refused).toBeGreaterThan(100); // both outcomes are exercised
  });

  it('withReadPaths re-opens a read path exactly when a denied root holds it', () => {
    const next = rng(15_008);
    for (let i = 0; i < 1000; i++) {
      const deniedRoots = Array.from({ length: Math.floor(next() * 4) }, () => randomPath(next, false));
      const paths = Array.from({ length: 3 }, () => randomPath(next, false));
      const out = withReadPaths(
        { readonlyRoots: [], writableRoots: [], deniedRoots, reopenedRoots: [], allowNetwork: false },
        paths,
      );
      for (const path of paths) {
        const hidden = deniedRoots.some((d) => isWithin(d, path));
        expect(
          out.reopenedRoots.some((r) => r.path === path),
          path,
        ).toBe(hidden);
        expect(out.readonlyRoots.includes(path), path).toBe(!hidden);
      }
    }
  });
});
