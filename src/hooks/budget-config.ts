/**
 * Where the system/ budget comes from, and what system/ holds at a revision — the validator's budget input for
 * the memory tool, the pre-commit hook and merges alike.
 *
 * The budget (estimated tokens): the repository's own `gitmem.budgetSystem` (its git config, in the common
 * git dir: per repository, unreachable for the agent's tools and read-only to background writers), else
 * `budgets.system` in `$GITMEM_HOME/config` (the JSON file llm/config.ts reads too), else the default.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_SYSTEM_BUDGET_TOKENS, parseBudget, systemUsage, type SystemUsage } from '../blocks/budgets.js';
import { LAYOUTS, type LayoutRow } from '../blocks/layouts.js';
import { MemoryError } from '../errors.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { readGitConfigValue } from '../git/config-text.js';
import type { GitOp, GitRunner } from '../git/runner.js';

/** The repository's override, as `git config gitmem.budgetSystem 12000` writes it. */
export const REPO_BUDGET_KEY = 'gitmem.budgetSystem';

/**
 * The home a repository sits in (`<home>/agents/<id>/memory`), else `~/.gitmem`: the budget's home for a
 * building block called without one (gitmem's own callers pass the configured home).
 * @example homeOfRepo('/h/agents/a1/memory') === '/h'
 */
export function homeOfRepo(memoryDir: string): string {
  const dir = resolve(memoryDir);
  if (basename(dir) === 'memory' && basename(dirname(dirname(dir))) === 'agents') return dirname(dirname(dirname(dir)));
  return join(homedir(), '.gitmem');
}

function repoBudget(repoDir: string): number | undefined {
  // The last value wins, as in git.
  const value = readGitConfigValue(resolveGitCommonDir(repoDir), 'gitmem', 'budgetSystem');
  if (value === undefined) return undefined;
  const n = parseBudget(value);
  if (n === undefined)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${REPO_BUDGET_KEY} must be a positive integer (estimated tokens), got ${JSON.stringify(value.slice(0, 40))}`,
    );
  return n;
}

function homeBudget(home: string): number | undefined {
  const path = join(home, 'config');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  let budgets: unknown;
  try {
    budgets = (JSON.parse(text) as Record<string, unknown> | null)?.['budgets'];
  } catch (err) {
    throw new MemoryError('INVALID_ARGUMENT', `invalid gitmem config ${path}: not JSON`, {
      data: { path },
      cause: err,
    });
  }
  const value =
    typeof budgets === 'object' && budgets !== null ? (budgets as Record<string, unknown>)['system'] : undefined;
  if (value === undefined) return undefined;
  const n = parseBudget(value);
  if (n === undefined)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `invalid gitmem config ${path}: budgets.system must be a positive integer (estimated tokens)`,
      { data: { path } },
    );
  return n;
}

/**
 * The system/ budget for a repository (estimated tokens).
 * @example readSystemBudget(memoryDir, '/home/me/.gitmem') // 8000 unless configured
 */
export function readSystemBudget(repoDir: string, home: string): number {
  return repoBudget(repoDir) ?? homeBudget(home) ?? DEFAULT_SYSTEM_BUDGET_TOKENS;
}

/**
 * `ls-tree -l` of the layout's core at `rev`: paths and blob sizes (no revision yet: nothing). The system
 * layout's core is system/ (recursive); the index layout's the root's own files.
 */
function systemSizesOp(rev: string, layout: LayoutRow): GitOp<Array<{ path: string; size: number }>> {
  const where =
    layout.prompt === 'blocks'
      ? ['-r', '-l', '-z', '--full-tree', rev, '--', 'system']
      : ['-l', '-z', '--full-tree', rev];
  return {
    args: ['ls-tree', ...where],
    okExitCodes: [128],
    parse: (r) =>
      r.exitCode !== 0
        ? []
        : r.stdout
            .split('\0')
            .filter((l) => l !== '')
            .map((line) => {
              const tab = line.indexOf('\t');
              const [, type, , size] = line.slice(0, tab).split(/ +/);
              return { path: line.slice(tab + 1), size: type === 'blob' ? Number(size) || 0 : 0 };
            }),
  };
}

/**
 * What system/ holds at `rev` (a commit or tree; a revision that does not exist holds nothing), in one git call.
 * @example const usage = await readSystemUsage(git, memoryDir, 'HEAD', 8000) // { total, budget, files }
 */
export async function readSystemUsage(
  git: GitRunner,
  cwd: string,
  rev: string,
  budget: number,
  layout: LayoutRow = LAYOUTS.system,
): Promise<SystemUsage> {
  return systemUsage(await git.exec(systemSizesOp(rev, layout), { cwd }), budget, layout.isCore);
}

/**
 * Estimated tokens in system/ at `rev`.
 * @example await systemTokensAt(git, memoryDir, 'HEAD') // 1234
 */
export async function systemTokensAt(
  git: GitRunner,
  cwd: string,
  rev: string,
  layout: LayoutRow = LAYOUTS.system,
): Promise<number> {
  return (await readSystemUsage(git, cwd, rev, 0, layout)).total;
}
