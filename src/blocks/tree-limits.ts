/**
 * The size caps of the memory tree: defaults, env overrides and explicit options,
 * resolved in one place so the prompt compiler and any viewer agree on what "too big" means.
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

interface LimitSpec {
  key: keyof TreeLimits;
  env: string;
  min: number;
  max: number;
}

/** The env variables, with the range each accepts (outside it the default applies). */
export const TREE_LIMIT_ENV: readonly LimitSpec[] = [
  { key: 'maxLines', env: 'GITMEM_TREE_MAX_LINES', min: 2, max: 50_000 },
  { key: 'maxChars', env: 'GITMEM_TREE_MAX_CHARS', min: 128, max: 5_000_000 },
  { key: 'maxChildrenPerDir', env: 'GITMEM_TREE_MAX_CHILDREN_PER_DIR', min: 1, max: 5_000 },
];

function parseEnvValue(raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number.parseInt(text, 10);
  return value >= min && value <= max ? value : undefined;
}

/**
 * Resolves the tree caps: explicit option > env variable > default. Env values are base-10 integers after
 * trimming; empty, non-numeric or out-of-range values fall back to the default silently. Explicit values are
 * clamped from below only (lines >= 2, chars >= 128, children >= 1); non-finite explicit values are ignored.
 * @example resolveTreeLimits({ GITMEM_TREE_MAX_LINES: '40' }).maxLines === 40
 * @example resolveTreeLimits({ GITMEM_TREE_MAX_LINES: '40' }, { maxLines: 10 }).maxLines === 10
 */
export function resolveTreeLimits(
  env: Record<string, string | undefined>,
  explicit: Partial<TreeLimits> = {},
): TreeLimits {
  const out: TreeLimits = { ...DEFAULT_TREE_LIMITS };
  for (const spec of TREE_LIMIT_ENV) {
    const given = explicit[spec.key];
    if (typeof given === 'number' && Number.isFinite(given)) {
      out[spec.key] = Math.max(spec.min, Math.floor(given));
      continue;
    }
    const fromEnv = parseEnvValue(env[spec.env], spec.min, spec.max);
    if (fromEnv !== undefined) out[spec.key] = fromEnv;
  }
  return out;
}
