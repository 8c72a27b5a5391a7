/**
 * `memory.conflicts.resolve`: ends a kept branch by one merge commit of main and the branch, its conflicted
 * paths decided by `--ours`, `--theirs` or given text. The branch's tip is a parent of that commit, so nothing
 * is lost; the branch ref is removed only after the commit landed, by compare-and-swap.
 */
import { MemoryError } from '../errors.js';
import { withMemoryOperation } from '../git/lease.js';
import { checkText, TOOL_LIMITS } from '../memfs/limits.js';
import { listKeptBranches, type KeptBranch } from '../sync/conflicts.js';
import { resolveCommit } from '../worktree/inspect.js';
import { assertResolutionValid, commitTree, landCommit } from './land.js';
import { resolvedTree, type Resolution } from './resolved-tree.js';
import type { ConflictDeps, ResolveResult } from './types.js';

/**
 * The kept branch `branch` names (refs/heads/ optional), or INVALID_ARGUMENT.
 * @example await requireKeptBranch(deps, 'gitmem/worker/w1')
 */
export async function requireKeptBranch(
  deps: Pick<ConflictDeps, 'git' | 'memoryDir'>,
  branch: unknown,
): Promise<KeptBranch> {
  if (typeof branch !== 'string' || branch.trim() === '')
    throw new MemoryError('INVALID_ARGUMENT', 'name the kept branch (see `gitmem conflicts list`)', {
      data: { field: 'branch' },
    });
  const name = branch.replace(/^refs\/heads\//, '');
  const found = (await listKeptBranches(deps)).find((b) => b.branch === name);
  if (!found)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${name.slice(0, 200)} is not a kept branch (see \`gitmem conflicts list\`)`,
      { data: { branch: name } },
    );
  return found;
}

/** The reason, checked like the memory tool's (non-empty, bounded). */
export function checkReason(operation: string, reason: unknown): string {
  if (typeof reason !== 'string' || reason.trim() === '')
    throw new MemoryError('INVALID_ARGUMENT', `${operation}: a reason is required (--reason)`, {
      data: { field: 'reason' },
    });
  checkText(operation, 'reason', reason, TOOL_LIMITS.reasonChars);
  return reason.trim();
}

/** Given texts are bounded like the tool's files (and a NUL or lone surrogate is refused). */
export function checkResolution(operation: string, resolution: Resolution): void {
  if ('take' in resolution) {
    if (resolution.take !== 'ours' && resolution.take !== 'theirs')
      throw new MemoryError('INVALID_ARGUMENT', `${operation}: take 'ours' or 'theirs'`, { data: { field: 'take' } });
    return;
  }
  if (typeof resolution.files !== 'object' || resolution.files === null)
    throw new MemoryError('INVALID_ARGUMENT', `${operation}: 'files' maps paths to text`, { data: { field: 'files' } });
  for (const [path, text] of Object.entries(resolution.files)) {
    if (text !== null && typeof text !== 'string')
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `${operation}: the text of ${path.slice(0, 200)} must be a string or null`,
        { data: { field: 'files', path } },
      );
    checkText(operation, `files[${path.slice(0, 200)}]`, text, TOOL_LIMITS.fileChars);
  }
}

function describe(resolution: Resolution): string {
  return 'take' in resolution
    ? `--${resolution.take}`
    : `given text for ${Object.keys(resolution.files).length} file(s)`;
}

/**
 * The main checkout's HEAD commit, or REPO_BROKEN.
 * @example await mainHead(deps)
 */
export async function mainHead(deps: Pick<ConflictDeps, 'git' | 'memoryDir'>): Promise<string> {
  const head = await resolveCommit(deps.git, deps.memoryDir, 'HEAD');
  if (head === null)
    throw new MemoryError('REPO_BROKEN', 'the memory repository has no commit to resolve onto', {
      data: { memoryDir: deps.memoryDir },
    });
  return head;
}

/**
 * Removes `branch` if it still points at `tip` (after its tip became part of main).
 * @example await removeBranch(deps, 'gitmem/worker/w1', tip) // true
 */
export async function removeBranch(
  deps: Pick<ConflictDeps, 'git' | 'memoryDir'>,
  branch: string,
  tip: string,
): Promise<boolean> {
  const r = await deps.git.run(['update-ref', '-d', `refs/heads/${branch}`, tip], {
    cwd: deps.memoryDir,
    okExitCodes: [1, 128],
  });
  return r.exitCode === 0;
}

/**
 * Resolves the kept branch `branch` into main, as one validated commit whose message is `reason`.
 * @example await resolveKeptBranch(deps, 'gitmem/worker/w1', { take: 'theirs' }, 'the worker saw the later fact')
 */
export async function resolveKeptBranch(
  deps: ConflictDeps,
  branch: string,
  resolution: Resolution,
  reason: string,
): Promise<ResolveResult> {
  const why = checkReason('conflicts resolve', reason);
  checkResolution('conflicts resolve', resolution);
  return withMemoryOperation(
    deps.memoryDir,
    async () => {
      const kept = await requireKeptBranch(deps, branch);
      const { git, memoryDir: cwd } = deps;
      const head = await mainHead(deps);
      const { tree, conflicted } = await resolvedTree(git, cwd, head, kept.head, resolution);
      const message = `${why}\n\nResolves kept branch ${kept.branch} (${kept.head}) into main: ${describe(resolution)}.`;
      await assertResolutionValid(git, cwd, head, tree, message, deps.home);
      const commit = await commitTree(git, cwd, tree, [head, kept.head], message, deps.author);
      const changedPaths = await landCommit(git, cwd, head, commit, `gitmem: resolve ${kept.branch}`);
      const branchRemoved = await removeBranch(deps, kept.branch, kept.head);
      return { branch: kept.branch, head: kept.head, commit, conflicted, changedPaths, branchRemoved };
    },
    { purpose: 'conflicts resolve' },
  );
}
