/**
 * The committed revision a read looks at, and its objects: shared by every read operation.
 */
import { MemoryError } from '../errors.js';
import { catFileBatchRawOp, type RawObject } from '../git/commands/plumbing.js';
import { lsTreeSizedOp, type SizedTreeEntry } from '../git/commands/tree-sizes.js';
import { resolveRevision } from '../git/revision.js';
import type { ReadDeps } from './types.js';

/** The commit `at` names (default HEAD); UNKNOWN_REVISION in a repository without commits. */
export async function commitAt(deps: ReadDeps, at: string | undefined): Promise<string> {
  if (at === undefined) {
    try {
      return await resolveRevision(deps.git, deps.memoryDir, 'HEAD');
    } catch (err) {
      if (err instanceof MemoryError && err.code === 'UNKNOWN_REVISION') throw new MemoryError('UNKNOWN_REVISION', 'the memory has no commits yet', { data: { at: 'HEAD' } });
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
