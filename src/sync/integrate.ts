/**
 * Brings the remote's main into local main: fetch (with retry), then fast-forward, or rebase the local
 * commits on top, with a conflict policy that never drops a commit. Moves of main that rewrite its
 * history from unrelated roots save the old head under refs/gitmem/backup/ first.
 */
import { GitCommandError, type GitAuth, type GitRetryPolicy, type GitRunner } from '../git/runner.js';
import { NETWORK_RETRY } from '../git/runner.js';
import { withMemoryOperation } from '../git/lease.js';
import { BACKUP_REF_PREFIX, CONFLICT_BRANCH_PREFIX, createUniqueRef } from './refs.js';
import type { ConflictPolicy } from './types.js';

export const REMOTE_MAIN = 'refs/remotes/origin/main';

export interface IntegrateInput {
  git: GitRunner;
  memoryDir: string;
  auth: GitAuth | undefined;
  onConflict: ConflictPolicy;
  clock: () => Date;
  signal: AbortSignal | undefined;
  retry: GitRetryPolicy | undefined;
}

export interface IntegrateResult {
  outcome: 'remote_empty' | 'up_to_date' | 'fast_forward' | 'rebased' | 'conflict';
  /** Remote commits now in main. */
  pulled: number;
  /** Local commits on main not on the remote, after integration. */
  ahead: number;
  conflictPaths?: string[];
  keptBranch?: string;
  backupRef?: string;
}

/**
 * Fetches origin's main into refs/remotes/origin/main. Returns false when the remote has no main yet.
 * @example if (!(await fetchMain(input))) { ... empty remote ... }
 */
export async function fetchMain(input: IntegrateInput): Promise<boolean> {
  try {
    await input.git.run(['fetch', '--quiet', '--no-tags', 'origin', `+refs/heads/main:${REMOTE_MAIN}`], runOpts(input, true));
    return true;
  } catch (err) {
    if (err instanceof GitCommandError && err.kind === 'missing_remote_ref') return false;
    throw err;
  }
}

/**
 * Fetches, then integrates the remote's main into the checked-out main (clean work tree required).
 * `head` is main's commit as last seen (null when unborn); `fetched` says a fetch just ran (and its answer).
 * @example const r = await integrateRemote({ git, memoryDir, auth, onConflict: 'fail', clock, signal, retry }, head)
 */
export async function integrateRemote(input: IntegrateInput, head: string | null, fetched?: boolean): Promise<IntegrateResult> {
  if (!(fetched ?? (await fetchMain(input)))) return { outcome: 'remote_empty', pulled: 0, ahead: head ? await countAhead(input) : 0 };
  // Moving main: hold the memory operation lease so no tool write or worker merge interleaves.
  const lease = { purpose: 'sync', ...(input.signal ? { signal: input.signal } : {}) };
  return withMemoryOperation(input.memoryDir, () => integrateLocked(input, head), lease);
}

async function integrateLocked(input: IntegrateInput, head: string | null): Promise<IntegrateResult> {
  if (head === null) {
    // Unborn local main: nothing local to keep; take the remote's history as is.
    await input.git.run(['reset', '--hard', '--quiet', REMOTE_MAIN], runOpts(input));
    return { outcome: 'fast_forward', pulled: await countRange(input, REMOTE_MAIN), ahead: 0 };
  }
  const rel = await relation(input);
  if (rel.behind === 0) return { outcome: 'up_to_date', pulled: 0, ahead: rel.ahead };
  if (rel.ahead === 0) {
    await input.git.run(['merge', '--ff-only', '--quiet', REMOTE_MAIN], runOpts(input));
    return { outcome: 'fast_forward', pulled: rel.behind, ahead: 0 };
  }
  return rebaseOnto(input, rel);
}

interface Relation {
  ahead: number;
  behind: number;
  /** False when local and remote main share no commit. */
  related: boolean;
}

/** Ahead, behind and relatedness in one spawn: boundary commits (`-`) exist only when a merge base does. */
async function relation(input: IntegrateInput): Promise<Relation> {
  const r = await input.git.run(['rev-list', '--left-right', '--boundary', `HEAD...${REMOTE_MAIN}`], runOpts(input));
  const rel: Relation = { ahead: 0, behind: 0, related: false };
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('<')) rel.ahead++;
    else if (line.startsWith('>')) rel.behind++;
    else if (line.startsWith('-')) rel.related = true;
  }
  return rel;
}

