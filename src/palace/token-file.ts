/**
 * `--token-file F`: the palace token kept in a file the user controls (to reach the palace from another
 * machine, or keep one URL across restarts). An existing file must be a regular file readable by its
 * owner only and hold a well-formed token; a missing one is created (mode 0600) with a fresh token.
 */
import { closeSync, constants as fsc, lstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { MemoryError } from '../index.js';
import { isWellFormedToken, newToken } from './security.js';

function errno(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}

function create(path: string): string {
  const token = newToken();
  let fd: number;
  try {
    fd = openSync(path, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
  } catch (err) {
    throw new MemoryError('IO_ERROR', `cannot create the token file ${path}: ${errno(err)}`, {
      data: { errno: errno(err) },
      cause: err,
    });
  }
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  return token;
}

/**
 * The token in `path`, creating the file when it does not exist.
 * @example const token = readOrCreateToken('/home/me/.gitmem/palace-token')
 */
export function readOrCreateToken(path: string): string {
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    if (errno(err) === 'ENOENT') return create(path);
    throw new MemoryError('IO_ERROR', `cannot read the token file ${path}: ${errno(err)}`, {
      data: { errno: errno(err) },
      cause: err,
    });
  }
  if (!st.isFile())
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `the token file ${path} is not a regular file (a link is never followed)`,
      { data: { path } },
    );
  if ((st.mode & 0o077) !== 0)
    throw new MemoryError(
      'CREDENTIALS_INSECURE',
      `the token file ${path} is readable by others (mode ${(st.mode & 0o777).toString(8)}); chmod 600 it`,
      { data: { path } },
    );
  const fd = openSync(path, fsc.O_RDONLY | fsc.O_NOFOLLOW);
  let token: string;
  try {
    token = readFileSync(fd, 'utf8').trim();
  } finally {
    closeSync(fd);
  }
  if (!isWellFormedToken(token))
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `the token file ${path} must hold one token of 32 to 256 characters [A-Za-z0-9_-]`,
      { data: { path } },
    );
  return token;
}
