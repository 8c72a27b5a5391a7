/**
 * The file I/O of connect and disconnect: strict UTF-8 reads (a byte we cannot give back unchanged is a
 * refusal, not a silent rewrite), atomic writes that keep the file's mode (and write through a symbolic
 * link, as dotfile managers use), backups beside the file, and a fingerprint of contents.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  rmdirSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { MemoryError } from '../index.js';

function ioError(path: string, what: string, err: unknown): MemoryError {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  return new MemoryError('IO_ERROR', `cannot ${what} ${path} (${code})`, { data: { path, errno: code }, cause: err });
}

/**
 * The file's text, or undefined when it does not exist; refuses a file that is not UTF-8.
 * @example readIfExists('/nope') === undefined
 */
export function readIfExists(path: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioError(path, 'read', err);
  }
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    throw new MemoryError('NOT_UTF8', `${path} is not UTF-8 text: gitmem will not rewrite it; gitmem changed nothing`, {
      data: { path },
    });
  }
  return text;
}

/** Where the bytes of `path` really live: a symbolic link's target, so a write keeps the link. */
function target(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path;
  }
}

/**
 * Writes `text` to `path` atomically (a temp file in the same directory, then rename), keeping an
 * existing file's mode; a new file (and missing parent directories) gets `mode`.
 */
export function writeAtomic(path: string, text: string, mode: number): void {
  const real = target(path);
  const tmp = join(dirname(real), `.${basename(real)}.gitmem-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(dirname(real), { recursive: true });
    let keep = mode;
    try {
      keep = statSync(real).mode & 0o7777;
    } catch {
      // a new file: `mode`
    }
    writeFileSync(tmp, text, { mode: keep, flag: 'wx' });
    chmodSync(tmp, keep); // the umask may have narrowed it
    renameSync(tmp, real);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw ioError(path, 'write', err);
  }
}

/** Deletes `path` (a file connect created and nothing else uses now). */
export function removeFile(path: string): void {
  try {
    unlinkSync(target(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError(path, 'remove', err);
  }
}

/**
 * Removes `dir` and its parents up to and including `top` while they are empty (a directory connect
 * created); stops quietly at the first that is not (the user put something there, or a backup).
 */
export function removeEmptyDirs(dir: string, top: string): void {
  for (let d = dir; d === top || d.startsWith(top + sep); d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === top) return;
  }
}

/** The backup beside a settings file: its bytes before gitmem last changed it. */
export function backupPath(path: string): string {
  return `${path}.gitmem-backup`;
}

/** SHA-256 of a text, hex: what the record keeps instead of the user's settings (which may hold secrets). */
export function fingerprint(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
