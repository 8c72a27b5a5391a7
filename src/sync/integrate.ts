/**
 * Brings the remote's main into local main: fetch (with retry), then fast-forward, or rebase the local
 * commits on top, with a conflict policy that never drops a commit. Moves of main that rewrite its
 * history from unrelated roots save the old head under refs/gitmem/backup/ first.
 */
import { GitCommandError } from '../git/runner.js';
import { identityConfig, SYSTEM_IDENTITY } from '../identity.js';
import { withMemoryOperation } from '../git/lease.js';
import { parseFetchUpdate, quickRelation, type SyncHint, type TrackingUpdate } from './quick-relation.js';
import { BACKUP_REF_PREFIX, CONFLICT_BRANCH_PREFIX, createUniqueRef } from './refs.js';
import { checkIncoming } from './incoming.js';
import { CONFLICT_POLICIES, type RebaseConflictOps } from './conflict-policy.js';
import {
  REMOTE_MAIN,
  runOpts,
  type FetchOutcome,
  type IntegrateInput,
  type IntegrateResult,
} from './integrate-input.js';

/**
 * Fetches origin's main into refs/remotes/origin/main. Not quiet: its ref-update line says whether the
 * tracking ref moved by a fast-forward (forced updates are always checked and labelled).
 * @example if (!(await fetchMain(input)).found) { ... empty remote ... }
 */
export async function fetchMain(input: IntegrateInput): Promise<FetchOutcome> {
  const args = ['fetch', '--no-tags', '--show-forced-updates', 'origin', `+refs/heads/main:${REMOTE_MAIN}`];
  try {
    const r = await input.git.run(args, runOpts(input, true));
    return { found: true, update: parseFetchUpdate(r.stderr) };
  } catch (err) {
    if (err instanceof GitCommandError && err.kind === 'missing_remote_ref')
      return { found: false, update: { kind: 'other' } };
    throw err;
  }
}

/**
 * Fetches, then integrates the remote's main into the checked-out main (clean work tree required).
 * `hint` is what the caller saw before (main's commit, null when unborn, and its status); `fetched` is
 * the answer of a fetch that just ran, if one did.
 * @example const r = await integrateRemote(ctx, { head, upstream: null, ahead: null, behind: null, remoteBefore: undefined })
 */
export async function integrateRemote(
  input: IntegrateInput,
  hint: SyncHint,
  fetched?: FetchOutcome,
  o: { merge?: boolean } = {},
): Promise<IntegrateResult> {
  const f = fetched ?? (await fetchMain(input));
  if (!f.found) return { outcome: 'remote_empty', pulled: 0, ahead: hint.head ? await countAhead(input) : 0 };
  // Moving main: hold the memory operation lease so no tool write or worker merge interleaves.
  const lease = { purpose: 'sync', signal: input.signal };
  return withMemoryOperation(input.memoryDir, () => integrateLocked(input, hint, f.update, o.merge === true), lease);
}

/**
 * Under the lease: origin/main's commit is read once and everything below names that commit (a fetch by
 * another process meanwhile cannot slip unvalidated commits in), and nothing moves main before the commits it
 * would bring have passed the validator (incoming.ts).
 */
