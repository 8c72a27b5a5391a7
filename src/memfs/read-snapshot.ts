/**
 * A commit's files and what the prompt needs of them, at the cost of what changed: the last snapshot (kept in
 * the process, else read from the cache file) is moved to the new commit by the diff of the two trees (loose
 * objects first, else one `git diff-tree`), and only blobs never summarised are read. With no usable
 * snapshot it lists the commit (`ls-tree`, or loose trees) and reads every markdown blob, as before the cache.
 */
import { join } from 'node:path';
import { summarizeMarkdown } from '../blocks/file-summary.js';
import { catFileBatchRawOp, revParseOp } from '../git/commands/plumbing.js';
import { diffTreeMapOp, lsTreeMapOp } from '../git/commands/tree-map.js';
import { gitDirAt, resolveGitCommonDir } from '../git/common-dir.js';
import { diffLoose, listLoose, type KeepFile } from '../git/loose-tree.js';
import { readLooseObject } from '../git/objects.js';
import { readHeadQuick } from '../git/read-ref.js';
import type { GitRunner } from '../git/runner.js';
import { loadReadCache, saveReadCache, type ReadSnapshot } from './read-cache-file.js';

export type { ReadSnapshot } from './read-cache-file.js';

// Files, symlinks (their text is the target) — not submodules, as `ls-tree`'s blobs.
const keepBlob: KeepFile = (_path, mode) => mode === '100644' || mode === '100755' || mode === '120000';
const wantsSummary = (path: string): boolean => path.endsWith('.md');
const wantsText = (path: string): boolean => path.startsWith('system/') && path.endsWith('.md');

// The last snapshot per repository (common git dir): the next read at a new commit starts from it.
const lastSnapshot = new Map<string, ReadSnapshot>();

/** HEAD's commit: from the ref files when plain, else git; null for a repository without commits. */
export async function headCommit(git: GitRunner, memoryDir: string): Promise<string | null> {
  const gitDir = gitDirAt(memoryDir);
  const quick = gitDir === null ? undefined : readHeadQuick(gitDir);
  return quick ?? git.exec(revParseOp('HEAD'), { cwd: memoryDir });
}

async function listFiles(git: GitRunner, memoryDir: string, objectsDir: string, commit: string): Promise<Map<string, string>> {
  const loose = listLoose(objectsDir, commit, keepBlob);
  if (loose) return loose;
  const listed = await git.exec(lsTreeMapOp(commit, keepBlob), { cwd: memoryDir });
  return new Map(listed.map((e) => [e.path, e.id]));
}

async function movedFiles(git: GitRunner, memoryDir: string, objectsDir: string, from: ReadSnapshot, to: string): Promise<Map<string, string> | undefined> {
  let delta = diffLoose(objectsDir, from.commit, to, keepBlob);
  if (delta === undefined) {
    try {
      delta = await git.exec(diffTreeMapOp(from.commit, to, keepBlob), { cwd: memoryDir });
    } catch {
      return undefined; // the old commit is gone (reset, gc): list the new one
    }
  }
  const files = new Map(from.files);
  for (const path of delta.removed) files.delete(path);
  for (const [path, id] of delta.set) files.set(path, id);
  return files;
}

/** Reads blobs: loose ones in-process, the rest in one `cat-file --batch`; text decoded as UTF-8. */
async function readTexts(git: GitRunner, memoryDir: string, objectsDir: string, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const rest: string[] = [];
  for (const id of ids) {
    const obj = readLooseObject(objectsDir, id);
    if (obj?.type === 'blob') out.set(id, obj.data.toString('utf8'));
    else rest.push(id);
  }
  if (rest.length === 0) return out;
  const objects = await git.exec(catFileBatchRawOp(rest), { cwd: memoryDir });
  rest.forEach((id, i) => {
    const obj = objects[i];
    if (obj?.type === 'blob') out.set(id, obj.data.toString('utf8'));
  });
  return out;
}

/** Fills summaries and texts for `files`, reusing `from`'s per blob id and reading only the others. */
async function describe(git: GitRunner, memoryDir: string, objectsDir: string, commit: string, files: Map<string, string>, from: ReadSnapshot | undefined): Promise<ReadSnapshot> {
  const snap: ReadSnapshot = { commit, files, summaries: new Map(), texts: new Map() };
  const missing = new Set<string>();
  for (const [path, id] of files) {
    if (wantsSummary(path) && !snap.summaries.has(id)) {
      const known = from?.summaries.get(id);
      if (known) snap.summaries.set(id, known);
      else missing.add(id);
    }
    if (wantsText(path) && !snap.texts.has(id)) {
      const known = from?.texts.get(id);
      if (known !== undefined) snap.texts.set(id, known);
      else missing.add(id);
    }
  }
  const read = await readTexts(git, memoryDir, objectsDir, [...missing]);
  for (const [path, id] of files) {
    const text = read.get(id);
    if (text === undefined) continue;
    if (wantsSummary(path) && !snap.summaries.has(id)) snap.summaries.set(id, summarizeMarkdown(text));
    if (wantsText(path)) snap.texts.set(id, text);
  }
  return snap;
}

/**
 * The snapshot of `commit`: from the process, the cache file, or built from the last one by the diff.
 * @example const snap = await readSnapshotAt(git, memoryDir, head); snap.summaries.get(snap.files.get('notes/a.md')!)
 */
export async function readSnapshotAt(git: GitRunner, memoryDir: string, commit: string): Promise<ReadSnapshot> {
  const commonDir = resolveGitCommonDir(memoryDir);
  const objectsDir = join(commonDir, 'objects');
  // The process's own snapshot first: moving it costs less than parsing the file.
  const from = lastSnapshot.get(commonDir) ?? loadReadCache(commonDir);
  if (from?.commit === commit) {
    lastSnapshot.set(commonDir, from);
    return from;
  }
  const files = (from && (await movedFiles(git, memoryDir, objectsDir, from, commit))) ?? (await listFiles(git, memoryDir, objectsDir, commit));
  const snap = await describe(git, memoryDir, objectsDir, commit, files, from);
  lastSnapshot.set(commonDir, snap);
  saveReadCache(commonDir, snap);
  return snap;
}
