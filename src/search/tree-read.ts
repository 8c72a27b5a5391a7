/**
 * Reads what search needs of a commit's trees: its indexable files (path → blob id) and the paths two commits
 * differ in. Loose objects are read directly (what gitmem's own writes leave, so the search after a write
 * starts no git process); anything packed is asked of git, in one call. Blob contents: blob-read.ts.
 */
import { isUtf8 } from 'node:buffer';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { diffTreeMapOp, eachLsTreeBlob, lsTreeMapOp } from '../git/commands/tree-map.js';
import { gitDirAt, resolveGitCommonDir } from '../git/common-dir.js';
import { diffLoose, listLoose } from '../git/loose-tree.js';
import type { GitOp, GitRunner } from '../git/runner.js';
import type { MapChange } from './store.js';
import { isIndexablePath } from './text.js';

/** Where search reads a repository. */
export interface RepoRef {
  git: GitRunner;
  memoryDir: string;
}

// A work tree's git index of this many bytes lists some thousands of files: git lists a tree that large
// faster than the loose walk (one process against thousands of small inflates and parses).
const LARGE_INDEX_BYTES = 128 * 1024;

function largeWorkTree(memoryDir: string): boolean {
  const gitDir = gitDirAt(memoryDir);
  try {
    return gitDir !== null && statSync(join(gitDir, 'index')).size > LARGE_INDEX_BYTES;
  } catch {
    return false;
  }
}

/** `ls-tree -r -z` (no sizes: git then reads no blob) as the indexable files, paths decoded strictly. Pure parse. */
function lsTreeOp(commit: string): GitOp<Map<string, string>> {
  return {
    args: ['ls-tree', '-r', '-z', '--full-tree', commit],
    parse: (r) => {
      const out = new Map<string, string>();
      eachLsTreeBlob(r.stdoutBuffer, (mode, id, raw) => {
        const path = isUtf8(raw) ? raw.toString('utf8') : null;
        if (path !== null && isIndexablePath(path, mode)) out.set(path, id);
      });
      return out;
    },
  };
}

/** The indexable files of a commit and each blob's size when it is known. */
export async function readTreeMap(
  repo: RepoRef,
  commit: string,
): Promise<{ entries: Map<string, string>; sizes: Map<string, number> }> {
  if (largeWorkTree(repo.memoryDir))
    return { entries: await repo.git.exec(lsTreeOp(commit), { cwd: repo.memoryDir }), sizes: new Map() };
  const loose = listLoose(join(resolveGitCommonDir(repo.memoryDir), 'objects'), commit, isIndexablePath);
  if (loose) return { entries: loose, sizes: new Map() }; // sizes unknown: blobs are then read loose or checked
  const entries = new Map<string, string>();
  const sizes = new Map<string, number>();
  for (const e of await repo.git.exec(lsTreeMapOp(commit, isIndexablePath), { cwd: repo.memoryDir })) {
    entries.set(e.path, e.id);
    sizes.set(e.id, e.size);
  }
  return { entries, sizes };
}

/** How the map moves from one commit to another: loose objects first, else git; null when `from` is gone. */
export async function diffCommits(repo: RepoRef, from: string, to: string): Promise<MapChange | null> {
  const objectsDir = join(resolveGitCommonDir(repo.memoryDir), 'objects');
  const loose = diffLoose(objectsDir, from, to, isIndexablePath);
  if (loose) return loose;
  try {
    return await repo.git.exec(diffTreeMapOp(from, to, isIndexablePath), { cwd: repo.memoryDir });
  } catch {
    return null; // e.g. the old commit was pruned after a reset: rebuild the map from the tree
  }
}
