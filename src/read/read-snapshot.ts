/**
 * A commit's files and what the prompt needs of them, at the cost of what changed: the last snapshot (kept in
 * the process, else read from the cache file) is moved to the new commit by the diff of the two trees, and
 * only blobs never summarised are read. Trees and blobs are read through git/committed-read.ts (loose objects
 * first, else git), the reader search shares. Its path map moves in place, so a snapshot is only lent for one
 * synchronous call, and it remembers the paths its last moves touched (views kept at an earlier commit catch
 * up by them). With no usable snapshot it lists the commit
 * (`ls-tree`, or loose trees) and reads every markdown blob, as before the cache.
 */
import { summarizeMarkdown, type MarkdownSummary } from '../blocks/file-summary.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { diffCommits, listCommit, readCommittedBlobs } from '../git/committed-read.js';
import type { KeepFile } from '../git/loose-tree.js';
import type { GitRunner } from '../git/runner.js';
import { loadReadCache, saveReadCache, type ReadSnapshot, type SnapshotMove } from './read-cache-file.js';

export type { ReadSnapshot } from './read-cache-file.js';
export { headCommit } from '../git/committed-read.js';

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
// How many moves a snapshot remembers (a view further behind is rebuilt from the files).
const MOVES_KEPT = 8;
// How often a read starts again from a snapshot another read moved first, before it lists the commit.
const MOVE_ATTEMPTS = 3;

/** Reads blobs (loose ones in-process, the rest from git), decoded as UTF-8. */
async function readTexts(git: GitRunner, memoryDir: string, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  for (const [id, data] of await readCommittedBlobs(git, memoryDir, ids)) out.set(id, data.toString('utf8'));
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
  from: ReadSnapshot,
  commit: string,
  finish: Finish<T>,
): Promise<{ value: T } | undefined> {
  const delta = await diffCommits(git, memoryDir, from.commit, commit, keepBlob);
  if (delta === undefined) return undefined; // the old commit is gone (reset, gc): list the new one
  const missing = missingIds(delta.set, from);
  const read = await readTexts(git, memoryDir, missing);
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
  commit: string,
  from: ReadSnapshot | undefined,
  finish: Finish<T>,
): Promise<{ value: T }> {
  const { files } = await listCommit(git, memoryDir, commit, keepBlob);
  // What a snapshot knows per blob id stays true when its path map is spent: only the map moved on.
  const missing = missingIds(files, from);
  const read = await readTexts(git, memoryDir, missing);
  return finish(describe(commit, files, files, read, from), missing.length);
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
    const moved = await moveSnapshot(git, memoryDir, from, commit, finish);
    if (moved !== undefined) return moved.value;
    if (!spent.has(from)) break; // no usable diff
  }
  return (await listSnapshot(git, memoryDir, commit, from, finish)).value;
}