async function integrateLocked(
  input: IntegrateInput,
  hint: SyncHint,
  update: TrackingUpdate,
  merge: boolean,
): Promise<IntegrateResult> {
  // Git's answers: the ref-file readers bought 7-9% of a round trip here, under the fast-path rule.
  const onto = await revParse(input, REMOTE_MAIN);
  if (hint.head === null) {
    // Unborn local main: nothing local to keep; take the remote's history as is, once it passes the rules.
    const rejection = await checkIncoming(input, onto, null);
    if (rejection) return { outcome: 'rejected', pulled: 0, ahead: 0, rejection };
    await input.git.run(['reset', '--hard', '--quiet', onto], runOpts(input));
    return { outcome: 'fast_forward', pulled: await countRange(input, onto), ahead: 0 };
  }
  const headNow = await currentHead(input);
  const quick = quickRelation(hint, headNow, onto, update);
  const counted = quick?.kind === 'counted' ? quick : undefined;
  if (counted?.behind === 0) return { outcome: 'up_to_date', pulled: 0, ahead: counted.ahead };
  const rejection = await checkIncoming(input, onto, headNow);
  if (rejection)
    return { outcome: 'rejected', pulled: 0, ahead: counted?.ahead ?? (await countAhead(input)), rejection };
  // Known to share history: rebase at once (it fast-forwards or does nothing when that is all there
  // is) and count local and remote commits alongside, instead of counting first.
  if (quick?.kind === 'related' && !merge) return rebaseCounting(input, quick.head, onto);
  if (counted?.ahead === 0) return fastForward(input, onto, counted.behind);
  const rel = await relation(input, onto);
  if (rel.behind === 0) return { outcome: 'up_to_date', pulled: 0, ahead: rel.ahead };
  if (rel.ahead === 0) return fastForward(input, onto, rel.behind);
  if (merge && rel.related) return mergeOnto(input, rel, onto);
  return rebaseOnto(input, rel, onto);
}

/**
 * Merges `onto` into main instead of rebasing (writer refs): a writer's commits may already be on its ref and
 * under the integrator's merge, so rewriting them would land each write twice on main.
 */
async function mergeOnto(input: IntegrateInput, rel: Relation, onto: string): Promise<IntegrateResult> {
  const args = ['merge', '--no-edit', '--no-ff', '--quiet', '-m', `Merge ${REMOTE_MAIN}`, onto];
  const env = { GIT_REFLOG_ACTION: `merge ${REMOTE_MAIN}` };
  try {
    try {
      await input.git.run(args, { ...runOpts(input), env });
    } catch (err) {
      if (!(err instanceof GitCommandError) || err.kind !== 'identity') throw err;
      await abortMerge(input);
      await input.git.run(args, { ...runOpts(input), env, config: identityConfig(SYSTEM_IDENTITY) });
    }
    return { outcome: 'rebased', pulled: rel.behind, ahead: rel.ahead };
  } catch (err) {
    const paths = err instanceof GitCommandError ? await unmergedPaths(input) : [];
    if (paths.length === 0) {
      await abortMerge(input);
      throw err;
    }
    return onRebaseConflict(input, { ...rel, conflictPaths: paths, backupRef: undefined }, onto, abortMerge);
  }
}

async function abortMerge(input: IntegrateInput): Promise<void> {
  await input.git.run(['merge', '--abort'], { ...runOpts(input), okExitCodes: [1, 128] });
}

async function fastForward(input: IntegrateInput, onto: string, behind: number): Promise<IntegrateResult> {
  // `onto` is a commit id: the reflog names the remote ref instead, so the move reads as a sync (read/writer.ts).
  const env = { GIT_REFLOG_ACTION: `merge ${REMOTE_MAIN}` };
  await input.git.run(['merge', '--ff-only', '--quiet', onto], { ...runOpts(input), env });
  return { outcome: 'fast_forward', pulled: behind, ahead: 0 };
}

interface Relation {
  ahead: number;
  behind: number;
  /** False when local and remote main share no commit. */
  related: boolean;
}

/** Ahead, behind and relatedness in one spawn: boundary commits (`-`) exist only when a merge base does. */
async function relation(input: IntegrateInput, onto: string): Promise<Relation> {
  const r = await input.git.run(['rev-list', '--left-right', '--boundary', `HEAD...${onto}`], runOpts(input));
  const rel: Relation = { ahead: 0, behind: 0, related: false };
  for (const line of r.stdout.split('\n')) {
    if (line.startsWith('<')) rel.ahead++;
    else if (line.startsWith('>')) rel.behind++;
    else if (line.startsWith('-')) rel.related = true;
  }
  return rel;
}

