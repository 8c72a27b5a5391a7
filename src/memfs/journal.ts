/**
 * A one-entry write-ahead journal that makes a write crash-safe. Before a write touches the work tree it
 * records the commit it is about to publish (already in the object store); the entry is removed once HEAD
 * and the index are published. A writer killed in between leaves the entry behind, and the next writer —
 * holding the lease, so the entry is certainly orphaned — finishes the job (rolls forward) when the work
 * tree still shows only that write, or steps aside when anything else changed. Nothing is ever discarded.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitDirAt } from '../git/common-dir.js';
import { objectId } from '../git/objects.js';
import { catFileBatchRawOp, revParseOp } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';
import { publishCommit } from './commit.js';

export interface JournalEntry {
  pid: number;
  parent: string | null;
  commit: string;
  paths: string[];
  subject: string;
}

export type RecoveryOutcome = 'none' | 'rolled_forward' | 'already_published' | 'abandoned';

function journalPath(memoryDir: string): string {
  return join(gitDirAt(memoryDir) ?? join(memoryDir, '.git'), 'gitmem-write.json');
}

/** Records the write about to happen (atomically: temp file + rename). */
export function writeJournal(memoryDir: string, entry: JournalEntry): void {
  const file = journalPath(memoryDir);
  writeFileSync(`${file}.tmp`, JSON.stringify(entry));
  renameSync(`${file}.tmp`, file);
}

/** Removes the entry once the write is published or rolled back. */
export function clearJournal(memoryDir: string): void {
  rmSync(journalPath(memoryDir), { force: true });
}

function readJournal(memoryDir: string): JournalEntry | null {
  try {
    const entry = JSON.parse(readFileSync(journalPath(memoryDir), 'utf8')) as JournalEntry;
    return typeof entry.commit === 'string' && Array.isArray(entry.paths) ? entry : null;
  } catch {
    return null;
  }
}

function workTreeBlob(memoryDir: string, path: string): string | null {
  try {
    return objectId('blob', readFileSync(join(memoryDir, path)));
  } catch {
    return null;
  }
}

/** Blob ids of `paths` at `rev` (null where absent), in one git call. */
async function blobIds(git: GitRunner, memoryDir: string, rev: string | null, paths: readonly string[]): Promise<Array<string | null>> {
  if (rev === null) return paths.map(() => null);
  const objects = await git.exec(catFileBatchRawOp(paths.map((p) => `${rev}:${p}`)), { cwd: memoryDir });
  return paths.map((_, i) => (objects[i]?.type === 'blob' ? (objects[i]?.id ?? null) : null));
}

/**
 * Finishes or retires a write that a killed process left half done. Call it under the lease.
 * @example await recoverInterruptedWrite(git, memoryDir) // 'none' when there was nothing to do
 */
export async function recoverInterruptedWrite(git: GitRunner, memoryDir: string): Promise<RecoveryOutcome> {
  const entry = readJournal(memoryDir);
  if (!entry) return 'none';
  const head = await git.exec(revParseOp('HEAD'), { cwd: memoryDir });
  const { paths, commit, parent, subject } = entry;
  let outcome: RecoveryOutcome = 'abandoned';
  if (head === commit) {
    await git.run(['update-index', '--add', '--remove', '--', ...paths], { cwd: memoryDir });
    outcome = 'already_published';
  } else if (head === parent) {
    const [wanted, before] = await Promise.all([blobIds(git, memoryDir, commit, paths), blobIds(git, memoryDir, parent, paths)]);
    const current = paths.map((p) => workTreeBlob(memoryDir, p));
    const onlyThisWrite = current.every((id, i) => id === wanted[i] || id === before[i]);
    const complete = current.every((id, i) => id === wanted[i]);
    if (onlyThisWrite && !complete) {
      // Some files were not written yet: put the commit's version of exactly those paths in place.
      const missing = paths.filter((_, i) => current[i] !== wanted[i]);
      const restore = missing.filter((p) => wanted[paths.indexOf(p)] !== null);
      if (restore.length > 0) await git.run(['checkout', commit, '--', ...restore], { cwd: memoryDir });
      for (const p of missing) if (wanted[paths.indexOf(p)] === null) rmSync(join(memoryDir, p), { force: true });
    }
    if (onlyThisWrite) {
      await publishCommit(git, { memoryDir, commit, parent, paths, subject });
      outcome = 'rolled_forward';
    }
  }
  clearJournal(memoryDir);
  return outcome;
}
