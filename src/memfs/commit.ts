/**
 * The fast commit, published. The blobs, the changed trees and the commit object (composed in memory by
 * git/compose-commit.ts) are written straight into the object store (git/objects.ts); git then only
 * sets exactly those index entries from the known blob ids (`update-index --index-info`, never reading the
 * work tree) and moves the branch (`update-ref`, compare-and-swap).
 * Nothing rescans the work tree and no hook process starts: the format rules the pre-commit hook applies
 * were already checked in-process with the same validator.
 */
import { spawnDetached } from '../process/detached.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitDirAt, resolveGitCommonDir, type GitDirs } from '../git/common-dir.js';
import { syncRenamed } from '../git/durable.js';
import { updateIndexInfoOp, updateRefOp, type IndexInfoEntry } from '../git/commands/plumbing.js';
import { OBJECT_ID } from '../git/object-format.js';
import type { GitRunner } from '../git/runner.js';

export type { Identity } from '../identity.js';

/** What a publish changed, so a failed write can undo exactly that. */
export interface PublishState {
  staged: boolean;
  moved: boolean;
}

/** What publishCommit is asked to do; see there. */
export interface PublishRequest {
  memoryDir: string;
  /** The repository's git dirs when the caller found them already (absent: found here). */
  gitDirs?: GitDirs;
  commit: string;
  parent: string | null;
  index: readonly IndexInfoEntry[];
  subject: string;
  state?: PublishState;
  durable?: boolean;
  /** Started with the git steps and awaited with them (the write flushes its work-tree directories here). */
  alongside?: () => Promise<void>;
}

/**
 * Makes a prepared commit current: sets exactly the index entries `index` and moves HEAD's branch from
 * `parent` to `commit` (compare-and-swap, so a concurrent writer makes this fail instead of losing its
 * commit). The index and the ref are separate files, so both updates run at once; if staging fails the ref
 * move is undone here. `state` (when given) records what is in place, for the caller's rollback. Durable:
 * as soon as each step is done, the file it renamed into place (the index with its shared parts, the ref)
 * is flushed with its directory, the index's while the ref may still be moving.
 */
export async function publishCommit(git: GitRunner, o: PublishRequest): Promise<void> {
  const alongside = o.alongside?.() ?? Promise.resolve();
  const [steps, side] = await Promise.allSettled([gitSteps(git, o), alongside]);
  if (steps.status === 'rejected') throw steps.reason;
  if (side.status === 'rejected') throw side.reason;
}

async function gitSteps(git: GitRunner, o: PublishRequest): Promise<void> {
  const cwd = o.memoryDir;
  const state = o.state ?? { staged: false, moved: false };
  const gitDir = o.gitDirs?.gitDir ?? gitDirAt(cwd) ?? join(cwd, '.git');
  const ref = o.durable ? headRefFile(cwd, o.gitDirs) : undefined;
  // git renames the index and the ref into place unflushed; each is flushed with its directory right after (see
  // recover-torn.ts for a crash in between). The rename replaces the index atomically, so only a staging that
  // succeeded needs undoing.
  const staged = (): Promise<void> => {
    state.staged = true;
    return o.durable ? syncRenamed(indexFiles(gitDir), [gitDir]) : Promise.resolve();
  };
  const stage = async (): Promise<void> => {
    await git.exec(updateIndexInfoOp(o.index), { cwd });
    return staged();
  };
  const move = (): Promise<void> =>
    git
      .exec(updateRefOp('HEAD', o.commit, o.parent, `commit: ${o.subject}`), { cwd })
      .then(() => void (state.moved = true))
      .then(() => (ref === undefined ? undefined : syncRenamed([ref], [dirname(ref)])));
  if (o.parent === null) {
    await stage(); // the first commit: keep it simple and sequential
    await move();
    return;
  }
  const [stepped, moved] = await Promise.allSettled([stage(), move()]);
  if (stepped.status === 'rejected') {
    if (moved.status === 'fulfilled') await undoRefMove(git, cwd, o.commit, o.parent, state).catch(() => undefined);
    throw stepped.reason;
  }
  if (moved.status === 'rejected') throw moved.reason;
}

/** Sets the index entries of an already published commit (recovery), durably when asked. */
export async function restageIndex(
  git: GitRunner,
  memoryDir: string,
  index: readonly IndexInfoEntry[],
  durable: boolean,
): Promise<void> {
  await git.exec(updateIndexInfoOp(index), { cwd: memoryDir });
  const gitDir = gitDirAt(memoryDir) ?? join(memoryDir, '.git');
  if (durable) await syncRenamed(indexFiles(gitDir), [gitDir]);
}

/** The file HEAD's branch lives in (under the common dir's refs/), or HEAD itself when detached. */
export function headRefFile(memoryDir: string, dirs?: GitDirs): string {
  const gitDir = dirs?.gitDir ?? gitDirAt(memoryDir) ?? join(memoryDir, '.git');
  let head = '';
  try {
    head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
  } catch {
    // unreadable HEAD: the ref was written by git in the common dir's refs/heads
  }
  if (OBJECT_ID.test(head)) return join(gitDir, 'HEAD');
  const ref = /^ref: (refs\/heads\/[^\s]+)$/.exec(head)?.[1];
  const safe = ref !== undefined && !ref.split('/').some((s) => s === '' || s === '.' || s === '..');
  return join(dirs?.commonDir ?? resolveGitCommonDir(memoryDir), safe ? ref : 'refs/heads/main');
}

/** The index and its shared parts (split index: git writes a new shared file now and then). */
export function indexFiles(gitDir: string): string[] {
  return [
    join(gitDir, 'index'),
    ...readdirSync(gitDir)
      .filter((n) => n.startsWith('sharedindex.'))
      .map((n) => join(gitDir, n)),
  ];
}

/** Moves HEAD back from `commit` to `parent` (compare-and-swap). */
export async function undoRefMove(
  git: GitRunner,
  cwd: string,
  commit: string,
  parent: string | null,
  state?: PublishState,
): Promise<void> {
  if (parent === null) await git.run(['update-ref', '-d', 'HEAD', commit], { cwd });
  else await git.exec(updateRefOp('HEAD', parent, commit, 'gitmem: undo a failed write'), { cwd });
  if (state) state.moved = false;
}

/** Puts index entries back as they were before a failed commit. */
export async function restoreIndex(
  git: GitRunner,
  memoryDir: string,
  before: readonly IndexInfoEntry[],
): Promise<void> {
  await git.exec(updateIndexInfoOp(before), { cwd: memoryDir });
}

/**
 * Plumbing commits do not run hooks; run the post-commit hook (mirror push) detached so it never
 * delays the write.
 */
export function firePostCommitHook(
  memoryDir: string,
  env: Record<string, string | undefined>,
  commonDir = resolveGitCommonDir(memoryDir),
): void {
  const hook = join(commonDir, 'hooks', 'post-commit');
  if (!existsSync(hook)) return;
  spawnDetached(hook, [], { cwd: memoryDir, env });
}
