/**
 * The pre-commit check over the staged snapshot: every staged change (renames detected) with its mode, its
 * staged and its HEAD content, read in two git calls, plus the protected list and the secret allow list from
 * the common git dir and the system/ budget (HEAD's system/ sizes: one more git call, only when the commit
 * grows system/), handed to the shared validator.
 */
import { textTokens } from '../blocks/budgets.js';
import { LAYOUTS, type LayoutRow } from '../blocks/layouts.js';
import { findProblems, formatProblem, problemCode, type FileChange, type Problem } from '../blocks/validate.js';
import type { GitRunner } from '../git/runner.js';
import { homeOfRepo, readSystemBudget, systemTokensAt } from './budget-config.js';
import { readChangeSet } from './change-set.js';
import { readRepoLayout } from './layout-config.js';
import { readProtectedPaths } from './protected.js';
import { readAllowedSecrets } from './secret-allow.js';

/** Collects the staged changes as validator input. */
export async function collectStagedChanges(git: GitRunner, cwd: string): Promise<FileChange[]> {
  return readChangeSet(git, cwd, 'diff', ['--cached']);
}

/** True when a change set makes some core file bigger (only then is the budget worth a git call). */
export function growsSystem(changes: readonly FileChange[], layout: LayoutRow = LAYOUTS.system): boolean {
  return changes.some(
    (c) =>
      c.status !== 'deleted' &&
      layout.isCore(c.path) &&
      textTokens(c.content) > (c.status === 'added' ? 0 : textTokens(c.headContent)),
  );
}

/**
 * Runs the pre-commit rule set in `cwd`; returns the problems (empty = commit may proceed). `home` is the
 * configured home whose `config` holds the system/ budget (config.ts hookHome for a hook process); default:
 * the home the repository sits in.
 * @example const problems = await findPreCommitProblems(git, process.cwd(), config.home)
 */
export async function findPreCommitProblems(git: GitRunner, cwd: string, home?: string): Promise<Problem[]> {
  const changes = await collectStagedChanges(git, cwd);
  if (changes.length === 0) return [];
  const layout = readRepoLayout(cwd);
  const systemBudget = growsSystem(changes, layout)
    ? { tokens: readSystemBudget(cwd, home ?? homeOfRepo(cwd)), used: await systemTokensAt(git, cwd, 'HEAD', layout) }
    : undefined;
  return findProblems(changes, {
    layout,
    protectedPaths: readProtectedPaths(cwd),
    secrets: { allowed: readAllowedSecrets(cwd) },
    systemBudget,
  });
}

/**
 * The pre-commit rule set as `<path>[:<line>]: <problem>` lines (empty = commit may proceed).
 * @example const problems = await runPreCommit(git, process.cwd())
 */
export async function runPreCommit(git: GitRunner, cwd: string, home?: string): Promise<string[]> {
  return (await findPreCommitProblems(git, cwd, home)).map(formatProblem);
}

/** What the hook process ends with: its exit code and what it prints on standard error. */
export interface PreCommitVerdict {
  code: 0 | 1;
  stderr: string;
}

/**
 * The hook's verdict: exit 0 and silence, or exit 1 and the one-line messages. Every path that answers a hook
 * (its own Node process, the daemon, a worker's channel) ends here, so the three print the same bytes.
 * An error of the check itself rejects (the caller decides: the Node hook prints it, a server refuses).
 * @example const { code, stderr } = await preCommitVerdict(git, process.cwd(), hookHome(process.env, process.cwd()))
 */
export async function preCommitVerdict(
  git: GitRunner,
  cwd: string,
  home: string | undefined,
): Promise<PreCommitVerdict> {
  const problems = await findPreCommitProblems(git, cwd, home);
  return problems.length === 0 ? { code: 0, stderr: '' } : { code: 1, stderr: formatPreCommitFailure(problems) };
}

/** What the Node hook prints when the check itself failed (exit 1). */
export function preCommitCrash(err: unknown): string {
  return `gitmem pre-commit hook failed: ${err instanceof Error ? err.message : String(err)}\n`;
}

/** The text a rejected commit prints (the first line names the refusal's code). */
export function formatPreCommitFailure(problems: readonly Problem[]): string {
  return `gitmem: ${problemCode(problems)}: memory rules refused this commit:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\n`;
}
