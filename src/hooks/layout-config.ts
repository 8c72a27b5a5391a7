/**
 * Which layout a repository has (src/blocks/layouts.ts), as every worktree of it sees it: `gitmem.layout` in
 * the repository's shared git config (the common git dir: one value for the checkout and every background
 * writer's worktree, out of reach of the agent's file tools), plus the root index's budget
 * (`gitmem.budgetIndexLines`, `gitmem.budgetIndexBytes`). No value means the default `system` layout.
 */
import { DEFAULT_INDEX_BUDGET, layoutRow, parseLayoutName, type LayoutRow } from '../blocks/layouts.js';
import { parseBudget } from '../blocks/budgets.js';
import { MemoryError } from '../errors.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { gitmemConfigValue, readGitConfigText } from '../git/config-text.js';

/** The repository's layout, as `git config gitmem.layout index` writes it. */
export const REPO_LAYOUT_KEY = 'gitmem.layout';
export const REPO_INDEX_LINES_KEY = 'gitmem.budgetIndexLines';
export const REPO_INDEX_BYTES_KEY = 'gitmem.budgetIndexBytes';

function budgetValue(config: string, key: string, fallback: number): number {
  const value = gitmemConfigValue(config, key.slice('gitmem.'.length));
  if (value === undefined) return fallback;
  const n = parseBudget(value);
  if (n === undefined)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${key} must be a positive integer, got ${JSON.stringify(value.slice(0, 40))}`,
    );
  return n;
}

/**
 * The layout row a git config's text selects (pure; the last value wins, as in git).
 * @example layoutOfConfig('[gitmem]\n\tlayout = index\n').name === 'index'
 */
export function layoutOfConfig(config: string | undefined): LayoutRow {
  if (config === undefined) return layoutRow();
  const value = gitmemConfigValue(config, 'layout');
  const name = value === undefined ? undefined : parseLayoutName(value);
  if (value !== undefined && name === undefined)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${REPO_LAYOUT_KEY} must be system or index, got ${JSON.stringify(value.slice(0, 40))}`,
    );
  return layoutRow(name, {
    lines: budgetValue(config, REPO_INDEX_LINES_KEY, DEFAULT_INDEX_BUDGET.lines),
    bytes: budgetValue(config, REPO_INDEX_BYTES_KEY, DEFAULT_INDEX_BUDGET.bytes),
  });
}

/**
 * The layout of the repository (or any worktree of it) at `repoDir`. `lenient`: a setting that cannot be read
 * answers the default layout instead of refusing (a viewer shows; the tool and the hook still refuse).
 * @example readRepoLayout(memoryDir).name // 'system' unless `gitmem init --layout index` made it
 */
export function readRepoLayout(repoDir: string, o: { lenient?: boolean } = {}): LayoutRow {
  try {
    return layoutOfConfig(readGitConfigText(resolveGitCommonDir(repoDir)));
  } catch (err) {
    if (o.lenient === true) return layoutRow();
    throw err;
  }
}

/**
 * The layout recorded in a common git dir already located (a handle's `gitDirs.commonDir`).
 * @example readLayoutAt(gitDirs.commonDir)
 */
export function readLayoutAt(commonDir: string): LayoutRow {
  return layoutOfConfig(readGitConfigText(commonDir));
}
