/**
 * Applies a planned set of file edits as exactly one commit, or not at all: validate with the hook's
 * rules, write, commit; on any failure put every file and the index back as they were.
 */
import { lstatSync, mkdirSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { validateChanges, type FileChange } from '../blocks/validate.js';
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { readProtectedPaths } from '../hooks/protected.js';
import { composeCommit, publishCommit, resetIndexPaths, type ComposedCommit, type Identity } from './commit.js';
import { clearJournal, writeJournal } from './journal.js';
import type { BaseTrees } from './tree-edit.js';

/** One file's change. `before`/`after` null = absent. `renamedFrom` marks the destination of a move. */
export interface FileEdit {
  file: string;
  /** Text, or raw bytes for non-text assets (kept byte-exact for rollback). */
  before: string | Buffer | null;
  after: string | Buffer | null;
  renamedFrom?: string;
}

/** Turns edits into the validator's change list (a move becomes one 'renamed' change). */
export function toChanges(edits: readonly FileEdit[]): FileChange[] {
  const movedSources = new Set(edits.flatMap((e) => (e.renamedFrom ? [e.renamedFrom] : [])));
  const asText = (v: string | Buffer | null): string | null => (typeof v === 'string' ? v : v === null ? null : v.toString('utf8'));
  const sourceBefore = new Map(edits.map((e) => [e.file, asText(e.before)]));
  const changes: FileChange[] = [];
  for (const e of edits) {
    if (e.after === null && movedSources.has(e.file)) continue;
    if (e.renamedFrom && e.after !== null) {
      const headContent = sourceBefore.get(e.renamedFrom) ?? null;
      changes.push({ status: 'renamed', path: e.file, oldPath: e.renamedFrom, content: asText(e.after), headContent });
    } else if (e.after === null) {
      changes.push({ status: 'deleted', path: e.file, content: null, headContent: asText(e.before) });
    } else {
      const status = e.before === null ? 'added' : 'modified';
      changes.push({ status, path: e.file, content: asText(e.after), headContent: asText(e.before) });
    }
  }
  return changes;
}

function writeState(memoryDir: string, file: string, content: string | Buffer | null): void {
  const abs = join(memoryDir, file);
  if (content === null) {
    try {
      unlinkSync(abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    pruneEmptyDirs(memoryDir, dirname(abs));
    return;
  }
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

function pruneEmptyDirs(root: string, dir: string): void {
  let current = dir;
  while (current.length > root.length && current.startsWith(root)) {
    try {
      rmdirSync(current);
    } catch {
      return; // not empty (or already gone): stop climbing
    }
    current = dirname(current);
  }
}

export interface CommitEditsRequest {
  memoryDir: string;
  edits: readonly FileEdit[];
  message: string;
  author: Identity;
  /** HEAD (the parent) and its trees along the edited paths. */
  base: BaseTrees;
  date?: Date;
  /** Label for messages, e.g. `memory str_replace`. */
  operation: string;
  /** Test seam: called after each durable step (used to prove crash recovery). */
  onStep?: (step: WriteStep) => void;
}

/** The durable steps of a write, in order. */
export type WriteStep = 'objects' | 'journaled' | 'files' | 'published';

function refuseSymlinkTargets(memoryDir: string, edits: readonly FileEdit[]): void {
  for (const e of edits) {
    if (e.after === null) continue;
    try {
      if (lstatSync(join(memoryDir, e.file)).isSymbolicLink()) {
        throw new MemoryError('INVALID_PATH', `${e.file} is a symbolic link; memory files must be regular files`, { data: { path: e.file } });
      }
    } catch (err) {
      if (err instanceof MemoryError) throw err;
    }
  }
}

/** A write checked and composed in memory, ready to apply (see draftEdits). */
export interface Draft {
  req: CommitEditsRequest;
  effective: FileEdit[];
  paths: string[];
  composed: ComposedCommit;
}

/**
 * Checks `edits` and composes their commit without touching anything on disk. Throws NO_CHANGES when
 * every edit is a no-op and VALIDATION_FAILED when the format rules reject it.
 */
export function draftEdits(req: CommitEditsRequest): Draft {
  const effective = req.edits.filter((e) => e.before !== e.after);
  if (effective.length === 0) {
    throw new MemoryError(
      'NO_CHANGES',
      `${req.operation} made no effective changes; nothing was committed. The result matched what was already on disk.`,
    );
  }
  const problems = validateChanges(toChanges(effective), { protectedPaths: readProtectedPaths(req.memoryDir) });
  if (problems.length > 0) {
    throw new MemoryError('VALIDATION_FAILED', `Frontmatter validation failed:\n  ${problems.join('\n  ')}`, {
      data: { errors: problems },
    });
  }
  refuseSymlinkTargets(req.memoryDir, effective);
  const paths = [...new Set(effective.map((e) => e.file))];
  const changes = effective.map((e) => ({ file: e.file, content: e.after === null ? null : Buffer.from(e.after) }));
  const { memoryDir, message, author, base } = req;
  const composed = composeCommit({ memoryDir, changes, message, author, base, ...(req.date ? { date: req.date } : {}) });
  return { req, effective, paths, composed };
}

/**
 * Validates, writes and commits `edits`; returns the commit id. Throws NO_CHANGES when every edit is a
 * no-op and VALIDATION_FAILED when the format rules reject it — in both cases nothing is touched.
 */
export async function commitEdits(git: GitRunner, req: CommitEditsRequest): Promise<string> {
  return applyDraft(git, draftEdits(req));
}

/** Stores a draft's objects, then writes its files and publishes its commit, crash-safely (journal first). */
export async function applyDraft(git: GitRunner, draft: Draft): Promise<string> {
  const { req, effective, paths, composed } = draft;
  const { memoryDir, message, base } = req;
  const commit = composed.commit;
  const step = req.onStep ?? ((): void => undefined);
  composed.objects.store();
  step('objects');
  const subject = message.split('\n')[0] ?? '';
  writeJournal(memoryDir, { pid: process.pid, parent: base.head, commit, paths, subject });
  step('journaled');
  let indexTouched = false;
  try {
    for (const e of effective) writeState(memoryDir, e.file, e.after);
    step('files');
    const onStaged = (): void => void (indexTouched = true);
    await publishCommit(git, { memoryDir, commit, parent: base.head, paths, subject, onStaged });
    step('published');
  } catch (err) {
    for (const e of [...effective].reverse()) writeState(memoryDir, e.file, e.before);
    if (indexTouched) await resetIndexPaths(git, memoryDir, paths);
    clearJournal(memoryDir);
    throw err;
  }
  clearJournal(memoryDir);
  return commit;
}
