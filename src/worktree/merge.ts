/**
 * Merges a background writer's branch into the primary checkout without ever leaving it half-merged: the
 * merge is computed in the object store (`merge-tree --write-tree`; content conflicts that are all in
 * markdown files go through the markdown merge, merge-markdown.ts), checked against the memory rules (the
 * same validator as the tool and the hook, over the merge result against the checkout's HEAD), committed
 * with two parents (in-process), and only then are the changed files of the checkout updated, beside the move
 * of HEAD. On a conflict or a broken rule the checkout is not touched at all (local edits in the way of a
 * changed file: HEAD is moved back). The caller holds the operation lease.
 */
import { noteValidatedCommit, readProtectedPaths } from '../hooks/protected.js';
import { validateMove, type MoveRejection } from '../hooks/validate-move.js';
import type { GitRunner } from '../git/runner.js';
import { LINE_MERGE_FOR_MARKDOWN, mergeTreeOp } from '../git/commands/merge-tree.js';
import { readHeadFile } from './head-file.js';
import { dirtyPaths, isAncestor, resolveCommit } from './inspect.js';
import { resolveMarkdownConflicts } from './merge-markdown.js';
import { MemoryError } from '../errors.js';
import { SYSTEM_IDENTITY, type Identity } from '../identity.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { repoObjectFormat } from '../git/object-format.js';
import { commitText, ObjectBatch } from '../git/objects.js';
import { join } from 'node:path';

export type CheckoutMergeResult =
  | { status: 'merged'; head: string; changedPaths: string[] }
  | { status: 'already_merged'; head: string }
  /** `content`: both sides changed the same lines; `uncommitted`: the checkout has local edits in the way. */
  | { status: 'conflict'; reason: 'content' | 'uncommitted'; conflictingPaths: string[]; head: string }
  /** The merge result breaks the memory rules: `problems` are `<path>: <problem>` lines, `rejectedPaths` the files. */
  | { status: 'rejected'; problems: string[]; rejectedPaths: string[]; head: string };

