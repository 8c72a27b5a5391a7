/**
 * Applies a planned set of file edits as exactly one commit, or not at all: validate with the hook's
 * rules, write, commit; on any failure put every file, the index and the ref back as they were
 * (rollback.ts).
 */
import { findProblems, formatProblem, problemCode, type FileChange, type Problem } from '../blocks/validate.js';
import { secretProblem } from '../blocks/validate-content.js';
import { scanText } from '../blocks/secrets.js';
import { MemoryError } from '../errors.js';
import { gitDirsOf } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
import { readProtectedPaths } from '../hooks/protected.js';
import { readAllowedSecrets } from '../hooks/secret-allow.js';
import { readLayoutAt } from '../hooks/layout-config.js';
import { composeCommit } from '../git/compose-commit.js';
import { publishCommit, type PublishState } from './commit.js';
import type { CommitEditsRequest, Draft, FileEdit, WriteStep } from './edit-types.js';
import { clearJournal, retireJournal } from './journal.js';
import { prepareWrite, type PreparedWrite } from './prepare-write.js';
import { RepoFs } from './repo-fs.js';
import { failure, rollBack, writeFile, type UndoRecord } from './rollback.js';

export type { CommitEditsRequest, Draft, FileEdit, WriteStep } from './edit-types.js';

