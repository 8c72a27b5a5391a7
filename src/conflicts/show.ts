/**
 * `gitmem conflicts show`: a kept branch with the diff it brings (from where it left main to its tip), which
 * paths conflict with main as it is now, and main's own diff of those paths since then — what a person needs
 * to decide a resolution.
 */
import type { GitRunner } from '../git/runner.js';
import { showKeptBranch, type KeptBranchDetail } from '../sync/conflicts.js';
import { mergeStages } from './resolved-tree.js';
import { mainHead } from './resolve.js';

export interface ConflictDetail extends KeptBranchDetail {
  /** Where the branch left main (null: no common commit). */
  base: string | null;
  /** Unified diff from `base` to the branch's tip. */
  diff: string;
  /** Paths that conflict when the branch is merged into main now. */
  conflicted: string[];
  /** Unified diff from `base` to main, limited to `conflicted` (empty when nothing conflicts). */
  mainDiff: string;
}

const DIFF = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '-M'];
const EMPTY_TREE_OF = (git: GitRunner, cwd: string) =>
  git.run(['hash-object', '-t', 'tree', '--stdin'], { cwd, input: '' }).then((r) => r.stdout.trim());

/**
 * A kept branch in detail, its diff included.
 * @example (await showConflict({ git, memoryDir }, 'gitmem/worker/w1')).diff
 */
export async function showConflict(
  deps: { git: GitRunner; memoryDir: string },
  branch: string,
): Promise<ConflictDetail> {
  const { git, memoryDir: cwd } = deps;
  const detail = await showKeptBranch({ git, memoryDir: cwd, branch });
  const head = await mainHead(deps);
  const mb = await git.run(['merge-base', head, detail.head], { cwd, okExitCodes: [1] });
  const base = mb.exitCode === 0 ? mb.stdout.trim() : null;
  const from = base ?? (await EMPTY_TREE_OF(git, cwd));
  const diff = (await git.run([...DIFF, '--end-of-options', from, detail.head], { cwd })).stdout;
  const conflicted = (await mergeStages(git, cwd, head, detail.head)).conflicts.map((c) => c.path);
  const mainDiff =
    conflicted.length === 0
      ? ''
      : (
          await git.run([...DIFF, '--end-of-options', from, head, '--', ...conflicted], {
            cwd,
            env: { GIT_LITERAL_PATHSPECS: '1' },
          })
        ).stdout;
  return { ...detail, base, diff, conflicted, mainDiff };
}
