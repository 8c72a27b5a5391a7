/**
 * A durable write's work-tree files, written and flushed before the journal is: each new text goes to a
 * temp file in the git dir (invisible to `git status`, swept under the lease if a crash leaves it), is
 * flushed in the same flush as the write's objects and journal entry, and later moves into the work tree
 * with one rename. That saves the write a flush of its own for the files. A file system boundary between
 * the git dir and the work tree (EXDEV), or a mode that changed meanwhile, falls back to a temp file beside
 * the target, flushed there.
 */
import { closeSync, fchmodSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { gitDirAt } from '../git/common-dir.js';
import type { FileEdit } from './edits.js';
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
  /** Removes what is still staged (after a failure, or what a fallback did not use). */
  discard(): void;
}

const stagingDir = (memoryDir: string): string => join(gitDirAt(memoryDir) ?? join(memoryDir, '.git'), STAGING);
let counter = 0;

/** Writes the text of every edit that leaves a file into the staging directory (not flushed yet). */
export function stageFiles(memoryDir: string, fs: RepoFs, edits: readonly FileEdit[]): FileStage {
  const dir = stagingDir(memoryDir);
  const files = new Map<string, StagedFile>();
  const fds: number[] = [];
  let open = true;
  const close = (): void => {
    if (open) fds.forEach((fd) => closeSync(fd));
    open = false;
  };
  const stage: FileStage = { files, fds, close, discard: () => (close(), files.forEach((f) => rmSync(f.temp, { force: true }))) };
  try {
    mkdirSync(dir, { recursive: true });
    for (const e of edits) {
      if (e.after === null) continue;
      const existing = fs.info(e.file);
      const mode = existing?.kind === 'file' ? existing.mode : undefined;
      const temp = join(dir, `${process.pid}-${++counter}`);
      const fd = openSync(temp, 'wx', mode ?? 0o666);
      fds.push(fd);
      files.set(e.file, { path: e.file, mode, temp });
      const data = Buffer.from(e.after);
      for (let off = 0; off < data.length; ) off += writeSync(fd, data, off);
      if (mode !== undefined) fchmodSync(fd, mode);
    }
  } catch (err) {
    stage.discard();
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
export function sweepStaged(memoryDir: string): void {
  const dir = stagingDir(memoryDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // none staged yet
  }
  for (const name of names) rmSync(join(dir, name), { force: true });
}
