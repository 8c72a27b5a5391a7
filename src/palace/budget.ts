/**
 * How many tokens system/ may take: `budgets.system` in `$GITMEM_HOME/config` when it is a positive
 * integer, else 8,000. Read defensively: a config another version wrote, or a broken one, never stops the
 * palace — it falls back to the default.
 */
import { readGitmemConfig } from '../internals.js';

export const DEFAULT_SYSTEM_BUDGET = 8000;

/**
 * The system/ budget of a home.
 * @example systemBudget('/home/me/.gitmem') // 8000 unless the config sets budgets.system
 */
export function systemBudget(home: string): number {
  try {
    const budgets = readGitmemConfig(home)['budgets'];
    const value = typeof budgets === 'object' && budgets !== null ? (budgets as Record<string, unknown>)['system'] : undefined;
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : DEFAULT_SYSTEM_BUDGET;
  } catch {
    return DEFAULT_SYSTEM_BUDGET;
  }
}