/** Turns edits into the validator's change list (a move becomes one 'renamed' change). */
export function toChanges(edits: readonly FileEdit[]): FileChange[] {
  const movedSources = new Set(edits.flatMap((e) => (e.renamedFrom ? [e.renamedFrom] : [])));
  const asText = (v: string | Buffer | null): string | null =>
    typeof v === 'string' ? v : v === null ? null : v.toString('utf8');
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

/**
 * Checks `edits` and composes their commit without touching anything on disk. Throws NO_CHANGES when
 * every edit is a no-op and VALIDATION_FAILED (SECRET_DETECTED, BUDGET_EXCEEDED) when the rules reject it.
 */
export function draftEdits(req: CommitEditsRequest): Draft {
  const effective = req.edits.filter((e) => e.before !== e.after);
  if (effective.length === 0) {
    throw new MemoryError(
      'NO_CHANGES',
      `${req.operation} made no effective changes; nothing was committed. The result matched what was already on disk.`,
    );
  }
  const gitDirs = req.gitDirs ?? gitDirsOf(req.memoryDir);
  const allowed = readAllowedSecrets(req.memoryDir, gitDirs.commonDir);
  const found = findProblems(toChanges(effective), {
    layout: readLayoutAt(gitDirs.commonDir),
    protectedPaths: readProtectedPaths(req.memoryDir, gitDirs.commonDir),
    secrets: req.skipSecretScan ? false : { allowed },
    systemBudget: req.systemBudget,
    liftProtection: req.liftProtection,
  });
  // The reason becomes the commit message, which is pushed and kept like the files.
  if (!req.skipSecretScan) found.push(...scanText(req.message, { allowed }).map((f) => secretProblem('(reason)', f)));
  if (found.length > 0) throw refusal(found);
  const paths = [...new Set(effective.map((e) => e.file))];
  const changes = effective.map((e) => ({ file: e.file, content: e.after === null ? null : Buffer.from(e.after) }));
  const { message, author, base } = req;
  const composed = composeCommit({
    commonDir: gitDirs.commonDir,
    changes,
    message,
    author,
    base,
    date: req.date,
  });
  return { req: { ...req, gitDirs }, effective, paths, composed };
}

const HEADLINES = {
  VALIDATION_FAILED: 'Frontmatter validation failed',
  SECRET_DETECTED: 'Refused: the change adds what looks like a credential (nothing was written)',
  BUDGET_EXCEEDED: 'Refused: the change grows memory past its budget (nothing was written)',
} as const;

/** The typed refusal for validator problems; a credential is named by rule, line and fingerprint only. */
function refusal(found: readonly Problem[]): MemoryError {
  const code = problemCode(found);
  const problems = found.map(formatProblem);
  const secrets = found
    .filter((p) => p.code === 'SECRET_DETECTED')
    .map((p) => ({ path: p.path, line: p.line, rule: p.rule, fingerprint: p.fingerprint }));
  return new MemoryError(code, `${HEADLINES[code]}:\n  ${problems.join('\n  ')}`, {
    data: { errors: problems, ...(secrets.length > 0 ? { secrets } : {}) },
  });
}

/**
 * Validates, writes and commits `edits`; returns the commit id. Throws NO_CHANGES when every edit is a
 * no-op and VALIDATION_FAILED when the format rules reject it — in both cases nothing is touched.
 */
export async function commitEdits(git: GitRunner, req: CommitEditsRequest): Promise<string> {
  const fs = new RepoFs(req.memoryDir);
  try {
    return await applyDraft(git, draftEdits(req), fs);
  } finally {
    fs.close();
  }
}

/**
 * The write's objects in the store and its files' texts staged (the early preparation when it was made for this
 * draft). Unreferenced objects are harmless if what follows fails; the files' texts wait, flushed, in the git dir.
 */
async function publishObjects(
  draft: Draft,
  fs: RepoFs,
  early: PreparedWrite | undefined,
  step: (s: WriteStep) => void,
): Promise<PreparedWrite> {
  let prepared: PreparedWrite | undefined = early?.draft === draft ? early : undefined;
  if (early !== undefined && prepared === undefined) await early.discard();
  try {
    prepared ??= prepareWrite(draft, fs);
    await prepared.store.publish(() => step('objects'));
    prepared.stage?.close();
    return prepared;
  } catch (err) {
    await prepared?.discard();
    throw failure(draft.req.operation, err, []);
  }
}

/**
 * Stores a draft's objects, then writes its files and publishes its commit, crash-safely (journal first).
 * Files go through `fs`, the call's race-safe view of the repository. A failure puts back every file
 * (with its mode), the index entries and the ref; the journal is removed whatever happens, because only a
 * writer that died may have its write finished later. What cannot be put back is reported as
 * ROLLBACK_INCOMPLETE (the leftovers then show as uncommitted changes), never committed.
 */
export async function applyDraft(git: GitRunner, draft: Draft, fs: RepoFs, early?: PreparedWrite): Promise<string> {
  const { req, effective, composed } = draft;
  const { memoryDir, message, base } = req;
  const gitDirs = req.gitDirs ?? gitDirsOf(memoryDir);
  const commit = composed.commit;
  const step = req.onStep ?? ((): void => undefined);
  const subject = message.split('\n')[0] ?? '';
  // Durable order: objects, then the journal naming them, then the files, then the index and the ref —
  // each on disk before the next starts, so a power loss at any point leaves the old or the new state
  // (the files' directories are flushed alongside the ref: recovery rolls files forward under a moved ref).
  const durable = req.durable !== false;
  const { stage } = await publishObjects(draft, fs, early, step);
  step('journaled');
  const undo: UndoRecord[] = [];
  const state: PublishState = { staged: false, moved: false };
  try {
    for (const e of effective) writeFile(fs, e, undo, durable, stage?.files.get(e.file));
    step('files');
    const alongside = durable ? (): Promise<void> => fs.syncDirsOf(draft.paths) : undefined;
    await publishCommit(git, {
      memoryDir,
      gitDirs,
      commit,
      parent: base.head,
      index: composed.index.after,
      subject,
      state,
      durable,
      alongside,
    });
    step('published');
  } catch (err) {
    const problems = await rollBack(git, {
      fs,
      memoryDir,
      undo,
      state,
      commit,
      parent: base.head,
      before: composed.index.before,
    });
    try {
      retireJournal(memoryDir, gitDirs.gitDir);
    } catch (retireErr) {
      problems.push((retireErr as Error).message);
    }
    throw failure(req.operation, err, problems);
  } finally {
    stage?.discard(); // what a fallback wrote in place instead
  }
  try {
    clearJournal(memoryDir, gitDirs.gitDir);
  } catch {
    // Published: an entry left behind is found as already published and cleared by the next writer.
  }
  return commit;
}
