/**
 * The work-tree half of a write and its undo. Each file is written through the call's race-safe RepoFs,
 * recording what stood there (content and mode) first; a failed write puts every file back, then the index
 * entries, then the ref. Undo never stops half-way: each step is tried, and what could not be restored is
 * returned so the caller reports it (ROLLBACK_INCOMPLETE) instead of leaving a journal behind.
 */
import { MemoryError, toMemoryError } from '../errors.js';
import type { IndexInfoEntry } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';
import { restoreIndex, undoRefMove, type PublishState } from './commit.js';
import type { FileEdit } from './edit-types.js';
import { placeStaged, type StagedFile } from './file-staging.js';
import { errnoOf, fsError, linkRefusal } from './fs-errors.js';
import type { RepoFs } from './repo-fs.js';

/** What stood at a path before the write changed it. `mode` null: there was no file. */
export interface UndoRecord {
  file: string;
  before: string | Buffer | null;
  mode: number | null;
}

const parentOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/**
 * Applies one edit to the work tree, recording how to undo it first. An existing file keeps its mode.
 * `staged`: the new text already flushed in the git dir (file-staging.ts), moved in when it still fits.
 */
export function writeFile(fs: RepoFs, e: FileEdit, undo: UndoRecord[], durable = false, staged?: StagedFile): void {
  const existing = fs.info(e.file);
  if (existing?.kind === 'link') throw linkRefusal(e.file);
  if (existing && existing.kind !== 'file') {
    throw new MemoryError(
      'INVALID_PATH',
      `${e.file} is ${existing.kind === 'dir' ? 'a directory' : 'not a regular file'}`,
      { data: { path: e.file } },
    );
  }
  undo.push({ file: e.file, before: e.before, mode: existing ? existing.mode : null });
  if (e.after === null) {
    fs.unlink(e.file);
    fs.pruneEmptyDirs(parentOf(e.file));
  } else if (staged === undefined || !placeStaged(fs, staged, existing?.mode)) {
    fs.writeFile(e.file, Buffer.from(e.after), existing?.mode, durable);
  }
}

export interface RollbackRequest {
  fs: RepoFs;
  memoryDir: string;
  undo: readonly UndoRecord[];
  state: PublishState;
  commit: string;
  parent: string | null;
  /** Index entries of the changed paths before the write. */
  before: readonly IndexInfoEntry[];
}

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';

/**
 * Puts back every file (newest first), the index entries and the ref. Never throws; returns one line per
 * thing it could not restore (empty when the repository is exactly as before).
 */
export async function rollBack(git: GitRunner, r: RollbackRequest): Promise<string[]> {
  const problems: string[] = [];
  for (const u of [...r.undo].reverse()) {
    try {
      if (u.before === null) {
        r.fs.unlink(u.file);
        r.fs.pruneEmptyDirs(parentOf(u.file));
      } else {
        r.fs.writeFile(u.file, Buffer.from(u.before), u.mode ?? undefined);
      }
    } catch (err) {
      problems.push(`${u.file} (${firstLine(err)})`);
    }
  }
  if (r.state.staged) {
    try {
      await restoreIndex(git, r.memoryDir, r.before);
      r.state.staged = false;
    } catch (err) {
      problems.push(`the index entries of ${r.before.map((e) => e.path).join(', ')} (${firstLine(err)})`);
    }
  }
  if (r.state.moved) {
    try {
      await undoRefMove(git, r.memoryDir, r.commit, r.parent, r.state);
    } catch (err) {
      problems.push(
        `HEAD, which still points at the failed write's commit ${r.commit.slice(0, 7)} (${firstLine(err)})`,
      );
    }
  }
  return problems;
}

/**
 * The error a failed write reports: the original failure as a typed error, or ROLLBACK_INCOMPLETE naming
 * what could not be put back.
 */
export function failure(operation: string, err: unknown, problems: readonly string[]): MemoryError {
  const cause = err instanceof MemoryError ? err : errnoOf(err) !== undefined ? fsError(err, '') : toMemoryError(err);
  if (problems.length === 0) return cause;
  return new MemoryError(
    'ROLLBACK_INCOMPLETE',
    `${operation} failed (${cause.code}: ${firstLine(cause)}) and could not put back ${problems.join('; ')}; ` +
      'nothing of this call will be committed later, and what is left shows as uncommitted changes (git status)',
    { cause: err, data: { problems, error: cause.code } },
  );
}
