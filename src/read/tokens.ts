/**
 * `memory.tokens()`: how much of the system prompt memory takes — every core markdown file at HEAD (what the
 * prompt compiles: under `system/`, or directly in the root in the index layout, blocks/layouts.ts), estimated as ceil(UTF-8 bytes / 4), from the tree's blob sizes alone, and
 * the budget that use is held to.
 */
import { estimateTokens } from '../blocks/budgets.js';
import { MemoryError } from '../errors.js';
import { homeOfRepo, readSystemBudget } from '../hooks/budget-config.js';
import { readRepoLayout } from '../hooks/layout-config.js';
import { commitAt, filesAt } from './at.js';
import type { ReadDeps, TokensResult } from './types.js';

/**
 * Token estimate of the core at HEAD (or `at`), most expensive files first.
 * @example (await memoryTokens(deps)).total_tokens
 */
export async function memoryTokens(deps: ReadDeps, options: { at?: string } = {}): Promise<TokensResult> {
  const budget_tokens = deps.systemBudget
    ? deps.systemBudget()
    : readSystemBudget(deps.memoryDir, homeOfRepo(deps.memoryDir));
  let commit: string;
  try {
    commit = await commitAt(deps, options.at);
  } catch (err) {
    if (options.at === undefined && err instanceof MemoryError && err.code === 'UNKNOWN_REVISION')
      return { commit: null, total_tokens: 0, budget_tokens, files: [] };
    throw err;
  }
  const { isCore } = readRepoLayout(deps.memoryDir);
  const files = (await filesAt(deps, commit))
    .filter((e) => isCore(e.path) && (e.mode === '100644' || e.mode === '100755'))
    .map((e) => ({ path: e.path, tokens: estimateTokens(e.size) }))
    .sort((a, b) => b.tokens - a.tokens || (a.path < b.path ? -1 : 1));
  return { commit, total_tokens: files.reduce((n, f) => n + f.tokens, 0), budget_tokens, files };
}
