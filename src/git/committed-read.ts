/**
 * The one reader of committed trees and blobs: a revision's commit, a commit's files (path → blob id, or every
 * entry with its size), how they move between two commits, one path's object, objects and blob contents. The
 * prompt's snapshot (read/read-snapshot.ts), the read API (read/at.ts: read, view, files, tokens, history,
 * diff, revert, watch), the committed snapshot (read/read-revision.ts) and search (search/sync.ts,
 * search/blob-read.ts) all read through it. Each answer comes from the ref files and loose objects when those
 * answer (the `objectReads` fast path: git/read-ref.ts, loose-object.ts, loose-tree.ts), else
 * from git (`rev-parse`, `ls-tree`, `diff-tree`, `cat-file --batch`); both give the same answer.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { blobsFromGit, looseAmong, type BlobLimits } from './committed-blobs.js';
import { catFileBatchRawOp, lsTreeOp, revParseOp, type RawObject } from './commands/plumbing.js';
import { lsTreeSizedOp, type SizedTreeEntry } from './commands/tree-sizes.js';
import { diffTreeMapOp, lsTreeIdsOp, lsTreeMapOp } from './commands/tree-map.js';
import { gitDirAt, resolveGitCommonDir } from './common-dir.js';
import { readLooseObject } from './loose-object.js';
import { diffLoose, listLoose, type KeepFile, type TreeDelta } from './loose-tree.js';
import { OBJECT_ID } from './object-format.js';
import { parseTree } from './objects.js';
import { readHeadQuick } from './read-ref.js';
import { resolveRevision } from './revision.js';
import type { GitRunner } from './runner.js';

export type { BlobLimits } from './committed-blobs.js';

/** A committed path's object and its mode in its parent tree. */
export interface PathObject {
  type: 'blob' | 'tree';
  /** `100644`, `100755`, `120000` (a symbolic link's target as a blob), `40000`. */
  mode: string;
  id: string;
  data: Buffer;
}

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

/**
 * The commit `rev` names, null when none: HEAD from the ref files when plain, else `rev-parse`. `rev` is
 * gitmem's own (HEAD, a ref, an id, `<id>^1`); a caller's `at` goes through {@link resolveCommit}.
 * @example await commitOf(git, '/mem', `${to}^1`) // the first parent, or null for a root commit
 */
export async function commitOf(git: GitRunner, memoryDir: string, rev: string): Promise<string | null> {
  return rev === 'HEAD' ? headCommit(git, memoryDir) : git.exec(revParseOp(rev), { cwd: memoryDir });
}

/**
 * The commit a caller's `at` names, checked strictly by git/revision.ts (INVALID_ARGUMENT, UNKNOWN_REVISION);
 * `HEAD` itself from the ref files when plain.
 * @example await resolveCommit(git, '/mem', 'HEAD~2') // 'e6a8099…'
 */
export async function resolveCommit(git: GitRunner, memoryDir: string, at: string): Promise<string> {
  const gitDir = at === 'HEAD' ? gitDirAt(memoryDir) : null;
  const quick = gitDir === null ? undefined : readHeadQuick(gitDir);
  return quick ?? resolveRevision(git, memoryDir, at);
}

/**
 * Every blob entry of `commit` as git lists it (regular files, links; paths as git prints them), with sizes
 * unless `sizes` is false (then 0: git reads no blob header). Always git: the read API's listing.
 * @example (await listCommitEntries(git, '/mem', head))[0] // { mode: '100644', path: 'a.md', size: 3, … }
 */
export async function listCommitEntries(
  git: GitRunner,
  memoryDir: string,
  commit: string,
  sizes = true,
): Promise<SizedTreeEntry[]> {
  const entries = sizes
    ? await git.exec(lsTreeSizedOp(commit), { cwd: memoryDir })
    : (await git.exec(lsTreeOp(commit), { cwd: memoryDir })).map((e) => ({ ...e, size: 0 }));
  return entries.filter((e) => e.type === 'blob');
}

/**
 * Objects by spec (an object id, or `<commit id>:<path>`), null where missing: loose ones in-process, the
 * rest in one `cat-file --batch`.
 * @example (await readCommittedObjects(git, '/mem', [`${head}:notes/a.md`]))[0]?.type // 'blob'
 */
export async function readCommittedObjects(
  git: GitRunner,
  memoryDir: string,
  specs: readonly string[],
): Promise<Array<RawObject | null>> {
  const objectsDir = join(resolveGitCommonDir(memoryDir), 'objects');
  const out = specs.map((spec): RawObject | null | undefined => {
    if (OBJECT_ID.test(spec)) {
      const o = readLooseObject(objectsDir, spec);
      return o === undefined ? undefined : { id: spec, type: o.type, data: o.data };
    }
    return undefined; // `<commit>:<path>`: git walks the trees
  });
  const asked = specs.filter((_, i) => out[i] === undefined);
  const answers = asked.length > 0 ? await git.exec(catFileBatchRawOp(asked), { cwd: memoryDir }) : [];
  let next = 0;
  return out.map((o) => (o === undefined ? (answers[next++] ?? null) : o));
}

/** Each path's object at `commit` with its mode from git: the object and its parent tree, in one spawn. */
async function pathsFromGit(
  git: GitRunner,
  memoryDir: string,
  commit: string,
  paths: readonly string[],
): Promise<Array<PathObject | null>> {
  const parentOf = (p: string): string =>
    p.includes('/') ? `${commit}:${p.slice(0, p.lastIndexOf('/'))}` : `${commit}^{tree}`;
  const specs = [...paths.map((p) => `${commit}:${p}`), ...paths.map(parentOf)];
  const objects = await git.exec(catFileBatchRawOp(specs), { cwd: memoryDir });
  return paths.map((p, i) => {
    const [o, parent] = [objects[i], objects[paths.length + i]];
    if (!o || (o.type !== 'blob' && o.type !== 'tree') || parent?.type !== 'tree') return null;
    const name = p.slice(p.lastIndexOf('/') + 1);
    let mode: string | undefined;
    try {
      mode = parseTree(Buffer.from(parent.data)).find((e) => e.name === name && e.id === o.id)?.mode;
    } catch {
      mode = undefined; // a corrupt tree: nothing to read
    }
    return mode === undefined ? null : { type: o.type, mode, id: o.id, data: Buffer.from(o.data) };
  });
}

/**
 * Each path's object at `commit` with its mode in its parent tree, null when absent: loose trees and objects
 * when they answer, the rest from git.
 * @example (await readCommittedPaths(git, '/mem', head, ['notes/a', 'notes/a.md']))[1]?.mode // '100644'
 */
export async function readCommittedPaths(
  git: GitRunner,
  memoryDir: string,
  commit: string,
  paths: readonly string[],
): Promise<Array<PathObject | null>> {
  return paths.length > 0 ? pathsFromGit(git, memoryDir, commit, paths) : [];
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
