/**
 * Brings the index to a commit: the persistent map follows HEAD (moved by the diff from the commit it maps,
 * re-reading only blobs it has never indexed), and any other revision gets its blobs added and a temporary
 * map of its tree. Every step is a transaction that checks where the map stands, so processes racing to
 * update end with the map of some real commit and every blob it names.
 */
import { MemoryError } from '../errors.js';
import { MovedMeanwhile, type MapChange, type SearchStore } from './store.js';
import { diffCommits, listCommit, type CommitFiles } from '../git/committed-read.js';
import { readBlobs, type RepoRef } from './blob-read.js';
import { isIndexablePath } from './text.js';

const ATTEMPTS = 4;

// Tree maps of commits searched with `at` (a commit's tree never changes, so entries never go stale).
const treeMaps = new Map<string, CommitFiles>();
const TREE_MAPS_KEPT = 8;

/** The indexable files of a commit (path → blob id) and the blob sizes git listed. */
const readTreeMap = (repo: RepoRef, commit: string): Promise<CommitFiles> =>
  listCommit(repo.git, repo.memoryDir, commit, isIndexablePath);

async function treeMapOf(repo: RepoRef, commit: string): Promise<CommitFiles> {
  const key = `${repo.memoryDir}\0${commit}`;
  const hit = treeMaps.get(key);
  if (hit) {
    treeMaps.delete(key);
    treeMaps.set(key, hit);
    return hit;
  }
  const map = await readTreeMap(repo, commit);
  treeMaps.set(key, map);
  if (treeMaps.size > TREE_MAPS_KEPT) treeMaps.delete(treeMaps.keys().next().value ?? '');
  return map;
}

/** One path of each blob of a map (path → blob id): where its work-tree file may hold it. */
function pathsOf(entries: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, oid] of entries) if (!out.has(oid)) out.set(oid, path);
  return out;
}

function busy(): never {
  throw new MemoryError('INTERNAL', 'the search index kept changing under this update (other processes); try again');
}

/**
 * Moves the persistent map to `target` (a commit id).
 * @example await syncMap(repo, store, headCommit)
 */
export async function syncMap(repo: RepoRef, store: SearchStore, target: string): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const from = store.mappedCommit();
    if (from === target) return;
    let change: MapChange | null =
      from && attempt < ATTEMPTS - 1
        ? ((await diffCommits(repo.git, repo.memoryDir, from, target, isIndexablePath)) ?? null)
        : null;
    let sizes: ReadonlyMap<string, number> | undefined;
    if (change === null) {
      const map = await readTreeMap(repo, target); // not the `at` cache: a full build always lists the tree
      change = { kind: 'full', entries: map.files };
      sizes = map.sizes;
    }
    const wanted = change.kind === 'full' ? change.entries : change.set;
    const blobs = await readBlobs(repo, store.missing(wanted.values()), pathsOf(wanted), sizes);
    try {
      store.advance(from, target, blobs, change);
      return;
    } catch (err) {
      if (!(err instanceof MovedMeanwhile)) throw err;
    }
  }
  busy();
}

/**
 * Indexes a revision's blobs and loads its tree into the connection's temporary map.
 * @example await mapRevision(repo, store, oldCommit)
 */
export async function mapRevision(repo: RepoRef, store: SearchStore, commit: string): Promise<void> {
  const map = await treeMapOf(repo, commit);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    store.addBlobs(await readBlobs(repo, store.missing(map.files.values()), pathsOf(map.files), map.sizes));
    try {
      store.mapRevision(commit, map.files);
      return;
    } catch (err) {
      if (!(err instanceof MovedMeanwhile)) throw err;
    }
  }
  busy();
}
