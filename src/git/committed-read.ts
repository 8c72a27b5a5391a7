/**
 * The one reader of committed trees and blobs: HEAD's commit, a commit's files (path → blob id), how they move
 * between two commits, and blob contents. The prompt's snapshot (read/read-snapshot.ts) and search
 * (search/sync.ts, search/blob-read.ts) both read through it. Each answer comes from the ref files and loose
 * objects when those answer (the `objectReads` fast path: git/read-ref.ts, loose-object.ts, loose-tree.ts),
 * else from git (`rev-parse`, `ls-tree`, `diff-tree`, `cat-file --batch`); both give the same answer.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { catFileBatchRawOp, revParseOp } from './commands/plumbing.js';
import { diffTreeMapOp, lsTreeIdsOp, lsTreeMapOp } from './commands/tree-map.js';
import { gitDirAt, resolveGitCommonDir } from './common-dir.js';
import { readLooseObject } from './loose-object.js';
import { diffLoose, listLoose, type KeepFile, type TreeDelta } from './loose-tree.js';
import { readHeadQuick } from './read-ref.js';
import type { GitOp, GitRunner } from './runner.js';

/** A commit's kept files (path → blob id) and the sizes of those git listed (none from the loose walk). */
export interface CommitFiles {
  files: Map<string, string>;
  sizes: Map<string, number>;
}

/**
 * HEAD's commit: from the ref files when plain, else git; null for a repository without commits.
 * @example await headCommit(git, '/mem') // 'e6a8099…'
 */
export async function headCommit(git: GitRunner, memoryDir: string): Promise<string | null> {
  const gitDir = gitDirAt(memoryDir);
  const quick = gitDir === null ? undefined : readHeadQuick(gitDir);
  return quick ?? git.exec(revParseOp('HEAD'), { cwd: memoryDir });
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

/**
 * The files of `commit` that `keep` keeps: loose trees when they answer (and the tree is small), else git.
 * @example (await listCommit(git, '/mem', head, keep)).files.get('notes/a.md') // '4b82…'
 */
export async function listCommit(
  git: GitRunner,
  memoryDir: string,
  commit: string,
  keep: KeepFile,
): Promise<CommitFiles> {
  // No sizes when the tree is large: with them git would read every blob's header.
  if (largeWorkTree(memoryDir))
    return { files: await git.exec(lsTreeIdsOp(commit, keep), { cwd: memoryDir }), sizes: new Map() };
  const loose = listLoose(join(resolveGitCommonDir(memoryDir), 'objects'), commit, keep);
  if (loose) return { files: loose, sizes: new Map() };
  const files = new Map<string, string>();
  const sizes = new Map<string, number>();
  for (const e of await git.exec(lsTreeMapOp(commit, keep), { cwd: memoryDir })) {
    files.set(e.path, e.id);
    sizes.set(e.id, e.size);
  }
  return { files, sizes };
}

/**
 * How the kept files move from `from` to `to` (loose trees first, else `diff-tree`); undefined when `from` is
 * gone (a reset, a gc): the caller lists `to` instead.
 * @example await diffCommits(git, '/mem', before, after, keep) // { kind: 'delta', set: Map {…}, removed: [] }
 */
export async function diffCommits(
  git: GitRunner,
  memoryDir: string,
  from: string,
  to: string,
  keep: KeepFile,
): Promise<TreeDelta | undefined> {
  const loose = diffLoose(join(resolveGitCommonDir(memoryDir), 'objects'), from, to, keep);
  if (loose !== undefined) return loose;
  try {
    return await git.exec(diffTreeMapOp(from, to, keep), { cwd: memoryDir });
  } catch {
    return undefined;
  }
}

// Past this many ids, the loose ones are found by listing the fan-out directories (256 readdirs) instead of
// failing one open per packed object.
const PROBE_EACH_UP_TO = 256;

/** The ids stored loose among `ids`, or undefined to try each (few ids). */
function looseAmong(objectsDir: string, ids: readonly string[]): Set<string> | undefined {
  if (ids.length <= PROBE_EACH_UP_TO) return undefined;
  const loose = new Set<string>();
  for (const fan of new Set(ids.map((id) => id.slice(0, 2)))) {
    try {
      for (const name of readdirSync(join(objectsDir, fan))) loose.add(fan + name);
    } catch {
      // no such fan-out directory (or removed by a concurrent gc): its objects are packed
    }
  }
  return loose;
}

/** `cat-file --batch-check`: each object's size (-1 when missing). */
function sizesOp(ids: readonly string[]): GitOp<number[]> {
  return {
    args: ['cat-file', '--batch-check'],
    input: ids.map((id) => `${id}\n`).join(''),
    parse: (r) =>
      r.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (l.endsWith(' missing') ? -1 : Number(l.split(' ')[2]))),
  };
}

