/**
 * Brings a finished background writer's commits home (issue #4). The writer committed on a detached HEAD into
 * its private object directory and could not write the shared store or any ref. Here, under the lease, its
 * objects come into the memory repository re-hashed, so no object is trusted by the name the writer gave it:
 * packed (in-process when that is simple, pack-private.ts, else by git) and unpacked by git with `--strict`,
 * which judges every object whoever packed it. The tip must descend from the base, and only then does
 * the branch `gitmem/<kind>/<id>` exist (the merge, a kept conflict and `gitmem conflicts` all start there).
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError, toMemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { fastPath } from '../fast-paths.js';
import { packPrivateObjects, walkPrivateObjects, type PrivateObjects } from './pack-private.js';
import {
  readDetachedHead,
  workerObjectEnv,
  worktreeGitDirs,
  type WorktreeGitDirs,
  type WorktreeHandleDirs,
} from './git-env.js';

/** Below this many objects the pack is exploded into loose objects (as `git receive-pack` does); else kept as a pack. */
export const UNPACK_LIMIT = 100;

/** Reading the writer's objects must not trust its auxiliary indexes: they only steer which objects are listed. */
const READ_CONFIG: readonly string[] = ['core.commitGraph=false', 'core.multiPackIndex=false', 'pack.useBitmaps=false'];

/** A worktree to import from: where it lives, its base, and the branch its work becomes. */
export type ImportTarget = WorktreeHandleDirs & { branchName: string; baseHead: string };

/** What the import did. */
export interface ImportedWork {
  /** The imported tip (the base when nothing was committed). */
  tip: string;
  /** Commits on the tip that the base lacks. */
  commitCount: number;
  /** False when there was nothing to import (the branch was neither created nor touched). */
  branchCreated: boolean;
  /** The tip's tree and the new blobs, when the in-process walk read them (re-hashed). */
  tipTree?: string;
  blobs?: ReadonlyMap<string, Buffer>;
}

/**
 * Number of objects a pack announces in its header (`PACK`, version 2 or 3, 32-bit big-endian count).
 * @example packObjectCount(Buffer.from('PACK\0\0\0\x02\0\0\0\x05', 'latin1')) === 5
 */
export function packObjectCount(pack: Buffer): number {
  if (pack.length < 12 || pack.toString('latin1', 0, 4) !== 'PACK') {
    throw new MemoryError('WORKTREE_ERROR', 'git pack-objects did not produce a pack', {
      data: { bytes: pack.length },
    });
  }
  const version = pack.readUInt32BE(4);
  if (version !== 2 && version !== 3)
    throw new MemoryError('WORKTREE_ERROR', `unsupported pack version ${version}`, { data: { version } });
  return pack.readUInt32BE(8);
}

/**
 * Parses `rev-list --left-right --count base...tip`: commits only the base has, commits only the tip has.
 * @example parseLeftRight('0\t3\n') // { baseOnly: 0, tipOnly: 3 }
 */
export function parseLeftRight(stdout: string): { baseOnly: number; tipOnly: number } {
  const m = /^(\d+)\s+(\d+)\s*$/.exec(stdout.trim());
  if (!m)
    throw new MemoryError('WORKTREE_ERROR', `unexpected rev-list output ${JSON.stringify(stdout.slice(0, 80))}`, {
      data: {},
    });
  return { baseOnly: Number(m[1]), tipOnly: Number(m[2]) };
}

/** Branch names the harness owns; the import never writes any other ref. */
const BRANCH = /^gitmem\/[a-z][a-z0-9-]{0,31}\/[0-9A-Za-z][0-9A-Za-z-]{0,63}$/;

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The writer's objects into the shared store: packed in-process when that is simple (pack-private.ts), else by
 * pack-objects (reading the private store, falling back to the shared one); then unpack-objects / index-pack,
 * which re-hash and check every object. Returns what the in-process walk learnt (tip tree, new blobs,
 * commit count), or null when git packed instead.
 */
