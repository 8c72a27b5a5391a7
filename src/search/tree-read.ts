/**
 * Reads what search needs of a commit's trees: its indexable files (path → blob id) and the paths two commits
 * differ in. Loose objects are read directly (what gitmem's own writes leave, so the search after a write
 * starts no git process); anything packed is asked of git, in one call. Blob contents: blob-read.ts.
 */
import { join } from 'node:path';
import { diffTreeMapOp, lsTreeMapOp } from '../git/commands/tree-map.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { diffLoose, listLoose } from '../git/loose-tree.js';
import type { GitRunner } from '../git/runner.js';
import type { MapChange } from './store.js';
import { isIndexablePath } from './text.js';

/** Where search reads a repository. */
export interface RepoRef {
  git: GitRunner;
  memoryDir: string;
}

/** The indexable files of a commit and each blob's size. */
export async function readTreeMap(repo: RepoRef, commit: string): Promise<{ entries: Map<string, string>; sizes: Map<string, number> }> {
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
