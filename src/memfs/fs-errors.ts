/**
 * What the file system says, as typed errors: no raw ENOTDIR / ENAMETOOLONG / EISDIR / ENOENT ever leaves
 * the memory tool. A table, so every errno the tool can meet has one answer.
 */
import { MemoryError, type MemoryErrorCode } from '../errors.js';

const ERRNO: Record<string, [MemoryErrorCode, string]> = {
  ENOENT: ['FILE_NOT_FOUND', 'does not exist'],
  ENOTDIR: ['INVALID_PATH', 'has a component that is a file, not a directory'],
  ENAMETOOLONG: ['INVALID_PATH', 'is too long for the file system'],
  EISDIR: ['INVALID_PATH', 'is a directory, not a memory file'],
  ELOOP: ['PATH_ESCAPE', 'passes through a symbolic link; memory never follows links'],
  EEXIST: ['FILE_EXISTS', 'already exists'],
  ENOTEMPTY: ['INVALID_PATH', 'is a directory that is not empty'],
  EINVAL: ['INVALID_PATH', 'is not a name the file system accepts'],
  EILSEQ: ['INVALID_PATH', 'is not a name the file system accepts'],
};

/** The errno of a Node file-system error, or undefined. */
export function errnoOf(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A typed error for a file-system failure on repo-relative `path`; MemoryErrors pass through, anything
 * without an errno is rethrown as it is (a bug, not a file-system answer).
 * @example throw fsError(err, 'notes/a.md/b.md') // INVALID_PATH: notes/a.md/b.md has a component that is a file…
 */
export function fsError(err: unknown, path: string): MemoryError {
  if (err instanceof MemoryError) return err;
  const errno = errnoOf(err);
  if (errno === undefined) throw err;
  const known = ERRNO[errno];
  const shown = path === '' ? 'the memory directory' : path;
  if (known) return new MemoryError(known[0], `${shown} ${known[1]}`, { data: { path, errno }, cause: err });
  // No space, read-only file system, permissions, I/O: nothing the caller's arguments can fix.
  return new MemoryError('IO_ERROR', `${shown}: the file system refused the operation (${errno})`, {
    data: { path, errno },
    cause: err,
  });
}

/** The refusal for a symbolic link met at `path` (a component or the file itself). */
export function linkRefusal(path: string): MemoryError {
  return new MemoryError('PATH_ESCAPE', `${path} is a symbolic link; memory never follows links`, { data: { path } });
}