async function transferObjects(
  d: WorktreeGitDirs,
  cwd: string,
  range: { tip: string; base: string },
  git: GitRunner,
  limit: number,
): Promise<PrivateObjects | null> {
  if (exists(join(d.gitDir, 'objects', 'info', 'alternates'))) {
    throw new MemoryError('WORKTREE_ERROR', 'the private object directory names alternates of its own', {
      data: { gitDir: d.gitDir },
    });
  }
  // A fast path (fast-paths.ts): switched off, git packs, as it does when the walk cannot answer.
  const walked =
    fastPath('writerPack', () => walkPrivateObjects(join(d.gitDir, 'objects'), range.tip, range.base) ?? undefined) ??
    null;
  const own = walked === null ? null : packPrivateObjects(walked);
  const env = { GIT_DIR: d.gitCommonDir, ...workerObjectEnv(d) };
  const pack =
    own?.pack ??
    (
      await git.run(['pack-objects', '--revs', '--stdout', '-q'], {
        cwd,
        env,
        config: [...READ_CONFIG],
        input: `${range.tip}\n^${range.base}\n`,
      })
    ).stdoutBuffer;
  // A pack cut short (beyond the runner's output buffer) fails its trailing checksum below: never half-imported.
  const count = packObjectCount(pack);
  const args = count < limit ? ['unpack-objects', '-q', '--strict'] : ['index-pack', '--stdin', '--strict'];
  await git.run(args, { cwd, input: pack });
  return own;
}

/**
 * Points the writer's branch `gitmem/<kind>/<id>` at its imported tip (the only ref the import ever writes).
 * @example await keepWorkBranch(git, memoryDir, 'gitmem/worker/20250102030405-abcdef12', tip)
 */
export async function keepWorkBranch(git: GitRunner, cwd: string, branchName: string, tip: string): Promise<void> {
  if (!BRANCH.test(branchName))
    throw new MemoryError('INVALID_ARGUMENT', `refusing to write branch ${JSON.stringify(branchName)}`, {
      data: { branch: branchName },
    });
  await git.run(['update-ref', '-m', `gitmem: import ${branchName}`, `refs/heads/${branchName}`, tip], { cwd });
}

/**
 * Imports the worktree's work as described in the module comment and returns its tip and commit count. The
 * caller holds the lease. Throws WORKTREE_ERROR (`data.phase: 'import'`) for anything short of a clean import:
 * a HEAD that is not a detached commit id, objects that are missing or malformed, a tip that does not descend
 * from the base. It is idempotent: importing the same tip twice leaves the same branch. With `branch: false`
 * the objects are imported and checked but no ref is written: the caller keeps the private git dir (which
 * still holds the work) until the merge landed or {@link keepWorkBranch} named it.
 * @example const { tip, commitCount } = await importWorktreeCommits(wt, git); // branch gitmem/worker/<id> → tip
 */
export async function importWorktreeCommits(
  wt: ImportTarget,
  git: GitRunner,
  o: { unpackLimit?: number; branch?: boolean } = {},
): Promise<ImportedWork> {
  const fail = (err: unknown, tip?: string): MemoryError => {
    const e = toMemoryError(err, 'WORKTREE_ERROR');
    return new MemoryError('WORKTREE_ERROR', `could not import the commits of ${wt.branchName}: ${e.message}`, {
      cause: err,
      data: { phase: 'import', branch: wt.branchName, worktreeDir: wt.worktreeDir, ...(tip ? { tip } : {}) },
    });
  };
  if (!BRANCH.test(wt.branchName))
    throw fail(new MemoryError('INVALID_ARGUMENT', `refusing to write branch ${JSON.stringify(wt.branchName)}`));
  let tip: string | undefined;
  try {
    const dirs = worktreeGitDirs(wt);
    tip = readDetachedHead(dirs.gitDir);
    if (tip === wt.baseHead) return { tip, commitCount: 0, branchCreated: false };
    const cwd = wt.parentMemoryDir;
    const walked = await transferObjects(dirs, cwd, { tip, base: wt.baseHead }, git, o.unpackLimit ?? UNPACK_LIMIT);
    // The in-process walk re-hashed every commit it followed and found the base among their parents.
    const rel =
      walked !== null
        ? { baseOnly: 0, tipOnly: walked.commitCount }
        : parseLeftRight(
            (await git.run(['rev-list', '--left-right', '--count', `${wt.baseHead}...${tip}`], { cwd })).stdout,
          );
    if (rel.baseOnly > 0) {
      throw new MemoryError('WORKTREE_ERROR', `its tip ${tip} does not descend from the base ${wt.baseHead}`, {
        data: { tip, baseHead: wt.baseHead },
      });
    }
    const tree = walked !== null ? { tipTree: walked.tipTree, blobs: walked.blobs } : {};
    if (o.branch === false) return { tip, commitCount: rel.tipOnly, branchCreated: false, ...tree };
    await keepWorkBranch(git, cwd, wt.branchName, tip);
    return { tip, commitCount: rel.tipOnly, branchCreated: true, ...tree };
  } catch (err) {
    throw fail(err, tip);
  }
}