// One cat-file call reads at most this much (the runner's output cap is far above it).
const BATCH_BYTES = 24 * 1024 * 1024;

/** What a read of blobs may skip: blobs over `maxBytes` (their sizes from `sizes` when known, else asked). */
export interface BlobLimits {
  maxBytes: number;
  sizes?: ReadonlyMap<string, number> | undefined;
}

/** The blobs among `ids` from git: one `cat-file --batch`, or sized batches skipping large blobs unread. */
async function blobsFromGit(
  git: GitRunner,
  memoryDir: string,
  ids: readonly string[],
  limits: BlobLimits | undefined,
  out: Map<string, Buffer>,
): Promise<void> {
  let wanted: string[][] = [[...ids]];
  if (limits) {
    const unsized = ids.filter((id) => !limits.sizes?.has(id));
    const checked = unsized.length > 0 ? await git.exec(sizesOp(unsized), { cwd: memoryDir }) : [];
    const sizes = new Map(unsized.map((id, i): [string, number] => [id, checked[i] ?? -1]));
    wanted = [[]];
    let bytes = 0;
    for (const id of ids) {
      const size = limits.sizes?.get(id) ?? sizes.get(id) ?? -1;
      if (size < 0 || size > limits.maxBytes) continue;
      if (bytes + size > BATCH_BYTES && (wanted.at(-1)?.length ?? 0) > 0) [wanted, bytes] = [[...wanted, []], 0];
      wanted.at(-1)?.push(id);
      bytes += size;
    }
  }
  for (const batch of wanted) {
    if (batch.length === 0) continue;
    const objects = await git.exec(catFileBatchRawOp(batch), { cwd: memoryDir });
    batch.forEach((id, i) => {
      const o = objects[i];
      if (o?.type === 'blob') out.set(id, o.data);
    });
  }
}

/**
 * The contents of the blobs among `ids` (an id that is missing, not a blob, or over `limits.maxBytes` is
 * absent): loose ones in-process, the rest from git.
 * @example (await readCommittedBlobs(git, '/mem', ['4b82…'])).get('4b82…')?.toString('utf8')
 */
export async function readCommittedBlobs(
  git: GitRunner,
  memoryDir: string,
  ids: readonly string[],
  limits?: BlobLimits,
): Promise<Map<string, Buffer>> {
  const objectsDir = join(resolveGitCommonDir(memoryDir), 'objects');
  const out = new Map<string, Buffer>();
  const rest: string[] = [];
  const loose = looseAmong(objectsDir, ids);
  for (const id of ids) {
    if (limits && (limits.sizes?.get(id) ?? 0) > limits.maxBytes) continue;
    const obj = loose === undefined || loose.has(id) ? readLooseObject(objectsDir, id) : undefined;
    if (obj?.type !== 'blob') rest.push(id);
    else if (!limits || obj.data.length <= limits.maxBytes) out.set(id, obj.data);
  }
  if (rest.length > 0) await blobsFromGit(git, memoryDir, rest, limits, out);
  return out;
}