async function currentHead(input: IntegrateInput): Promise<string> {
  return (await input.git.run(['rev-parse', 'HEAD'], runOpts(input))).stdout.trim();
}

async function rebaseOnto(input: IntegrateInput, rel: Relation): Promise<IntegrateResult> {
  const backupRef = rel.related
    ? undefined
    : await createUniqueRef(input.git, input.memoryDir, BACKUP_REF_PREFIX, input.clock(), await currentHead(input));
  const extra = backupRef ? { backupRef } : {};
  try {
    await rebase(input);
    return { outcome: 'rebased', pulled: rel.behind, ahead: rel.ahead, ...extra };
  } catch (err) {
    // A true conflict leaves unmerged paths; anything else is a failure to report, with main restored.
    const paths = err instanceof GitCommandError ? await unmergedPaths(input) : [];
    if (paths.length === 0) {
      await abortRebase(input);
      throw err;
    }
    return onRebaseConflict(input, { ...rel, conflictPaths: paths, backupRef });
  }
}

/** Rebases main onto the remote; only when git knows no committer does it retry with a neutral one. */
async function rebase(input: IntegrateInput): Promise<void> {
  try {
    await input.git.run(['rebase', '--quiet', REMOTE_MAIN], runOpts(input));
  } catch (err) {
    if (!(err instanceof GitCommandError) || err.kind !== 'identity') throw err;
    await abortRebase(input);
    await input.git.run(['rebase', '--quiet', REMOTE_MAIN], { ...runOpts(input), config: FALLBACK_IDENTITY });
  }
}

const FALLBACK_IDENTITY = ['user.name=gitmem', 'user.email=gitmem@gitmem.local'];

async function onRebaseConflict(
  input: IntegrateInput,
  c: Relation & { conflictPaths: string[]; backupRef: string | undefined },
): Promise<IntegrateResult> {
  const { ahead, behind, conflictPaths, backupRef } = c;
  const base = { outcome: 'conflict' as const, conflictPaths, ...(backupRef ? { backupRef } : {}) };
  if (input.onConflict === 'leave') return { ...base, pulled: 0, ahead };
  await abortRebase(input);
  if (input.onConflict === 'fail') return { ...base, pulled: 0, ahead };
  const head = await currentHead(input);
  const keptRef = await createUniqueRef(input.git, input.memoryDir, `refs/heads/${CONFLICT_BRANCH_PREFIX}`, input.clock(), head);
  await input.git.run(['reset', '--hard', '--quiet', REMOTE_MAIN], runOpts(input));
  return { ...base, pulled: behind, ahead: 0, keptBranch: keptRef.slice('refs/heads/'.length) };
}

async function abortRebase(input: IntegrateInput): Promise<void> {
  await input.git.run(['rebase', '--abort'], { ...runOpts(input), okExitCodes: [1, 128] });
}

async function unmergedPaths(input: IntegrateInput): Promise<string[]> {
  const r = await input.git.run(['diff', '--name-only', '--diff-filter=U', '-z'], runOpts(input));
  return r.stdout.split('\0').filter((p) => p !== '');
}

/**
 * Local commits not on any of origin's remote-tracking refs (works with or without an upstream).
 * @example await countAhead({ git, memoryDir, ... }) // 2
 */
export async function countAhead(input: Pick<IntegrateInput, 'git' | 'memoryDir' | 'signal'>): Promise<number> {
  const r = await input.git.run(['rev-list', '--count', 'HEAD', '--not', '--remotes=origin'], runOpts(input));
  return Number(r.stdout.trim()) || 0;
}

async function countRange(input: IntegrateInput, rev: string): Promise<number> {
  const r = await input.git.run(['rev-list', '--count', rev], runOpts(input));
  return Number(r.stdout.trim()) || 0;
}

/** Runner options for this repo; `network` adds auth and the retry policy. */
export function runOpts(
  input: Pick<IntegrateInput, 'memoryDir' | 'signal'> & Partial<Pick<IntegrateInput, 'auth' | 'retry'>>,
  network = false,
): { cwd: string; signal?: AbortSignal; auth?: GitAuth; retry?: GitRetryPolicy } {
  return {
    cwd: input.memoryDir,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(network && input.auth ? { auth: input.auth } : {}),
    ...(network ? { retry: input.retry ?? NETWORK_RETRY } : {}),
  };
}
