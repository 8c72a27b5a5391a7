/**
 * Which committed path a read names. The same normalisation as every write (memfs/paths.ts, under the one
 * path rule), but a read also reaches plain files: the exact path first, then `<path>.md`. An empty path,
 * `/`, `.` or `memory` is the root (a view lists it).
 */
import { MemoryError } from '../errors.js';
import { normalizeMemoryPath } from '../memfs/paths.js';

const ROOT_ALIASES = new Set(['', '/', '.', './', 'memory', 'memory/']);

/** True when `input` names the memory root. */
export function isRootPath(input: unknown): boolean {
  return input === undefined || (typeof input === 'string' && ROOT_ALIASES.has(input.trim()));
}

/**
 * The repo-relative paths `input` may name, in the order to try them.
 * @example readCandidates('notes/a', '/m', 'path') // ['notes/a', 'notes/a.md']
 * @example readCandidates('notes/a.md', '/m', 'path') // ['notes/a.md']
 */
export function readCandidates(input: unknown, memoryDir: string, field: string, tool = 'memory'): string[] {
  if (typeof input !== 'string')
    throw new MemoryError('INVALID_PATH', `${tool}: '${field}' must be a string`, { data: { field } });
  const mp = normalizeMemoryPath(input, { memoryDir, field, tool });
  // normalizeMemoryPath strips one `.md`: a name that ended in it means exactly that file.
  return /\.md\/*$/.test(input.trim()) ? [mp.file] : [mp.label, mp.file];
}
