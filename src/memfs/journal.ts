/**
 * A one-entry write-ahead journal that makes a write crash-safe. Before a write touches the work tree it
 * records the commit it is about to publish (already in the object store) and who is writing (pid, host,
 * process start time); the entry is removed once HEAD and the index are published, and also when the
 * write fails (a failed call is never finished later). So an entry found under the lease belongs to a
 * writer that died mid-write, and the next writer finishes the job (rolls forward) when the work tree
 * still shows only that write, or sets the entry aside when anything else changed.
 *
 * Recovery never wedges the repository: an entry it cannot finish (unreadable, its writer still alive,
 * or a step that fails) is renamed to `gitmem-write.<time>.rejected.json` beside it, the call that found
 * it fails once with RECOVERY_SET_ASIDE naming that file, and the next write proceeds.
 */
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { pathProblem } from '../blocks/path-rules.js';
import { isMemoryError, MemoryError } from '../errors.js';
import { gitDirAt } from '../git/common-dir.js';
import { syncAll } from '../git/durable.js';
import type { ObjectBatch } from '../git/objects.js';
import { OBJECT_ID } from '../git/object-format.js';
import { isProcessAlive, processStartTime } from '../git/lease-file.js';
import type { GitRunner } from '../git/runner.js';
import { sweepStaged } from './file-staging.js';
import type { JournalEntry, RecoveryOutcome } from './journal-entry.js';
import { finishWrite } from './journal-finish.js';

export type { JournalEntry, RecoveryOutcome } from './journal-entry.js';

/** The journal file, in the checkout's own git dir (`gitDir`: found by the caller, once, when it has it). */
function journalPath(memoryDir: string, gitDir = gitDirAt(memoryDir) ?? join(memoryDir, '.git')): string {
  return join(gitDir, 'gitmem-write.json');
}

let owner: Pick<JournalEntry, 'pid' | 'hostname' | 'pidStart'> | undefined;

/** This process, as a journal names its writer (computed once: none of it changes while we run). */
export function journalOwner(): Pick<JournalEntry, 'pid' | 'hostname' | 'pidStart'> {
  if (owner?.pid !== process.pid) {
    const pidStart = processStartTime(process.pid);
    owner = { pid: process.pid, hostname: hostname(), ...(pidStart === null ? {} : { pidStart }) };
  }
  return owner;
}

/** Records the write about to happen, not durably (temp file + rename: atomic). */
function writeJournal(file: string, entry: JournalEntry): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(entry));
  renameSync(`${file}.tmp`, file);
}

/** A write's objects and journal entry, written and being flushed, not yet in place (see prepareStore). */
export interface PreparedStore {
  /** Places the objects, then (after `onObjects`) the entry, and flushes their directories. */
  publish(onObjects: () => void): Promise<void>;
  /** Removes the temp files instead (waits for their flush to settle first). */
  discard(): Promise<void>;
}

/**
 * Stores a write's objects and records its entry, in the order a crash cannot break: objects before the
 * entry naming them, the entry before any work-tree file changes. Durably that takes two flushes, not
 * four, and the first starts here, before the write is even allowed: the objects' and the entry's temp
 * files (with `alsoFlush`, the write's staged work-tree files) are written and their flush begins, so it can
 * overlap the clean check. `publish` then renames them (objects, `onObjects`, entry) and flushes every
 * directory that got an entry at once. A power loss before that flush ends leaves the work tree untouched,
 * and recovery abandons an entry whose objects did not survive.
 */
export function prepareStore(
  objects: ObjectBatch,
  memoryDir: string,
  entry: JournalEntry,
  durable: boolean,
  alsoFlush: readonly number[] = [],
  gitDir?: string,
): PreparedStore {
  const file = journalPath(memoryDir, gitDir);
  if (!durable) {
    return {
      publish: async (onObjects) => {
        objects.store();
        onObjects();
        writeJournal(file, entry);
      },
      discard: async () => undefined,
    };
  }
  const staged = objects.stageDurably();
  let fd: number;
  try {
    fd = openSync(`${file}.tmp`, 'w');
  } catch (err) {
    staged.discard();
    throw err;
  }
  const flushed = (async () => {
    writeFileSync(fd, JSON.stringify(entry));
    await syncAll({ data: [...staged.fds, fd], full: alsoFlush }, true); // on the pool: the clean check needs this thread
  })();
  flushed.catch(() => undefined); // awaited by publish or discard
  let open = true;
  const discard = async (): Promise<void> => {
    await flushed.catch(() => undefined);
    if (!open) return;
    open = false;
    staged.discard();
    closeSync(fd);
    rmSync(`${file}.tmp`, { force: true });
  };
  const publish = async (onObjects: () => void): Promise<void> => {
    try {
      await flushed;
    } catch (err) {
      await discard();
      throw err;
    }
    open = false;
    closeSync(fd);
    const dirs = staged.place();
    onObjects();
    renameSync(`${file}.tmp`, file);
    await syncAll({ dirs: [...dirs, dirname(file)] });
  };
  return { publish, discard };
}

