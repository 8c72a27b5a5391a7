/**
 * One move of `main` as a change event: the files that differ between the old head and the new one, and
 * who moved it (writer.ts: the reflog's account of the move, else the new commit's author and message).
 */
import { rawDiffOp } from '../git/commands/diff-raw.js';
import { commitOf } from '../git/committed-read.js';
import { readReflogTail } from '../git/reflog.js';
import { filesAt, readObjects } from './at.js';
import type { MemoryUpdatedEvent, ReadDeps } from './types.js';
import { classifyMove, type CommitFacts } from './writer.js';

/** The author address and message of a raw commit object. Pure. */
function commitFacts(raw: Buffer): CommitFacts {
  const text = raw.toString('utf8');
  const split = text.indexOf('\n\n');
  const headers = split < 0 ? text : text.slice(0, split);
  const email = /^author [^\n]*<([^>\n]*)>/m.exec(headers)?.[1] ?? '';
  return { email, message: split < 0 ? '' : text.slice(split + 2) };
}

/** Where `main` points, asked of git (for refs the quick reader does not answer). */
export async function mainHead(deps: ReadDeps): Promise<string | null> {
  return commitOf(deps.git, deps.memoryDir, 'refs/heads/main');
}

/** Paths that differ between two commits (both sides of a rename), or every file of `to` when `from` is null. */
async function affectedPaths(deps: ReadDeps, from: string | null, to: string): Promise<string[]> {
  const cwd = deps.memoryDir;
  if (from === null) return (await filesAt(deps, to)).map((e) => e.path);
  try {
    const entries = await deps.git.exec(rawDiffOp('diff-tree', ['-r', '--no-renames', from, to]), { cwd });
    return [...new Set(entries.map((e) => e.path))].sort();
  } catch {
    // The old head is gone (pruned after a reset): every file of the new one may have changed.
    return affectedPaths(deps, null, to);
  }
}

/**
 * The event for main's move from `from` to `to`, seen at `now`.
 * @example await moveEvent(deps, gitDir, 'e6a8…', '9f1c…', new Date())
 */
export async function moveEvent(
  deps: ReadDeps,
  gitDir: string,
  from: string | null,
  to: string,
  now: Date,
): Promise<MemoryUpdatedEvent> {
  const [affected, [raw]] = await Promise.all([affectedPaths(deps, from, to), readObjects(deps, [to])]);
  const move = readReflogTail(gitDir, 'refs/heads/main')
    .filter((e) => e.new === to)
    .at(-1);
  const writer = classifyMove(move?.message, raw ? commitFacts(Buffer.from(raw.data)) : { email: '', message: '' });
  return {
    type: 'memory_updated',
    affected_paths: affected,
    commit: to,
    previous: from,
    writer,
    timestamp: now.toISOString(),
  };
}
