/**
 * The system/ budget input of one memory-tool write: asked of git only when the write grows a system/ file
 * (one `ls-tree -l` of HEAD's system/, run while the rest of the write is being prepared).
 */
import { DEFAULT_SYSTEM_BUDGET_TOKENS } from '../blocks/budgets.js';
import { LAYOUTS, type LayoutRow } from '../blocks/layouts.js';
import type { SystemBudget } from '../blocks/validate-content.js';
import type { GitRunner } from '../git/runner.js';
import { systemTokensAt } from '../hooks/budget-config.js';
import type { FileEdit } from './edits.js';

const size = (v: string | Buffer | null): number =>
  v === null ? 0 : typeof v === 'string' ? Buffer.byteLength(v, 'utf8') : v.length;

/**
 * The budget and HEAD's system/ total when `edits` grow system/, else undefined (nothing to check).
 * @example await systemBudgetFor(git, memoryDir, edits, () => 8000)
 */
export async function systemBudgetFor(
  git: GitRunner,
  memoryDir: string,
  edits: readonly FileEdit[],
  budget: (() => number) | undefined,
  layout: LayoutRow = LAYOUTS.system,
): Promise<SystemBudget | undefined> {
  if (!edits.some((e) => layout.isCore(e.file) && size(e.after) > size(e.before))) return undefined;
  const tokens = budget?.() ?? DEFAULT_SYSTEM_BUDGET_TOKENS;
  return { tokens, used: await systemTokensAt(git, memoryDir, 'HEAD', layout) };
}
