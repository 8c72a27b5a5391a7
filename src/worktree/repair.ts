/**
 * The repair worker: its body works on the primary checkout itself, holding the operation lease throughout,
 * so its commits land on the checked-out branch with no merge to check them. So when the body ends, what it
 * committed (HEAD's tree against the tree it started from) goes through the same validator and protected
 * list as a merge; commits that break the rules move to a kept branch `gitmem/<kind>/<id>` and the branch,
 * index and files go back to the old head (like a rejected merge, the primary never keeps them).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError, toMemoryError } from '../errors.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { withMemoryOperation } from '../git/lease.js';
import type { GitRunner } from '../git/runner.js';
import { ensureHooksForWriter } from '../hooks/install.js';
import { noteValidatedCommit, PROTECTED_FILE, readProtectedPaths } from '../hooks/protected.js';
import { worktreeId } from './create.js';
import { countCommits, dirtyPaths, resolveCommit } from './inspect.js';
import { checkMergeResult } from './merge.js';
import type { MemoryWorkerBody, MemoryWorkerDeps, MemoryWorkerOutcome, MemoryWorkerTask } from './worker-types.js';

/**
 * gitmem's own files in the common git dir that a repair body (whose sandbox leaves `.git` writable) must
 * not change: the protected list the validation relies on, and the write journal the next writer would roll
 * forward. They are put back as they were when the body ends.
 */
const GUARDED_STATE = [PROTECTED_FILE, 'gitmem-write.json'] as const;

type Snapshot = Array<{ file: string; bytes: Buffer | null }>;

function snapshotState(commonDir: string): Snapshot {
  return GUARDED_STATE.map((name) => {
    const file = join(commonDir, name);
    try {
      return { file, bytes: readFileSync(file) };
    } catch {
      return { file, bytes: null };
    }
  });
}

function restoreState(snapshot: Snapshot): void {
  for (const { file, bytes } of snapshot) {
    let now: Buffer | null = null;
    try {
      now = readFileSync(file);
    } catch {
      // absent (or not a file: replaced below)
    }
    if (bytes !== null && now !== null && now.equals(bytes)) continue;
    if (bytes === null && now === null) continue;
    rmSync(file, { recursive: true, force: true });
    if (bytes === null) continue;
    writeFileSync(`${file}.restore`, bytes);
    renameSync(`${file}.restore`, file);
  }
}

