/**
 * Reads what search needs from git: a commit's indexable files (path → blob id), the paths two commits
 * differ in, and blob contents. Loose objects are read directly (what gitmem's own writes leave, so the
 * search after a write starts no git process); anything packed is asked of git, in one call per kind.
 */
import { join } from 'node:path';
import { catFileBatchRawOp } from '../git/commands/plumbing.js';
import { diffTreeMapOp, lsTreeMapOp } from '../git/commands/tree-map.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { diffLoose, listLoose } from '../git/loose-tree.js';
import { readLooseObject } from '../git/objects.js';
import type { GitOp, GitRunner } from '../git/runner.js';
import type { BlobInput, MapChange } from './store.js';
import { indexableText, isIndexablePath } from './text.js';
import { SEARCH_LIMITS } from './types.js';

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

/** `cat-file --batch-check`: each object's size (-1 when missing). */
function sizesOp(ids: readonly string[]): GitOp<number[]> {
  return {
    args: ['cat-file', '--batch-check'],
    input: ids.map((id) => `${id}\n`).join(''),
    parse: (r) => r.stdout.split('\n').filter((l) => l !== '').map((l) => (l.endsWith(' missing') ? -1 : Number(l.split(' ')[2]))),
  };
}

// One cat-file call reads at most this much (the runner's output cap is far above it).
const BATCH_BYTES = 24 * 1024 * 1024;

/** Contents of blobs to index (text, or null for what search skips). Sizes, when known, save a git call. */
export async function readBlobs(repo: RepoRef, oids: readonly string[], known?: ReadonlyMap<string, number>): Promise<BlobInput[]> {
  const objectsDir = join(resolveGitCommonDir(repo.memoryDir), 'objects');
  const out: BlobInput[] = [];
  const rest: string[] = [];
  for (const oid of oids) {
    if ((known?.get(oid) ?? 0) > SEARCH_LIMITS.maxFileBytes) out.push({ oid, text: null });
    else {
      const obj = readLooseObject(objectsDir, oid);
      if (obj?.type === 'blob') out.push({ oid, text: indexableText(obj.data) });
      else rest.push(oid);
    }
  }
  const unsized = rest.filter((oid) => !known?.has(oid));
  const checked = unsized.length > 0 ? await repo.git.exec(sizesOp(unsized), { cwd: repo.memoryDir }) : [];
  const sizes = new Map<string, number>([...(known ?? new Map<string, number>()), ...unsized.map((oid, i): [string, number] => [oid, checked[i] ?? -1])]);
  let batch: string[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const objects = await repo.git.exec(catFileBatchRawOp(batch), { cwd: repo.memoryDir });
    batch.forEach((oid, i) => out.push({ oid, text: objects[i]?.type === 'blob' ? indexableText(objects[i].data) : null }));
    batch = [];
    bytes = 0;
  };
  for (const oid of rest) {
    const size = sizes.get(oid) ?? -1;
    if (size < 0 || size > SEARCH_LIMITS.maxFileBytes) {
      out.push({ oid, text: null });
      continue;
    }
    if (bytes + size > BATCH_BYTES) await flush();
    batch.push(oid);
    bytes += size;
  }
  await flush();
  return out;
}
