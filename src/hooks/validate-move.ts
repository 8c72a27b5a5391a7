/**
 * The validator over a move of the tree: what `to` changes against `from` (a commit, or a tree), read as one raw
 * diff and one `cat-file --batch`, checked by the same rules as the memory tool and the pre-commit hook, with the
 * protected list, the secret allow list and the system/ budget. Background writers' merges, a repair worker's
 * commits and commits fetched from a remote all go through it before main moves to them.
 */
import { findProblems, formatProblem } from '../blocks/validate.js';
import type { GitRunner } from '../git/runner.js';
import { homeOfRepo, readSystemBudget, systemTokensAt } from './budget-config.js';
import { readChangeSet } from './change-set.js';
import { readRepoLayout } from './layout-config.js';
import { growsSystem } from './pre-commit.js';
import { readProtectedPaths } from './protected.js';
import { readAllowedSecrets } from './secret-allow.js';

/** Broken rules of a move: `<path>: <problem>` lines and the files they are about. */
export interface MoveRejection {
  problems: string[];
  rejectedPaths: string[];
}

export interface MoveCheck {
  /** Null when every rule holds. */
  rejected: MoveRejection | null;
  /** Every path the move changes (both names of a rename). */
  changedPaths: string[];
}

export interface MoveOptions {
  /**
   * The caller's configured home: its `config` holds the system/ budget (readSystemBudget, as for a tool
   * write). gitmem's own callers always pass it; default: the home the repository sits in (homeOfRepo).
   */
  home?: string | undefined;
  /** Default: the repository's protected list. */
  protectedPaths?: ReadonlySet<string>;
  /** Blobs the caller has already read and re-hashed: not asked of git again. */
  knownBlobs?: ReadonlyMap<string, Buffer>;
  /** False when the caller scans for credentials itself (commit by commit). */
  secrets?: false;
  /** Only these pathspecs are judged (a scoped reader's clone: what reaches its disk); default: every path. */
  pathspecs?: readonly string[];
}

/**
 * Validates what moving from `from` to `to` would bring.
 * @example const { rejected } = await validateMove(git, memoryDir, head, mergedTree, { home })
 */
export async function validateMove(
  git: GitRunner,
  cwd: string,
  from: string,
  to: string,
  o: MoveOptions = {},
): Promise<MoveCheck> {
  const specs = o.pathspecs ? ['--', ...o.pathspecs] : [];
  const changes = await readChangeSet(git, cwd, 'diff-tree', ['-r', from, to, ...specs], o.knownBlobs);
  const changedPaths = [
    ...new Set(changes.flatMap((c) => (c.status === 'renamed' && c.oldPath ? [c.path, c.oldPath] : [c.path]))),
  ];
  // Secrets and budgets as in the hook: the allow list from the common git dir, the budget of the caller's home.
  const layout = readRepoLayout(cwd);
  const systemBudget = growsSystem(changes, layout)
    ? { tokens: readSystemBudget(cwd, o.home ?? homeOfRepo(cwd)), used: await systemTokensAt(git, cwd, from, layout) }
    : undefined;
  const protectedPaths = o.protectedPaths ?? readProtectedPaths(cwd);
  const found = findProblems(changes, {
    layout,
    protectedPaths,
    secrets: o.secrets === false ? false : { allowed: readAllowedSecrets(cwd) },
    systemBudget,
  });
  if (found.length === 0) return { rejected: null, changedPaths };
  return {
    rejected: { problems: found.map(formatProblem), rejectedPaths: [...new Set(found.map((p) => p.path))].sort() },
    changedPaths,
  };
}
