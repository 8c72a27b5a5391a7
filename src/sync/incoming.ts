/**
 * What a fetch brings is validated before main moves to it: the remote's commits that main lacks are checked
 * by the same validator as a tool write, a raw commit and a background merge — the net change they make
 * against the merge base (paths, links, format, read_only and the protected list, the system/ budget) and the
 * credentials each of them adds. A remote that breaks a rule leaves main where it was; its tip is kept on a
 * `gitmem/rejected/<time>` branch (listed with the other kept branches) and the verdict is remembered, so the
 * next sync reports it again without checking the same commits again — until the remote moves or the rules'
 * inputs (protected list, secret allow list, budget) change.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveGitCommonDir } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
import { homeOfRepo, readSystemBudget } from '../hooks/budget-config.js';
import { readRepoLayout } from '../hooks/layout-config.js';
import { readProtectedPaths } from '../hooks/protected.js';
import { readAllowedSecrets } from '../hooks/secret-allow.js';
import { validateMove } from '../hooks/validate-move.js';
import { findSecretsIn } from './push-scan.js';
import { createUniqueRef } from './refs.js';

export const REJECTED_BRANCH_PREFIX = 'gitmem/rejected/';
/** File name inside the common git dir. */
const VERDICT_FILE = 'gitmem-remote-rejected.json';

/** A remote tip main was not moved to. */
export interface IncomingRejection {
  tip: string;
  /** `<path>: <problem>` lines (a credential names its commit). */
  problems: string[];
  /** The kept branch holding the tip (without refs/heads/). */
  branch: string;
}

interface Verdict {
  tip: string;
  rules: string;
  problems: string[];
}

interface CheckInput {
  git: GitRunner;
  memoryDir: string;
  /** The caller's configured home: its `config` holds the system/ budget (as for a tool write). */
  home?: string | undefined;
  clock: () => Date;
  signal: AbortSignal | undefined;
}

/**
 * Checks the commits `tip` has that HEAD lacks; null when every rule holds (or there are none). The caller holds
 * the operation lease.
 * @example const rejected = await checkIncoming(ctx, remoteTip); if (rejected) ...main stays
 */
export async function checkIncoming(
  input: CheckInput,
  tip: string,
  head: string | null,
): Promise<IncomingRejection | null> {
  const common = resolveGitCommonDir(input.memoryDir);
  const rules = rulesFingerprint(input.memoryDir, input.home);
  const known = readVerdict(common);
  if (known?.tip === tip && known.rules === rules)
    return { tip, problems: known.problems, branch: await keptBranch(input, tip) };
  const problems = await findIncomingProblems(input, tip, head);
  if (problems.length === 0) return null;
  writeVerdict(common, { tip, rules, problems });
  return { tip, problems, branch: await keptBranch(input, tip) };
}

/**
 * The broken rules of the commits `tip` has that `head` lacks (every commit of `tip` when `head` is null).
 * @example await findIncomingProblems({ git, memoryDir, home, signal: undefined }, remoteTip, null) // [] when clean
 */
export async function findIncomingProblems(
  input: Pick<CheckInput, 'git' | 'memoryDir' | 'home' | 'signal'>,
  tip: string,
  head: string | null,
): Promise<string[]> {
  const { git, memoryDir: cwd } = input;
  const opts = { cwd, signal: input.signal };
  const base =
    head === null
      ? null
      : (await git.run(['merge-base', head, tip], { ...opts, okExitCodes: [1] })).stdout.trim() || null;
  if (base === tip) return []; // nothing new
  const from = base ?? (await git.run(['hash-object', '-t', 'tree', '--stdin'], { ...opts, input: '' })).stdout.trim();
  const [move, secrets] = await Promise.all([
    validateMove(git, cwd, from, tip, { home: input.home, secrets: false }),
    findSecretsIn(git, cwd, head === null ? [tip] : [tip, '--not', head], input.signal),
  ]);
  const credentialLines = secrets.map(
    (f) =>
      `${f.path}${f.line === undefined ? '' : `:${f.line}`}: SECRET_DETECTED: ${f.message} (commit ${f.commit.slice(0, 12)})`,
  );
  return [...(move.rejected?.problems ?? []), ...credentialLines];
}

/**
 * The broken rules of a reader's first tip (a partial clone): the tip's files against nothing, judged by the
 * same validator with the credential scan of their text, under `pathspecs` only when given (what a scoped
 * checkout puts on disk). History is not scanned commit by commit: that would fetch every old blob, which is
 * what a partial clone is for not fetching; an old blob read later comes through git as any read does.
 * @example await findTipProblems({ git, memoryDir, home, signal: undefined }, tip, [':(glob)*', 'system/'])
 */
export async function findTipProblems(
  input: Pick<CheckInput, 'git' | 'memoryDir' | 'home'>,
  tip: string,
  pathspecs: readonly string[] | undefined,
): Promise<string[]> {
  const { git, memoryDir: cwd } = input;
  const empty = (await git.run(['hash-object', '-t', 'tree', '--stdin'], { cwd, input: '' })).stdout.trim();
  const move = await validateMove(git, cwd, empty, tip, { home: input.home, pathspecs });
  return move.rejected?.problems ?? [];
}

/** The branch that keeps `tip`: an existing rejected branch already there, else a new one. */
async function keptBranch(input: CheckInput, tip: string): Promise<string> {
  const opts = { cwd: input.memoryDir };
  const r = await input.git.run(
    ['for-each-ref', `--points-at=${tip}`, '--format=%(refname)', `refs/heads/${REJECTED_BRANCH_PREFIX}`],
    opts,
  );
  const existing = r.stdout.split('\n').find((l) => l !== '');
  const ref =
    existing ??
    (await createUniqueRef(input.git, input.memoryDir, `refs/heads/${REJECTED_BRANCH_PREFIX}`, input.clock(), tip));
  return ref.slice('refs/heads/'.length);
}

/** What the verdict depends on besides the commits: the protected list, the secret allow list, the budget. */
function rulesFingerprint(memoryDir: string, home: string | undefined): string {
  const parts = [
    [...readProtectedPaths(memoryDir)].sort().join('\0'),
    [...readAllowedSecrets(memoryDir)].sort().join('\0'),
    String(readSystemBudget(memoryDir, home ?? homeOfRepo(memoryDir))),
    JSON.stringify(readRepoLayout(memoryDir)),
  ];
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

function readVerdict(common: string): Verdict | null {
  try {
    const v = JSON.parse(readFileSync(join(common, VERDICT_FILE), 'utf8')) as Partial<Verdict>;
    if (typeof v.tip !== 'string' || typeof v.rules !== 'string' || !Array.isArray(v.problems)) return null;
    return { tip: v.tip, rules: v.rules, problems: v.problems.filter((p): p is string => typeof p === 'string') };
  } catch {
    return null;
  }
}

function writeVerdict(common: string, v: Verdict): void {
  const file = join(common, VERDICT_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(v)}\n`);
  renameSync(tmp, file);
}
