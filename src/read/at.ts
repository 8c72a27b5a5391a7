/**
 * The committed revision a read looks at, and its objects: shared by every read operation.
 */
import { MemoryError } from '../errors.js';
import { catFileBatchRawOp, type RawObject } from '../git/commands/plumbing.js';
import { lsTreeSizedOp, type SizedTreeEntry } from '../git/commands/tree-sizes.js';
import { parseTree } from '../git/objects.js';
import { resolveRevision } from '../git/revision.js';
import type { ReadDeps } from './types.js';

/** The commit `at` names (default HEAD); UNKNOWN_REVISION in a repository without commits. */
export async function commitAt(deps: ReadDeps, at: string | undefined): Promise<string> {
  if (at === undefined) {
    try {
      return await resolveRevision(deps.git, deps.memoryDir, 'HEAD');
    } catch (err) {
      if (err instanceof MemoryError && err.code === 'UNKNOWN_REVISION')
        throw new MemoryError('UNKNOWN_REVISION', 'the memory has no commits yet', { data: { at: 'HEAD' } });
      throw err;
    }
  }
  return resolveRevision(deps.git, deps.memoryDir, at);
}

/** Every file of `commit` with its size (regular files and links alike: callers look at `mode`). */
export async function filesAt(deps: ReadDeps, commit: string): Promise<SizedTreeEntry[]> {
  return (await deps.git.exec(lsTreeSizedOp(commit), { cwd: deps.memoryDir })).filter((e) => e.type === 'blob');
}

/** Objects by spec (`<commit>:<path>` or an id), one spawn; null where missing. */
export async function readObjects(deps: ReadDeps, specs: readonly string[]): Promise<Array<RawObject | null>> {
  if (specs.length === 0) return [];
  return deps.git.exec(catFileBatchRawOp(specs), { cwd: deps.memoryDir });
}

/** A committed path's object and its mode in its parent tree. */
export interface PathObject {
  type: 'blob' | 'tree';
  /** `100644`, `100755`, `120000` (a symbolic link's target as a blob), `40000`. */
  mode: string;
  id: string;
  data: Buffer;
}

/**
 * Each path's object at `commit` with its mode (read from the parent tree in the same spawn), null when absent.
 * @example (await readPaths(deps, commit, ['notes/a', 'notes/a.md']))[1]?.mode // '100644'
 */
export async function readPaths(
  deps: ReadDeps,
  commit: string,
  paths: readonly string[],
): Promise<Array<PathObject | null>> {
  const parentOf = (p: string): string =>
    p.includes('/') ? `${commit}:${p.slice(0, p.lastIndexOf('/'))}` : `${commit}^{tree}`;
  const objects = await readObjects(deps, [...paths.map((p) => `${commit}:${p}`), ...paths.map(parentOf)]);
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

/** Refuses a committed symbolic link (or anything but a regular file) where a file is read: its target is never followed. */
export function regularFileOrRefuse(path: string, o: PathObject): Buffer {
  if (o.mode === '100644' || o.mode === '100755') return o.data;
  throw new MemoryError(
    'PATH_ESCAPE',
    `memory read: ${path} is ${o.mode === '120000' ? 'a symbolic link' : 'not a regular file'} in the commit; links are never followed`,
    { data: { path, mode: o.mode } },
  );
}
