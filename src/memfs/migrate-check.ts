/**
 * The checks a migration's commit gets before it lands (memfs/migrate.ts): the migration lands by `update-ref`,
 * so no pre-commit hook runs; the same rules run here instead, on the change set from HEAD to the migrated
 * tree (renames detected, as `git commit` would see it), with the repository's secret allow list:
 * - the target layout's format rules (blocks/validate.ts);
 * - the secret scan over the WHOLE text of every file the migration writes (not only its added lines: a moved
 *   file is written anew, and a token planted past the hook may move into core memory, in every prompt);
 * - the core budget, growth only: the target layout's core after the migration against the current core;
 * - protection: the migration rewrites the frontmatter of protected files and moves listed ones (the list
 *   follows them), so those refusals are lifted for it, but a file protected before must stay protected.
 */
import { textTokens } from '../blocks/budgets.js';
import type { MigrationFile } from '../blocks/layout-migration.js';
import type { LayoutRow } from '../blocks/layouts.js';
import { isProtectedText } from '../blocks/validate-protection.js';
import { findProblems, formatProblem, problemCode, type Problem } from '../blocks/validate.js';
import { secretProblems } from '../blocks/validate-content.js';
import { formatCount } from '../blocks/budgets.js';
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { readChangeSet } from '../hooks/change-set.js';
import { readAllowedSecrets } from '../hooks/secret-allow.js';

export interface MigrationCheck {
  git: GitRunner;
  memoryDir: string;
  commonDir: string;
  /** The core budget (estimated tokens), as configured for this repository. */
  budget: number;
  head: string;
  tree: string;
  from: LayoutRow;
  to: LayoutRow;
  /** HEAD's text files and the migrated ones. */
  before: readonly MigrationFile[];
  after: readonly MigrationFile[];
}

const coreTokens = (files: readonly MigrationFile[], row: LayoutRow): number =>
  files.filter((f) => row.isCore(f.path)).reduce((n, f) => n + textTokens(f.text), 0);

function budgetProblem(c: MigrationCheck): Problem | null {
  const before = coreTokens(c.before, c.from);
  const after = coreTokens(c.after, c.to);
  if (after <= c.budget || after <= before) return null;
  return {
    path: c.to.coreLabel,
    code: 'BUDGET_EXCEEDED',
    message: `${c.to.coreLabel} would hold ~${formatCount(after)} tokens, over its budget of ${formatCount(c.budget)} (now ~${formatCount(before)}): raise the budget (gitmem.budgetSystem) or move detail out of the core first`,
  };
}

/**
 * Every broken rule of the migration's commit; throws the refusal (SECRET_DETECTED, BUDGET_EXCEEDED or
 * VALIDATION_FAILED, every problem one indented line) when there is one. Reads nothing but git objects.
 * @example await checkMigration({ git, memoryDir, commonDir, budget: 8000, head, tree, from, to, before, after })
 */
export async function checkMigration(c: MigrationCheck): Promise<void> {
  const changes = await readChangeSet(c.git, c.memoryDir, 'diff-tree', ['-r', c.head, c.tree]);
  const touched = new Set(changes.flatMap((ch) => [ch.path, ...(ch.oldPath === undefined ? [] : [ch.oldPath])]));
  const problems = findProblems(changes, { layout: c.to, liftProtection: touched, secrets: false });
  for (const ch of changes)
    if (ch.status !== 'deleted' && isProtectedText(ch.headContent) && !isProtectedText(ch.content))
      problems.push({ path: ch.path, message: 'the migration would drop its read_only protection' });
  const written = changes.map((ch) => ({ ...ch, headContent: null }));
  problems.push(...secretProblems(written, readAllowedSecrets(c.memoryDir, c.commonDir)));
  const over = budgetProblem(c);
  if (over !== null) problems.push(over);
  if (problems.length === 0) return;
  throw new MemoryError(
    problemCode(problems),
    `migrate: memory rules refused the migration:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`,
    { data: { problems } },
  );
}
