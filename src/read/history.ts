/**
 * `memory.history({ path, limit, since })`: the commits that touched memory (or one path, following its
 * renames), newest first, each with who wrote it (writer.ts), the reason and the files it changed.
 */
import { MemoryError } from '../errors.js';
import { LITERAL_PATHSPECS } from '../git/commands/diff-text.js';
import { historyOp, type HistoryCommit } from '../git/commands/history.js';
import { parseDateSpec } from '../git/revision.js';
import { commitAt, readObjects } from './at.js';
import { readCandidates } from './paths.js';
import type { HistoryEntry, HistoryOptions, ReadDeps } from './types.js';
import { classifyCommit } from './writer.js';

/** The most commits one history call returns. */
const MAX_HISTORY = 1000;
/** Characters of a reason kept per entry (a hostile commit message cannot flood the caller). */
const MAX_REASON = 10_000;

function checkLimit(limit: unknown): number {
  if (limit === undefined) return 20;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > MAX_HISTORY) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `history: 'limit' must be an integer from 1 to ${MAX_HISTORY}, got ${String(limit)}`,
      { data: { field: 'limit' } },
    );
  }
  return limit;
}

function checkSkip(skip: unknown): number {
  if (skip === undefined) return 0;
  if (typeof skip !== 'number' || !Number.isSafeInteger(skip) || skip < 0) {
    throw new MemoryError('INVALID_ARGUMENT', `history: 'skip' must be a non-negative integer, got ${String(skip)}`, {
      data: { field: 'skip' },
    });
  }
  return skip;
}

function checkSince(since: unknown): string | undefined {
  if (since === undefined) return undefined;
  const date = typeof since === 'string' ? parseDateSpec(since) : undefined;
  if (date === undefined)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `history: 'since' must be a date (2025-01-02, 2025-01-02T10:00Z, "3 days ago"), got ${JSON.stringify(String(since).slice(0, 80))}`,
      { data: { field: 'since' } },
    );
  return date;
}

/**
 * Which path to ask git about, and whether to follow renames: the candidate that is a file at `commit`
 * (followed), a directory (not followed: git follows single files only), else the first with any history.
 */
async function pickPath(
  deps: ReadDeps,
  commit: string,
  candidates: readonly string[],
): Promise<{ path: string; follow: boolean }> {
  const objects = await readObjects(
    deps,
    candidates.map((p) => `${commit}:${p}`),
  );
  const blob = objects.findIndex((o) => o?.type === 'blob');
  if (blob >= 0) return { path: candidates[blob] as string, follow: true };
  const tree = objects.findIndex((o) => o?.type === 'tree');
  if (tree >= 0) return { path: candidates[tree] as string, follow: false };
  for (const path of candidates) {
    const seen = await deps.git.exec(historyOp({ rev: commit, limit: 1, path }), {
      cwd: deps.memoryDir,
      env: { ...LITERAL_PATHSPECS },
    });
    if (seen.length > 0) return { path, follow: true };
  }
  return { path: candidates[candidates.length - 1] as string, follow: true };
}

function toEntry(c: HistoryCommit): HistoryEntry {
  const reason = c.message.length > MAX_REASON ? `${c.message.slice(0, MAX_REASON)}…` : c.message;
  const files = c.files.map((f) => ({
    status: f.status as HistoryEntry['files'][number]['status'],
    path: f.path,
    ...(f.oldPath !== undefined ? { oldPath: f.oldPath } : {}),
  }));
  return {
    sha: c.sha,
    date: c.date,
    author: c.author,
    email: c.email,
    writer: classifyCommit(c),
    reason,
    parents: c.parents,
    files,
  };
}

/**
 * The history of memory, or of one path (renames followed).
 * @example (await memoryHistory(deps, { path: 'notes/ana.md', limit: 5 })).map((e) => e.reason)
 */
export async function memoryHistory(deps: ReadDeps, options: HistoryOptions = {}): Promise<HistoryEntry[]> {
  const limit = checkLimit(options.limit);
  const since = checkSince(options.since);
  const skip = checkSkip(options.skip);
  const candidates =
    options.path === undefined ? undefined : readCandidates(options.path, deps.memoryDir, 'path', 'memory history');
  let commit: string;
  try {
    commit = await commitAt(deps, options.at);
  } catch (err) {
    if (options.at === undefined && err instanceof MemoryError && err.code === 'UNKNOWN_REVISION') return [];
    throw err;
  }
  const target = candidates ? await pickPath(deps, commit, candidates) : undefined;
  const commits = await deps.git.exec(
    historyOp({
      rev: commit,
      limit,
      skip,
      ...(since !== undefined ? { since } : {}),
      path: target?.path,
      follow: target?.follow,
    }),
    { cwd: deps.memoryDir, env: { ...LITERAL_PATHSPECS } },
  );
  return commits.map(toEntry);
}