/** Removes the entry once the write is published or rolled back. */
export function clearJournal(memoryDir: string, gitDir?: string): void {
  rmSync(journalPath(memoryDir, gitDir), { force: true });
}

/**
 * Retires the entry of a write that failed, so it can never be finished later: removed, else renamed
 * aside. Throws IO_ERROR only when neither works.
 */
export function retireJournal(memoryDir: string, gitDir?: string): void {
  const file = journalPath(memoryDir, gitDir);
  try {
    rmSync(file, { force: true });
  } catch {
    try {
      renameSync(file, file.replace(/\.json$/, `.${Date.now()}.failed.json`));
    } catch (err) {
      throw new MemoryError(
        'IO_ERROR',
        `the journal ${file} of a failed write could not be removed; remove it before the next write`,
        { cause: err, data: { journal: file } },
      );
    }
  }
}

function parseJournal(text: string): JournalEntry | null {
  try {
    const e = JSON.parse(text) as Partial<JournalEntry>;
    const ok =
      typeof e.pid === 'number' &&
      typeof e.commit === 'string' &&
      OBJECT_ID.test(e.commit) &&
      (e.parent === null ||
        (typeof e.parent === 'string' && OBJECT_ID.test(e.parent) && e.parent.length === e.commit.length)) &&
      Array.isArray(e.paths) &&
      e.paths.every((p) => typeof p === 'string' && pathProblem(p) === null);
    return ok ? ({ subject: '', ...e } as JournalEntry) : null;
  } catch {
    return null;
  }
}

/** True when the entry's writer is certainly still running (same host, pid alive, same start time). */
function writerAlive(e: JournalEntry): boolean {
  if (e.hostname === undefined || e.hostname !== hostname() || !isProcessAlive(e.pid)) return false;
  const now = e.pidStart === undefined ? null : processStartTime(e.pid);
  return now === null || now === e.pidStart;
}

/** Renames the entry aside; throws RECOVERY_SET_ASIDE unless `quiet`. */
function setAside(from: string, entry: JournalEntry | null, why: string, quiet = false): void {
  const to = from.replace(/\.json$/, `.${new Date().toISOString().replace(/[:.]/g, '-')}.rejected.json`);
  try {
    renameSync(from, to);
  } catch (err) {
    rmSync(from, { force: true });
    if (quiet) return;
    throw new MemoryError(
      'RECOVERY_SET_ASIDE',
      `an interrupted write could not be finished (${why}); its journal was removed`,
      { cause: err, data: { reason: why } },
    );
  }
  if (quiet) return;
  const commit = entry ? ` (commit ${entry.commit.slice(0, 7)})` : '';
  const inspect = entry ? `cat ${to}; git show --stat ${entry.commit}` : `cat ${to}`;
  throw new MemoryError(
    'RECOVERY_SET_ASIDE',
    `an interrupted write${commit} could not be finished: ${why}; its journal was set aside as ${to} (inspect: ${inspect}); retry the call (git status shows any file it left)`,
    { data: { journal: to, commit: entry?.commit ?? null, reason: why } },
  );
}

/**
 * Finishes or retires a write that a killed process left half done. Call it under the lease. `durable`
 * (default on): the finished write is flushed like a normal durable write.
 * @example await recoverInterruptedWrite(git, memoryDir) // 'none' when there was nothing to do
 */
export async function recoverInterruptedWrite(
  git: GitRunner,
  memoryDir: string,
  durable = true,
  gitDir?: string,
): Promise<RecoveryOutcome> {
  sweepStaged(memoryDir, gitDir);
  const file = journalPath(memoryDir, gitDir);
  if (!existsSync(file)) return 'none';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 'none'; // removed meanwhile
  }
  const entry = parseJournal(text);
  if (entry === null) setAside(file, null, 'its journal is not a valid entry');
  else if (writerAlive(entry))
    setAside(file, entry, `its writer (pid ${entry.pid}) is still running, so it did not die mid-write`);
  const e = entry as JournalEntry;
  let outcome: RecoveryOutcome;
  try {
    outcome = await finishWrite(git, memoryDir, e, durable);
  } catch (err) {
    // Another git process's lock or a slow git: leave the entry for the next call to finish.
    if (isMemoryError(err, 'GIT_LOCKED') || isMemoryError(err, 'GIT_TIMEOUT')) throw err;
    setAside(file, e, (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'a step failed');
    throw err; // unreachable: setAside throws
  }
  if (outcome === 'abandoned') setAside(file, e, 'the repository moved on', true);
  else rmSync(file, { force: true });
  return outcome;
}
