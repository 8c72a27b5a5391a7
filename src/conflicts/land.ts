/**
 * Lands a resolution: one merge commit (main, the kept tip) recording `tree` with the reason as its message,
 * after the same validator as the tool and the hook (format, read_only and the protected list, secrets in
 * what it adds and in the message, budgets on growth). The checkout moves only along the paths the commit
 * changes, and only when none of them holds an uncommitted edit; HEAD moves by compare-and-swap. The caller
 * holds the operation lease and removes the kept branch only after this returns.
 */
import { findProblems, formatProblem, problemCode, type Problem } from '../blocks/validate.js';
import { scanText } from '../blocks/secrets.js';
import { secretProblem } from '../blocks/validate-content.js';
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { readSystemBudget, systemTokensAt } from '../hooks/budget-config.js';
import { readChangeSet } from '../hooks/change-set.js';
import { readRepoLayout } from '../hooks/layout-config.js';
import { growsSystem } from '../hooks/pre-commit.js';
import { noteValidatedCommit, readProtectedPaths } from '../hooks/protected.js';
import { readAllowedSecrets } from '../hooks/secret-allow.js';
import { dirtyPaths, splitNul } from '../worktree/inspect.js';

export interface Author {
  name: string;
  email: string;
}

const HEADLINES = {
  VALIDATION_FAILED: 'the resolution breaks the memory rules; nothing was committed',
  SECRET_DETECTED: 'the resolution adds what looks like a credential; nothing was committed',
  BUDGET_EXCEEDED: 'the resolution grows memory past its budget; nothing was committed',
} as const;

/**
 * The validator over `tree` against `head`, plus the secret scan of `message`: throws the typed refusal. The
 * system/ budget is the caller's configured home's (`home`), as for a tool write.
 * @example await assertResolutionValid(git, memoryDir, head, tree, 'kept both bullets', config.home)
 */
export async function assertResolutionValid(
  git: GitRunner,
  cwd: string,
  head: string,
  tree: string,
  message: string,
  home: string,
): Promise<void> {
  const changes = await readChangeSet(git, cwd, 'diff-tree', ['-r', head, tree]);
  const allowed = readAllowedSecrets(cwd);
  const layout = readRepoLayout(cwd);
  const systemBudget = growsSystem(changes, layout)
    ? { tokens: readSystemBudget(cwd, home), used: await systemTokensAt(git, cwd, head, layout) }
    : undefined;
  const found: Problem[] = findProblems(changes, {
    layout,
    protectedPaths: readProtectedPaths(cwd),
    secrets: { allowed },
    systemBudget,
  });
  found.push(...scanText(message, { allowed }).map((f) => secretProblem('(reason)', f)));
  if (found.length === 0) return;
  const code = problemCode(found);
  const errors = found.map(formatProblem);
  throw new MemoryError(code, `${HEADLINES[code]}:\n  ${errors.join('\n  ')}`, { data: { errors } });
}

function identityEnv(a: Author): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: a.name,
    GIT_AUTHOR_EMAIL: a.email,
    GIT_COMMITTER_NAME: a.name,
    GIT_COMMITTER_EMAIL: a.email,
  };
}

/**
 * A commit object of `tree` with `parents` (nothing moves yet).
 * @example await commitTree(git, cwd, tree, [head, tip], 'resolve …', author)
 */
export async function commitTree(
  git: GitRunner,
  cwd: string,
  tree: string,
  parents: readonly string[],
  message: string,
  author: Author,
): Promise<string> {
  const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'];
  return (await git.run(args, { cwd, env: identityEnv(author), input: `${message.trimEnd()}\n` })).stdout.trim();
}

/**
 * Moves the checkout from `head` to `commit` (validated by the caller): REPO_DIRTY when a changed path has
 * uncommitted edits (nothing touched), the files put back when HEAD moved meanwhile.
 * @example await landCommit(git, memoryDir, head, commit, 'conflicts resolve')
 */
export async function landCommit(
  git: GitRunner,
  cwd: string,
  head: string,
  commit: string,
  subject: string,
): Promise<string[]> {
  const changed = splitNul(
    (await git.run(['diff-tree', '-r', '-z', '--name-only', '--no-renames', head, commit], { cwd })).stdout,
  );
  const blocked = await dirtyPaths(git, cwd, changed);
  if (blocked.length > 0) {
    throw new MemoryError(
      'REPO_DIRTY',
      `uncommitted changes in ${blocked.join(', ')} are in the way; commit or discard them first`,
      { data: { paths: blocked } },
    );
  }
  const first = await git.run(['read-tree', '-m', '-u', head, commit], { cwd, okExitCodes: [128] });
  if (first.exitCode !== 0) {
    await git.run(['update-index', '--refresh'], { cwd, okExitCodes: [1] });
    await git.run(['read-tree', '-m', '-u', head, commit], { cwd });
  }
  try {
    await git.run(['update-ref', '-m', subject, 'HEAD', commit, head], { cwd });
  } catch (err) {
    await git.run(['read-tree', '-m', '-u', commit, head], { cwd }).catch(() => undefined);
    throw err;
  }
  noteValidatedCommit(cwd, head, commit);
  return changed;
}
