/**
 * The size caps of the memory tree: defaults and explicit options over the configured caps (config.ts
 * reads GITMEM_TREE_*), so the prompt compiler and any viewer agree on what "too big" means.
 */

/** Caps applied by renderTree. */
export interface TreeLimits {
  maxLines: number;
  maxChars: number;
  maxChildrenPerDir: number;
}

/**
 * 500 lines, 20,000 characters, 50 entries per directory.
 * @example renderTree(entries, DEFAULT_TREE_LIMITS)
 */
export const DEFAULT_TREE_LIMITS: Readonly<TreeLimits> = Object.freeze({
  maxLines: 500,
  maxChars: 20_000,
  maxChildrenPerDir: 50,
});

/** The least each cap may be set to (an explicit value below it is raised to it). */
const MINIMUM: Readonly<TreeLimits> = Object.freeze({ maxLines: 2, maxChars: 128, maxChildrenPerDir: 1 });

/**
 * The caps with explicit options over `base` (the configured caps: config.ts reads GITMEM_TREE_*). Explicit
 * values are clamped from below only (lines >= 2, chars >= 128, children >= 1); non-finite ones are ignored.
 * @example applyTreeLimits(DEFAULT_TREE_LIMITS, { maxLines: 10 }).maxLines === 10
 */
export function applyTreeLimits(base: Readonly<TreeLimits>, explicit: Partial<TreeLimits> = {}): TreeLimits {
  const out: TreeLimits = { ...base };
  for (const key of Object.keys(MINIMUM) as Array<keyof TreeLimits>) {
    const given = explicit[key];
    if (typeof given === 'number' && Number.isFinite(given)) out[key] = Math.max(MINIMUM[key], Math.floor(given));
  }
  return out;
}
