/**
 * A commit's files and what the prompt needs of them, at the cost of what changed: the last snapshot (kept in
 * the process, else read from the cache file) is moved to the new commit by the diff of the two trees (loose
 * objects first, else one `git diff-tree`), and only blobs never summarised are read. Its path map moves in
 * place, so a snapshot is only lent for one synchronous call, and it remembers the paths its last moves
 * touched (views kept at an earlier commit catch up by them). With no usable snapshot it lists the commit
 * (`ls-tree`, or loose trees) and reads every markdown blob, as before the cache.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeMarkdown, type MarkdownSummary } from '../blocks/file-summary.js';
import { catFileBatchRawOp, revParseOp } from '../git/commands/plumbing.js';
import { diffTreeMapOp, lsTreeMapOp } from '../git/commands/tree-map.js';
import { gitDirAt, resolveGitCommonDir } from '../git/common-dir.js';
import { diffLoose, listLoose, type KeepFile, type TreeDelta } from '../git/loose-tree.js';
import { readLooseObject } from '../git/loose-object.js';
import { readHeadQuick } from '../git/read-ref.js';
import type { GitRunner } from '../git/runner.js';
import { loadReadCache, saveReadCache, type ReadSnapshot, type SnapshotMove } from './read-cache-file.js';

export type { ReadSnapshot } from './read-cache-file.js';

// Files, symlinks (their text is the target) — not submodules, as `ls-tree`'s blobs.
const keepBlob: KeepFile = (_path, mode) => mode === '100644' || mode === '100755' || mode === '120000';
const wantsSummary = (path: string): boolean => path.endsWith('.md');
// Every layout's core (layouts.ts): system/ in the system layout, the root's own markdown in the index layout.
const wantsText = (path: string): boolean =>
  (path.startsWith('system/') || !path.includes('/')) && path.endsWith('.md');

// The last snapshot per repository (common git dir): the next read at a new commit starts from it.
const lastSnapshot = new Map<string, ReadSnapshot>();
// Blobs read since the cache file was last written, per repository. The file is rewritten only once this
// passes SAVE_AFTER: an older file still serves a new process (it moves by the diff), and rewriting every
// path at every commit would make each read cost the repository's size again.
const readSinceSave = new Map<string, number>();
const SAVE_AFTER = 64;
// Past this many blobs to read, the loose ones are found by listing the fan-out directories (256 readdirs)
// instead of trying to open each id.
const PROBE_EACH_UP_TO = 256;
// How many moves a snapshot remembers (a view further behind is rebuilt from the files).
const MOVES_KEPT = 8;
// How often a read starts again from a snapshot another read moved first, before it lists the commit.
const MOVE_ATTEMPTS = 3;

/** HEAD's commit: from the ref files when plain, else git; null for a repository without commits. */
export async function headCommit(git: GitRunner, memoryDir: string): Promise<string | null> {
  const gitDir = gitDirAt(memoryDir);
  const quick = gitDir === null ? undefined : readHeadQuick(gitDir);
  return quick ?? git.exec(revParseOp('HEAD'), { cwd: memoryDir });
}

/** A commit's files, and which of them may need reading (`changed`: every file, or only what the diff set). */
interface Listing {
  files: Map<string, string>;
  changed: ReadonlyMap<string, string>;
}

async function listFiles(git: GitRunner, memoryDir: string, objectsDir: string, commit: string): Promise<Listing> {
  const loose = listLoose(objectsDir, commit, keepBlob);
  const files =
    loose ?? new Map((await git.exec(lsTreeMapOp(commit, keepBlob), { cwd: memoryDir })).map((e) => [e.path, e.id]));
  return { files, changed: files };
}

async function diffFrom(
  git: GitRunner,
  memoryDir: string,
  objectsDir: string,
  from: ReadSnapshot,
  to: string,
): Promise<TreeDelta | undefined> {
  const delta = diffLoose(objectsDir, from.commit, to, keepBlob);
  if (delta !== undefined) return delta;
  try {
    return await git.exec(diffTreeMapOp(from.commit, to, keepBlob), { cwd: memoryDir });
  } catch {
    return undefined; // the old commit is gone (reset, gc): list the new one
  }
}

/** The ids stored loose among `ids` (every id when few: trying to open each then costs less). */
function looseAmong(objectsDir: string, ids: readonly string[]): Set<string> | undefined {
  if (ids.length <= PROBE_EACH_UP_TO) return undefined;
  const loose = new Set<string>();
  for (const fan of new Set(ids.map((id) => id.slice(0, 2)))) {
    let names: string[];
    try {
      names = readdirSync(join(objectsDir, fan));
    } catch {
      continue;
    }
    for (const name of names) loose.add(fan + name);
  }
  return loose;
}