/** Rebases onto `onto` while counting `head...onto` (explicit commits, so the moving HEAD cannot race). */
async function rebaseCounting(input: IntegrateInput, head: string, onto: string): Promise<IntegrateResult> {
  const rebasing = rebase(input, onto).then(
    () => undefined,
    (err: unknown) => ({ err }),
  );
  let counts: string;
  try {
    counts = (await input.git.run(['rev-list', '--left-right', '--count', `${head}...${onto}`], runOpts(input))).stdout;
  } catch (err) {
    const failed = await rebasing;
    if (failed) await abortRebase(input);
    throw err;
  }
  const [ahead = 0, behind = 0] = counts.trim().split(/\s+/).map(Number);
  const rel: Relation = { ahead, behind, related: true };
  const failed = await rebasing;
  if (failed) return afterFailedRebase(input, failed.err, rel, undefined, onto);
  if (behind === 0) return { outcome: 'up_to_date', pulled: 0, ahead };
  return { outcome: ahead === 0 ? 'fast_forward' : 'rebased', pulled: behind, ahead };
}

async function revParse(input: IntegrateInput, rev: string): Promise<string> {
  return (
    await input.git.run(['rev-parse', '--verify', '--end-of-options', `${rev}^{commit}`], runOpts(input))
  ).stdout.trim();
}

const currentHead = (input: IntegrateInput): Promise<string> => revParse(input, 'HEAD');

async function rebaseOnto(input: IntegrateInput, rel: Relation, onto: string): Promise<IntegrateResult> {
  const backupRef = rel.related
    ? undefined
    : await createUniqueRef(input.git, input.memoryDir, BACKUP_REF_PREFIX, input.clock(), await currentHead(input));
  const extra = backupRef ? { backupRef } : {};
  try {
    await rebase(input, onto);
    return { outcome: 'rebased', pulled: rel.behind, ahead: rel.ahead, ...extra };
  } catch (err) {
    return afterFailedRebase(input, err, rel, backupRef, onto);
  }
}

/** A true conflict leaves unmerged paths; anything else is a failure to report, with main restored. */
async function afterFailedRebase(
  input: IntegrateInput,
  err: unknown,
  rel: Relation,
  backupRef: string | undefined,
  onto: string,
): Promise<IntegrateResult> {
  const paths = err instanceof GitCommandError ? await unmergedPaths(input) : [];
  if (paths.length === 0) {
    await abortRebase(input);
    throw err;
  }
  return onRebaseConflict(input, { ...rel, conflictPaths: paths, backupRef }, onto);
}

/** Rebases main onto `onto`; only when git knows no committer does it retry with a neutral one. */
async function rebase(input: IntegrateInput, onto: string): Promise<void> {
  try {
    await input.git.run(['rebase', '--quiet', onto], runOpts(input));
  } catch (err) {
    if (!(err instanceof GitCommandError) || err.kind !== 'identity') throw err;
    await abortRebase(input);
    await input.git.run(['rebase', '--quiet', onto], { ...runOpts(input), config: identityConfig(SYSTEM_IDENTITY) });
  }
}

async function onRebaseConflict(
  input: IntegrateInput,
  c: Relation & { conflictPaths: string[]; backupRef: string | undefined },
  onto: string,
  abort: (input: IntegrateInput) => Promise<void> = abortRebase,
): Promise<IntegrateResult> {
  const { conflictPaths, backupRef } = c;
  const ops: RebaseConflictOps = {
    abortRebase: () => abort(input),
    keepLocalCommits: async () => {
      const ref = await createUniqueRef(
        input.git,
        input.memoryDir,
        `refs/heads/${CONFLICT_BRANCH_PREFIX}`,
        input.clock(),
        await currentHead(input),
      );
      return ref.slice('refs/heads/'.length);
    },
    followRemote: async () => void (await input.git.run(['reset', '--hard', '--quiet', onto], runOpts(input))),
  };
  const r = await CONFLICT_POLICIES[input.onConflict].resolve(ops, { ahead: c.ahead, behind: c.behind });
  return { outcome: 'conflict', conflictPaths, ...(backupRef ? { backupRef } : {}), ...r };
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