async function symbolicHead(git: GitRunner, dir: string): Promise<string | null> {
  const r = await git.run(['symbolic-ref', '--quiet', 'HEAD'], { cwd: dir, okExitCodes: [1] });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** Commits on `head` that `baseHead` lacks (all of them when the branch was unborn). */
async function commitsSince(git: GitRunner, dir: string, baseHead: string, head: string): Promise<number> {
  if (baseHead !== '') return countCommits(git, dir, baseHead, head);
  return Number.parseInt((await git.run(['rev-list', '--count', head], { cwd: dir })).stdout.trim(), 10) || 0;
}

/** The empty tree in this repository's object format (what an unborn branch "had"). */
async function emptyTree(git: GitRunner, dir: string): Promise<string> {
  return (await git.run(['hash-object', '-t', 'tree', '--stdin'], { cwd: dir, input: '' })).stdout.trim();
}

/** The body on the checkout itself, the repository's state files put back after it; its failure as a message. */
async function runBodyInPlace(
  task: MemoryWorkerTask,
  body: MemoryWorkerBody,
  c: { dir: string; branch: string; baseHead: string; signal: AbortSignal },
): Promise<string | undefined> {
  const { dir, branch, baseHead, signal } = c;
  const state = snapshotState(resolveGitCommonDir(dir));
  let error: string | undefined;
  try {
    if (!signal.aborted) {
      await Promise.resolve(
        body({
          type: 'repair',
          task,
          worktreeDir: dir,
          branch,
          baseHead,
          signal,
          gitEnv: {},
          materialize: async () => [],
          checkedOut: Promise.resolve(),
        }),
      ).catch((err: unknown) => {
        error = toMemoryError(err).message;
      });
    }
  } finally {
    restoreState(state);
  }
  return error;
}

/**
 * Runs a repair body on the checkout under the lease and validates what it committed.
 * Outcomes: `merged` (its commits stay, head is the new HEAD), `no_changes`, `discarded` (cancelled or failed
 * with nothing committed), `rejected` (see the module comment; `uncommittedPaths` are what is left after).
 * @example await runRepairWorker({ memoryDir, type: 'repair' }, body, { git })
 */
export async function runRepairWorker(
  task: MemoryWorkerTask,
  body: MemoryWorkerBody,
  deps: MemoryWorkerDeps,
): Promise<MemoryWorkerOutcome> {
  const { git } = deps;
  const signal = task.signal ?? new AbortController().signal;
  const dir = task.memoryDir;
  const kind = task.kind ?? 'worker';
  if (!/^[a-z][a-z0-9-]{0,31}$/.test(kind))
    throw new MemoryError('INVALID_ARGUMENT', `invalid worker kind ${JSON.stringify(kind)}`, { data: { kind } });
  return withMemoryOperation(
    dir,
    async (): Promise<MemoryWorkerOutcome> => {
      await ensureHooksForWriter(git, dir); // the body's commits run the hook from this install
      const baseHead = (await resolveCommit(git, dir, 'HEAD')) ?? '';
      const headRef = await symbolicHead(git, dir);
      const branch = headRef?.replace(/^refs\/heads\//, '') ?? 'HEAD';
      const protectedPaths = readProtectedPaths(dir);
      const error = await runBodyInPlace(task, body, { dir, branch, baseHead, signal });
      const head = (await resolveCommit(git, dir, 'HEAD')) ?? baseHead;
      const commitCount = head === baseHead ? 0 : await commitsSince(git, dir, baseHead, head);
      if (head !== baseHead) {
        const base = baseHead || (await emptyTree(git, dir));
        const rejected = await checkMergeResult(git, dir, base, head, protectedPaths, deps.home);
        if (rejected !== null) {
          const kept = await keepAndRestore(git, dir, { baseHead, head, headRef, kind, deps });
          return {
            type: 'repair',
            status: 'rejected',
            branchName: kept,
            branchTip: head,
            commitCount,
            uncommittedPaths: await dirtyPaths(git, dir),
            ...rejected,
          };
        }
        noteValidatedCommit(dir, baseHead || null, head);
      }
      const out = {
        type: 'repair' as const,
        branchName: branch,
        commitCount,
        uncommittedPaths: await dirtyPaths(git, dir),
      };
      if (head !== baseHead) return { ...out, status: 'merged', head };
      if (signal.aborted || error !== undefined) {
        return {
          ...out,
          status: 'discarded',
          reason: signal.aborted ? 'cancelled' : 'body_failed',
          ...(error ? { error } : {}),
        };
      }
      return { ...out, status: 'no_changes' };
    },
    { purpose: 'repair worker', timeoutMs: 60_000, ...deps.lease },
  );
}

/**
 * Keeps `head` on a new branch, then puts the checkout back at `baseHead`: `read-tree --reset -u head base`
 * rewrites only the paths the rejected commits changed (uncommitted leftovers on those go with them; local
 * edits elsewhere stay), HEAD names its old branch again, and that branch moves back (compare-and-swap).
 * Returns the kept branch's name.
 */
async function keepAndRestore(
  git: GitRunner,
  dir: string,
  o: { baseHead: string; head: string; headRef: string | null; kind: string; deps: MemoryWorkerDeps },
): Promise<string> {
  const branchName = await createKeptBranch(git, dir, o.kind, o.head, o.deps);
  const base = o.baseHead || (await emptyTree(git, dir));
  let resetError: unknown = null;
  await git.run(['read-tree', '--reset', '-u', o.head, base], { cwd: dir }).catch((err: unknown) => (resetError = err));
  if (o.headRef !== null) {
    if ((await symbolicHead(git, dir)) !== o.headRef) await git.run(['symbolic-ref', 'HEAD', o.headRef], { cwd: dir });
    const now = await resolveCommit(git, dir, o.headRef);
    const message = `gitmem: repair rejected, kept on ${branchName}`;
    if (o.baseHead === '' && now !== null)
      await git.run(['update-ref', '-m', message, '-d', o.headRef, now], { cwd: dir });
    else if (now !== o.baseHead)
      await git.run(['update-ref', '-m', message, o.headRef, o.baseHead, now ?? ''], { cwd: dir });
  } else {
    await git.run(['update-ref', '--no-deref', 'HEAD', o.baseHead, o.head], { cwd: dir });
  }
  if (resetError !== null) {
    throw new MemoryError(
      'WORKTREE_ERROR',
      `a repair worker's commits break the memory rules and were moved to ${branchName}, but the checkout could not be reset (${toMemoryError(resetError).message}); its files still show them as uncommitted changes`,
      {
        cause: resetError,
        data: { branchName },
      },
    );
  }
  return branchName;
}

/** Creates `gitmem/<kind>/<id>` at `tip` (create-only: a name that exists is never moved; a fresh id is tried). */
async function createKeptBranch(
  git: GitRunner,
  dir: string,
  kind: string,
  tip: string,
  deps: MemoryWorkerDeps,
): Promise<string> {
  const random = deps.randomHex ?? (() => randomBytes(4).toString('hex'));
  for (let attempt = 0; ; attempt++) {
    const name = `gitmem/${kind}/${worktreeId((deps.now ?? (() => new Date()))(), attempt === 0 ? random : () => randomBytes(4).toString('hex'))}`;
    const r = await git.run(['update-ref', '-m', 'gitmem: rejected repair worker', `refs/heads/${name}`, tip, ''], {
      cwd: dir,
      okExitCodes: attempt < 3 ? [128] : [],
    });
    if (r.exitCode === 0) return name;
  }
}
