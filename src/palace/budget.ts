/**
 * How many tokens system/ may take: the one rule the memory tool, the pre-commit hook and merges use
 * (readSystemBudget: the repository's `gitmem.budgetSystem`, else `budgets.system` in `$GITMEM_HOME/config`,
 * else 8,000). Read defensively: a setting another version wrote, or a broken one, never stops the palace —
 * it shows the default (the memory tool refuses such a setting).
 */
import { readSystemBudget } from '../internals.js';

const DEFAULT_SYSTEM_BUDGET = 8000;

/**
 * The system/ budget of an agent's memory repository in a home.
 * @example systemBudget('/home/me/.gitmem/agents/ada/memory', '/home/me/.gitmem') // 8000 unless configured
 */
export function systemBudget(memoryDir: string, home: string): number {
  try {
    return readSystemBudget(memoryDir, home);
  } catch {
    return DEFAULT_SYSTEM_BUDGET;
  }
}
