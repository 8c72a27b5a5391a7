/**
 * Readers of big memories (`gitmem clone --partial`, `--scope <dir>`): a blob-less partial clone
 * (`--filter=blob:none`; git fetches a missing blob from the promisor remote when something reads it) and a
 * cone-mode sparse checkout of one directory plus what the prompt needs (system/ and the root files, which cone
 * mode always keeps). gitmem reads committed objects through git (`cat-file`), which fetches lazily, and its
 * loose-object fast paths answer nothing for an absent object, so reads fall back to git by themselves. What
 * this file adds is the batch: the blobs a checkout and its validation need are fetched in one round trip,
 * not one fetch per blob.
 */
import { MemoryError } from '../errors.js';
import type { GitRunner, GitAuth, GitRetryPolicy } from '../git/runner.js';
import { isDotGitLike, pathProblem } from '../blocks/path-rules.js';
import { fetchObjects } from '../git/promisor.js';
import { findIncomingProblems, findTipProblems } from './incoming.js';

/** The directory the prompt always needs beside a scope (root files come with cone mode). */
export const PROMPT_DIRS: readonly string[] = ['system'];

/** How a reader clones: blob-less, sparse, or both. */
export interface ReaderShape {
  /** Blob-less partial clone: blobs are fetched on first read. */
  partial?: boolean;
  /** One directory checked out (plus system/ and the root files). */
  scope?: string;
}

/**
 * The scope as a repo-relative directory, or a MemoryError: the path rules of memory, no `.git` look-alike,
 * no glob or pattern characters (a sparse pattern would read them), no `..`.
 * @example normalizeScope('notes/') === 'notes'
 */
export function normalizeScope(raw: string): string {
  const scope = raw
    .trim()
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '');
  const bad = (why: string): MemoryError =>
    new MemoryError('INVALID_ARGUMENT', `clone --scope ${JSON.stringify(raw)}: ${why}`);
  if (scope === '' || scope === '.') throw bad('name one directory of the memory (the whole memory is the default)');
  const problem = pathProblem(scope);
  if (problem) throw bad(problem);
  if (/[*?[\]!#\s"]/.test(scope)) throw bad('glob, pattern or space characters are not allowed in a scope');
  for (const s of scope.split('/'))
    if (s === '..' || s === '.' || isDotGitLike(s)) throw bad(`component '${s}' is not allowed`);
  return scope;
}

/** The clone's extra arguments for a reader shape (before the URL). */
export function readerCloneArgs(shape: ReaderShape): string[] {
  return shape.partial ? ['--filter=blob:none'] : [];
}

/** Sets the sparse cone on a clone that has no checkout yet (the checkout that follows honours it). */
export async function applyScope(git: GitRunner, dir: string, scope: string): Promise<void> {
  const dirs = [...new Set([...PROMPT_DIRS, scope])];
  await git.run(['sparse-checkout', 'set', '--cone', '--', ...dirs], { cwd: dir });
  await git.run(['config', 'gitmem.scope', scope], { cwd: dir });
}

/** The directories a scoped clone has on disk, or null when the whole tree is checked out. */
export function scopeDirs(scope: string | undefined): string[] | null {
  return scope === undefined ? null : [...new Set([...PROMPT_DIRS, scope])];
}

/** How the prefetch reaches the remote. */
export interface PrefetchCall {
  auth?: GitAuth;
  retry: GitRetryPolicy;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Fetches, in one round trip, the blobs of `tip` that this partial clone lacks (under `dirs` and the root
 * files when given, else all): what the validation of the tip and the checkout will read. Called on a fresh
 * blob-less clone, which holds none of them. A server that refuses ids in a want fails here, the clone then removed as any failure.
 * @example await prefetchBlobs(git, dir, tip, ['system', 'notes'], call)
 */
export async function prefetchBlobs(
  git: GitRunner,
  dir: string,
  tip: string,
  dirs: readonly string[] | null,
  call: PrefetchCall,
): Promise<number> {
  const listed = await git.run(['ls-tree', '-r', '-z', '--full-tree', tip], { cwd: dir });
  const wanted: string[] = [];
  for (const line of listed.stdout.split('\0')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (!m) continue;
    const path = m[2] ?? '';
    if (dirs !== null && path.includes('/') && !dirs.some((d) => path.startsWith(`${d}/`))) continue;
    wanted.push(m[1] ?? '');
  }
  if (wanted.length === 0) return 0;
  await fetchObjects(git, dir, wanted, call);
  return wanted.length;
}

/**
 * The broken rules of the remote's main a clone is about to check out: every commit, as for any clone; for a
 * partial clone, the tip's files (under the scope when there is one), their blobs fetched in one batch first.
 * @example await cloneProblems({ git, memoryDir: tmp, home }, tip, { partial: true, scope: 'notes' }, call)
 */
export async function cloneProblems(
  input: { git: GitRunner; memoryDir: string; home: string },
  tip: string,
  shape: ReaderShape,
  call: PrefetchCall,
): Promise<string[]> {
  if (!shape.partial) return findIncomingProblems({ ...input, signal: call.signal }, tip, null);
  const dirs = scopeDirs(shape.scope);
  await prefetchBlobs(input.git, input.memoryDir, tip, dirs, call);
  const pathspecs = dirs === null ? undefined : [':(glob)*', ...dirs.map((d) => `${d}/`)];
  return findTipProblems(input, tip, pathspecs);
}
