/**
 * A durable write's work-tree files, written and flushed before the journal is: each new text goes to a
 * temp file in the git dir (invisible to `git status`, swept under the lease if a crash leaves it), is
 * flushed in the same flush as the write's objects and journal entry, and later moves into the work tree
 * with one rename. That saves the write a flush of its own for the files. A file system boundary between
 * the git dir and the work tree (EXDEV), or a mode that changed meanwhile, falls back to a temp file beside
 * the target, flushed there. The staging directory is only ever used through a descriptor opened without
 * following links, so a link planted there never sends a text, a rename or a sweep elsewhere.
 */
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { gitDirAt } from '../git/common-dir.js';
import type { FileEdit } from './edit-types.js';
import { errnoOf, fsError } from './fs-errors.js';
import type { RepoFs } from './repo-fs.js';

const STAGING = 'gitmem-staged';

/** One file's text, flushed or about to be, in the git dir. */
export interface StagedFile {
  path: string;
  /** The mode set on it (the existing file's), or undefined: the umask's, as a new file gets. */
  mode: number | undefined;
  temp: string;
}

/** The staged files of one write: `fds` to flush, then `close` before any of them moves. */
export interface FileStage {
  files: Map<string, StagedFile>;
  fds: number[];
  close(): void;
  /** Removes what is still staged (after a failure, or what a fallback did not use); ends the stage. */
  discard(): void;
}

const stagingDir = (memoryDir: string, gitDir?: string): string =>
  join(gitDir ?? gitDirAt(memoryDir) ?? join(memoryDir, '.git'), STAGING);
const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;
let counter = 0;

/**
 * Opens the staging directory without following a link (created when absent); null where it cannot be
 * named through its fd (no /proc/self/fd) or is not a plain directory: the write then stages nothing.
 */
function openStaging(memoryDir: string, create: boolean, gitDir?: string): number | null {
  if (process.platform !== 'linux' || !existsSync('/proc/self/fd')) return null;
  const dir = stagingDir(memoryDir, gitDir);
  try {
    if (create) mkdirSync(dir, { recursive: true });
    return openSync(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return null; // absent, a link (even a dangling one) or not a directory: nothing staged there
  }
}

/** Writes the text of every edit that leaves a file into the staging directory (not flushed yet). */
export function stageFiles(memoryDir: string, fs: RepoFs, edits: readonly FileEdit[], gitDir?: string): FileStage {
  const files = new Map<string, StagedFile>();
  const fds: number[] = [];
  const dirFd = openStaging(memoryDir, true, gitDir);
  let open = true;
  const close = (): void => {
    if (open) fds.forEach((fd) => closeSync(fd));
    open = false;
  };
  let ended = false;
  const discard = (): void => {
    if (ended) return; // the descriptor's number may already name another file
    ended = true;
    close();
    files.forEach((f) => rmSync(f.temp, { force: true }));
    files.clear();
    if (dirFd !== null) closeSync(dirFd);
  };
  const stage: FileStage = { files, fds, close, discard };
  if (dirFd === null) return stage;
  try {
    for (const e of edits) {
      if (e.after === null) continue;
      const existing = fs.info(e.file);
      const mode = existing?.kind === 'file' ? existing.mode : undefined;
      const temp = `/proc/self/fd/${dirFd}/${process.pid}-${++counter}`;
      const fd = openSync(temp, 'wx', mode ?? 0o666);
      fds.push(fd);
      files.set(e.file, { path: e.file, mode, temp });
      const data = Buffer.from(e.after);
      for (let off = 0; off < data.length;) off += writeSync(fd, data, off);
      if (mode !== undefined) fchmodSync(fd, mode);
    }
  } catch (err) {
    discard();
    throw err;
  }
  return stage;
}

/**
 * Puts a staged file at its path: one rename into the verified directory. False when it cannot (another
 * file system, or the target's mode is no longer the one staged): the caller then writes it in place.
 */
export function placeStaged(fs: RepoFs, staged: StagedFile, mode: number | undefined): boolean {
  if (staged.mode !== mode) return false;
  try {
    fs.moveIn(staged.path, staged.temp);
    return true;
  } catch (err) {
    if (errnoOf(err) === 'EXDEV') return false;
    throw fsError(err, staged.path);
  }
}

/** Removes files a crashed writer left staged. Call under the lease: no live write has any then. */
export function sweepStaged(memoryDir: string, gitDir?: string): void {
  const dirFd = openStaging(memoryDir, false, gitDir);
  if (dirFd === null) return;
  try {
    const dir = `/proc/self/fd/${dirFd}`;
    for (const name of readdirSync(dir)) rmSync(`${dir}/${name}`, { force: true });
  } finally {
    closeSync(dirFd);
  }
}
