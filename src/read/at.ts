/**
 * The committed revision a read looks at, and its objects: shared by every read operation. Each is the one
 * committed reader (git/committed-read.ts) bound to the handle's runner and repository.
 */
import { MemoryError } from '../errors.js';
import type { RawObject } from '../git/commands/plumbing.js';
import type { SizedTreeEntry } from '../git/commands/tree-sizes.js';
import {
  listCommitEntries,
  readCommittedObjects,
  readCommittedPaths,
  resolveCommit,
  type PathObject,
} from '../git/committed-read.js';
import type { ReadDeps } from './types.js';

export type { PathObject } from '../git/committed-read.js';

/** The commit `at` names (default HEAD); UNKNOWN_REVISION in a repository without commits. */
export async function commitAt(deps: ReadDeps, at: string | undefined): Promise<string> {
  if (at === undefined) {
    try {
      return await resolveCommit(deps.git, deps.memoryDir, 'HEAD');
    } catch (err) {
      if (err instanceof MemoryError && err.code === 'UNKNOWN_REVISION')
        throw new MemoryError('UNKNOWN_REVISION', 'the memory has no commits yet', { data: { at: 'HEAD' } });
      throw err;
    }
  }
  return resolveCommit(deps.git, deps.memoryDir, at);
}

/** Every file of `commit` with its size (regular files and links alike: callers look at `mode`). */
export async function filesAt(deps: ReadDeps, commit: string): Promise<SizedTreeEntry[]> {
  return listCommitEntries(deps.git, deps.memoryDir, commit);
}

/** Objects by spec (`<commit>:<path>` or an id); null where missing. */
export async function readObjects(deps: ReadDeps, specs: readonly string[]): Promise<Array<RawObject | null>> {
  if (specs.length === 0) return [];
  return readCommittedObjects(deps.git, deps.memoryDir, specs);
}

/**
 * Each path's object at `commit` with its mode in its parent tree, null when absent.
 * @example (await readPaths(deps, commit, ['notes/a', 'notes/a.md']))[1]?.mode // '100644'
 */
export async function readPaths(
  deps: ReadDeps,
  commit: string,
  paths: readonly string[],
): Promise<Array<PathObject | null>> {
  return readCommittedPaths(deps.git, deps.memoryDir, commit, paths);
}

/** Refuses a committed symbolic link (or anything but a regular file) where a file is read: its target is never followed. */
export function regularFileOrRefuse(path: string, o: PathObject): Buffer {
  if (o.mode === '100644' || o.mode === '100755') return o.data;
  throw new MemoryError(
    'PATH_ESCAPE',
    `memory read: ${path} is ${o.mode === '120000' ? 'a symbolic link' : 'not a regular file'} in the commit; links are never followed`,
    { data: { path, mode: o.mode } },
  );
}