/** Reads blobs: loose ones in-process, the rest in one `cat-file --batch`; text decoded as UTF-8. */
async function readTexts(
  git: GitRunner,
  memoryDir: string,
  objectsDir: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const rest: string[] = [];
  const loose = looseAmong(objectsDir, ids);
  for (const id of ids) {
    const obj = loose === undefined || loose.has(id) ? readLooseObject(objectsDir, id) : undefined;
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

/** Keeps only the entries `files` names (the maps are shared between snapshots and only grow otherwise). */
function pruned<T>(byId: Map<string, T>, files: ReadonlyMap<string, string>): Map<string, T> {
  if (byId.size <= 2 * files.size + 1024) return byId;
  const out = new Map<string, T>();
  for (const id of files.values()) {
    const v = byId.get(id);
    if (v !== undefined) out.set(id, v);
  }
  return out;
}

/** The blob ids among `changed` that `known` has no summary or text for. */
function missingIds(changed: ReadonlyMap<string, string>, known: ReadSnapshot | undefined): string[] {
  const missing = new Set<string>();
  for (const [path, id] of changed) {
    if ((wantsSummary(path) && !known?.summaries.has(id)) || (wantsText(path) && !known?.texts.has(id)))
      missing.add(id);
  }
  return [...missing];
}

/**
 * The snapshot of `files` with summaries and texts for the changed files: what `from` knows per blob id is
 * reused (its maps are shared: content-addressed entries are never wrong, only unused), `read` adds the rest.
 */
function describe(
  commit: string,
  files: Map<string, string>,
  changed: ReadonlyMap<string, string>,
  read: ReadonlyMap<string, string>,
  from: ReadSnapshot | undefined,
): ReadSnapshot {
  const summaries = pruned(from?.summaries ?? new Map<string, MarkdownSummary>(), files);
  const texts = pruned(from?.texts ?? new Map<string, string>(), files);
  for (const [path, id] of changed) {
    const text = read.get(id);
    if (text === undefined) continue;
    if (wantsSummary(path) && !summaries.has(id)) summaries.set(id, summarizeMarkdown(text));
    if (wantsText(path)) texts.set(id, text);
  }
  return { commit, files, summaries, texts };
}

// Snapshots whose path map was moved in place to a newer commit: no longer theirs, never used again.
const spent = new WeakSet<ReadSnapshot>();

/** Where a read ends, synchronously after its last await: the snapshot becomes the last one and is used. */
type Finish<T> = (snap: ReadSnapshot, read: number) => { value: T };

/**
 * Moves `from` to `commit` by the diff, reading only the blobs it set. The path map is moved in place (a
 * copy would cost the repository's size) after the last await, so `from` is spent; undefined when there is
 * no usable diff or another read spent `from` first.
 */
async function moveSnapshot<T>(
  git: GitRunner,
  memoryDir: string,
  objectsDir: string,
  from: ReadSnapshot,
  commit: string,
  finish: Finish<T>,
): Promise<{ value: T } | undefined> {
  const delta = await diffFrom(git, memoryDir, objectsDir, from, commit);
  if (delta === undefined) return undefined;
  const missing = missingIds(delta.set, from);
  const read = await readTexts(git, memoryDir, objectsDir, missing);
  if (spent.has(from)) return undefined;
  spent.add(from);
  const files = from.files;
  for (const path of delta.removed) files.delete(path);
  for (const [path, id] of delta.set) files.set(path, id);
  const snap = describe(commit, files, delta.set, read, from);
  const move: SnapshotMove = { from: from.commit, paths: [...delta.removed, ...delta.set.keys()] };
  snap.moves = [...(from.moves ?? []).slice(1 - MOVES_KEPT), move];
  return finish(snap, missing.length);
}

async function listSnapshot<T>(
  git: GitRunner,
  memoryDir: string,
  objectsDir: string,
  commit: string,
  from: ReadSnapshot | undefined,
  finish: Finish<T>,
): Promise<{ value: T }> {
  const { files, changed } = await listFiles(git, memoryDir, objectsDir, commit);
  // What a snapshot knows per blob id stays true when its path map is spent: only the map moved on.
  const missing = missingIds(changed, from);
  const read = await readTexts(git, memoryDir, objectsDir, missing);
  return finish(describe(commit, files, changed, read, from), missing.length);
}

/**
 * Calls `use` with the snapshot of `commit` (from the process, the cache file, or moved from the last one by
 * the diff) and returns what it returns. The snapshot is lent for that synchronous call only: a later read
 * may move its path map in place.
 * @example await withSnapshotAt(git, memoryDir, head, (snap) => snap.files.get('notes/a.md'))
 */
export async function withSnapshotAt<T>(
  git: GitRunner,
  memoryDir: string,
  commit: string,
  use: (snap: ReadSnapshot) => T,
): Promise<T> {
  const commonDir = resolveGitCommonDir(memoryDir);
  const objectsDir = join(commonDir, 'objects');
  let from: ReadSnapshot | undefined;
  const finish: Finish<T> = (snap, read) => {
    lastSnapshot.set(commonDir, snap);
    const unsaved = (readSinceSave.get(commonDir) ?? 0) + read;
    if (from === undefined || unsaved >= SAVE_AFTER) {
      saveReadCache(commonDir, snap);
      readSinceSave.set(commonDir, 0);
    } else readSinceSave.set(commonDir, unsaved);
    return { value: use(snap) };
  };
  // A read racing this one may move the last snapshot first: then this one starts again from where it got.
  for (let attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
    // The process's own snapshot first: moving it costs less than parsing the file.
    from = lastSnapshot.get(commonDir) ?? loadReadCache(commonDir);
    if (from?.commit === commit) {
      lastSnapshot.set(commonDir, from);
      return use(from);
    }
    if (from === undefined) break;
    const moved = await moveSnapshot(git, memoryDir, objectsDir, from, commit, finish);
    if (moved !== undefined) return moved.value;
    if (!spent.has(from)) break; // no usable diff
  }
  return (await listSnapshot(git, memoryDir, objectsDir, commit, from, finish)).value;
}