export interface MergeIntoCheckoutOptions {
  memoryDir: string;
  /** Branch name (without refs/heads/) or commit to merge. */
  branch: string;
  message: string;
  git: GitRunner;
  /** The configured home: its `config` holds the system/ budget (validate-move.ts; as for a tool write). */
  home?: string | undefined;
  /** Author/committer of the merge commit (default: gitmem's own, SYSTEM_IDENTITY). */
  identity?: Identity;
  /**
   * A commit the tip is known to descend from and differ from (an imported writer's base, checked by the
   * import). While HEAD is still there, the merge result is the tip's own tree: no ancestry question and no
   * merge-tree are needed.
   */
  tipDescendsFrom?: string;
  /** The tip's tree when the caller has read it (with `tipDescendsFrom` and a commit id as `branch`). */
  tipTree?: string;
  /** Blobs of the tip the caller has read and re-hashed: the validator does not ask git for them again. */
  knownBlobs?: ReadonlyMap<string, Buffer>;
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * HEAD, the tip and the tip's tree: from the checkout's files and the caller when it knows them (an imported
 * writer's tip), else one rev-parse; null fields when something is missing (the slow path says what).
 */
async function resolveMergeSides(
  git: GitRunner,
  cwd: string,
  o: MergeIntoCheckoutOptions,
): Promise<{ head: string | null; tip: string | null; tipTree?: string }> {
  const { branch } = o;
  const head = readHeadFile(cwd);
  if (head !== null && o.tipTree !== undefined && OBJECT_ID.test(branch) && OBJECT_ID.test(o.tipTree))
    return { head, tip: branch, tipTree: o.tipTree };
  const r = await git.run(['rev-parse', 'HEAD^{commit}', `${branch}^{commit}`, `${branch}^{tree}`], {
    cwd,
    okExitCodes: [128],
  });
  const ids = r.stdout.split('\n').filter((l) => l !== '');
  if (r.exitCode === 0 && ids.length === 3 && ids.every((id) => OBJECT_ID.test(id)))
    return { head: ids[0] ?? null, tip: ids[1] ?? null, tipTree: ids[2] as string };
  return { head: await resolveCommit(git, cwd, 'HEAD'), tip: await resolveCommit(git, cwd, branch) };
}

/**
 * Merges `branch` into the checkout at `memoryDir` (always a merge commit, so worker output is visible in
 * history). Never guesses: conflicts come back as paths with the checkout unchanged.
 * @example await mergeIntoCheckout({ memoryDir, branch: wt.branchName, message: `merge(memory): ${wt.branchName}`, git })
 */
export async function mergeIntoCheckout(o: MergeIntoCheckoutOptions): Promise<CheckoutMergeResult> {
  const { git, memoryDir: cwd } = o;
  const { head, tip, tipTree } = await resolveMergeSides(git, cwd, o);
  if (head === null || tip === null) {
    throw new MemoryError(
      'WORKTREE_ERROR',
      `cannot merge ${o.branch}: ${head === null ? 'the checkout has no HEAD' : 'no such branch'}`,
      { data: { branch: o.branch } },
    );
  }
  // The tip descends from HEAD itself: three-way merging against HEAD as the base yields the tip's tree.
  const fastForward = tipTree !== undefined && o.tipDescendsFrom === head && tip !== head;
  if (!fastForward && (await isAncestor(git, cwd, tip, head))) return { status: 'already_merged', head };
  const protectedPaths = readProtectedPaths(cwd);
  let tree = tipTree ?? '';
  if (!fastForward) {
    const mt = await git.exec(mergeTreeOp(head, tip), { cwd, config: LINE_MERGE_FOR_MARKDOWN });
    // What git's line merge left conflicting in markdown files, the markdown merge may still finish.
    const merged = mt.clean ? mt.tree : await resolveMarkdownConflicts(git, cwd, mt, protectedPaths);
    if (merged === null)
      return {
        status: 'conflict',
        reason: 'content',
        conflictingPaths: [...new Set(mt.stages.map((s) => s.path))],
        head,
      };
    tree = merged;
  }
  const checked = await validateMove(git, cwd, head, tree, {
    home: o.home,
    protectedPaths,
    knownBlobs: o.knownBlobs,
  });
  if (checked.rejected !== null) return { status: 'rejected', ...checked.rejected, head };
  // The merge commit's tree is `tree`: what changes against HEAD is exactly what was validated.
  const commit = writeMergeCommit(cwd, {
    tree,
    parents: [head, tip],
    author: o.identity ?? SYSTEM_IDENTITY,
    message: o.message,
  });
  const changed = checked.changedPaths;
  const blocked = await publishMerge(git, cwd, {
    head,
    commit,
    changed,
    subject: o.message.split('\n')[0] ?? o.message,
  });
  if (blocked.length > 0) return { status: 'conflict', reason: 'uncommitted', conflictingPaths: blocked, head };
  noteValidatedCommit(cwd, head, commit);
  return { status: 'merged', head: commit, changedPaths: changed };
}

/** The two-parent commit, hashed and stored here (no git process): what `commit-tree` would write, in UTC. */
function writeMergeCommit(
  cwd: string,
  c: { tree: string; parents: string[]; author: Identity; message: string },
): string {
  const common = resolveGitCommonDir(cwd);
  const objects = new ObjectBatch(join(common, 'objects'), repoObjectFormat(common));
  const commit = objects.add('commit', commitText({ ...c, time: Date.now() / 1000 }));
  objects.store();
  return commit;
}

/**
 * Moves the checkout (index and changed files) and HEAD from `head` to `commit`. The usual case runs both at
 * once (separate files, so two processes side by side); when either fails the other is undone, so the
 * checkout ends either merged or as it was. A checkout git refused goes the careful way, in turn, with HEAD
 * back where it was (the local-edit check compares with HEAD). Returns the paths in the way, [] when merged.
 */
async function publishMerge(
  git: GitRunner,
  cwd: string,
  m: { head: string; commit: string; changed: string[]; subject: string },
): Promise<string[]> {
  const moveRef = (): Promise<unknown> => git.run(['update-ref', '-m', m.subject, 'HEAD', m.commit, m.head], { cwd });
  const undoCheckout = (): Promise<unknown> =>
    git.run(['read-tree', '-m', '-u', m.commit, m.head], { cwd }).catch(() => undefined);
  const [checkout, ref] = await Promise.allSettled([
    git.run(['read-tree', '-m', '-u', m.head, m.commit], { cwd, okExitCodes: [128] }),
    moveRef(),
  ]);
  const moved = checkout.status === 'fulfilled' && checkout.value.exitCode === 0;
  if (ref.status === 'rejected') {
    if (moved) await undoCheckout();
    throw ref.reason;
  }
  if (moved) return [];
  await git.run(['update-ref', '-m', 'gitmem: undo a merge the checkout refused', 'HEAD', m.head, m.commit], { cwd });
  if (checkout.status === 'rejected') throw checkout.reason;
  const blocked = await updateCheckout(git, cwd, m.head, m.commit, m.changed);
  if (blocked.length > 0) return blocked;
  try {
    await moveRef();
  } catch (err) {
    await undoCheckout();
    throw err;
  }
  return [];
}

/**
 * Runs the validator over what merging would bring (`tree` against `head`), with the protected list from the
 * common git dir (or the one given: a repair worker's, read before its body could touch the file).
 * @example await checkMergeResult(git, memoryDir, head, tree) // null, or { problems, rejectedPaths }
 */
export async function checkMergeResult(
  git: GitRunner,
  cwd: string,
  head: string,
  tree: string,
  protectedPaths: ReadonlySet<string> = readProtectedPaths(cwd),
  home?: string,
): Promise<MoveRejection | null> {
  return (await validateMove(git, cwd, head, tree, { home, protectedPaths })).rejected;
}

/**
 * Moves the checkout's index and files from `head` to `commit` (two-tree read-tree: only changed paths are
 * written, local edits elsewhere survive). git checks everything before touching a file, so a refusal leaves
 * the checkout as it was; then the real obstacles are the uncommitted `changed` paths. A refusal with no such
 * path is stale stat data: refresh the index once and retry. Returns the blocking paths ([] when done).
 * The refresh is not `-q`: quiet, update-index exits 128 without a word when index.lock is held (an editor's
 * `git status`), and only a named lock is waited for by the runner.
 */
async function updateCheckout(
  git: GitRunner,
  cwd: string,
  head: string,
  commit: string,
  changed: string[],
): Promise<string[]> {
  const first = await git.run(['read-tree', '-m', '-u', head, commit], { cwd, okExitCodes: [128] });
  if (first.exitCode === 0) return [];
  const inTheWay = await dirtyPaths(git, cwd, changed);
  if (inTheWay.length > 0) return inTheWay;
  await git.run(['update-index', '--refresh'], { cwd, okExitCodes: [1] });
  await git.run(['read-tree', '-m', '-u', head, commit], { cwd });
  return [];
}
