/**
 * The tree a resolution records: git's clean merge of main and the kept branch, with every conflicted path
 * decided by the caller's choice — main's side (`ours`), the kept branch's (`theirs`), both resolved hunk by
 * hunk with `git merge-file --ours|--theirs`, or the exact text given per path. A conflicted path nobody
 * decided is refused: a resolution never guesses.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathProblem } from '../blocks/path-rules.js';
import { MemoryError } from '../errors.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import type { GitOp, GitRunner } from '../git/runner.js';
import { mergeStagesOp, type ConflictedPath, type MergeStages, type StageEntry } from './merge-stages.js';

/** How the conflicted paths are decided. */
export type Resolution =
  | { take: 'ours' }
  | { take: 'theirs' }
  /** The resolved text of each path (null deletes it); every conflicted path must be named. */
  | { files: Readonly<Record<string, string | null>> };

/** What one path becomes: a blob with its mode, or nothing. */
type Decision = StageEntry | null;

const REGULAR = /^100[0-7]{3}$/;

function mergeFileFavorOp(favor: 'ours' | 'theirs', current: string, base: string, other: string): GitOp<Buffer> {
  return {
    args: ['merge-file', '-p', '-q', `--${favor}`, '--', current, base, other],
    okExitCodes: Array.from({ length: 255 }, (_, i) => i + 1),
    parse: (r) => r.stdoutBuffer,
  };
}

async function blob(git: GitRunner, cwd: string, oid: string | undefined): Promise<Buffer> {
  if (oid === undefined) return Buffer.alloc(0);
  return (await git.run(['cat-file', 'blob', oid], { cwd })).stdoutBuffer;
}

export async function storeBlob(git: GitRunner, cwd: string, data: Buffer | string): Promise<string> {
  return (await git.run(['hash-object', '-w', '--no-filters', '--stdin'], { cwd, input: data })).stdout.trim();
}

/** Both sides' text with the other side's non-conflicting hunks kept; conflicting hunks go `favor`'s way. */
async function mergeFavoring(
  git: GitRunner,
  cwd: string,
  c: ConflictedPath,
  favor: 'ours' | 'theirs',
): Promise<Decision> {
  const ours = c.ours as StageEntry;
  const theirs = c.theirs as StageEntry;
  const taken = favor === 'ours' ? ours : theirs;
  if (!REGULAR.test(ours.mode) || !REGULAR.test(theirs.mode)) return taken;
  const dir = mkdtempSync(join(tmpdir(), 'gitmem-resolve-'));
  try {
    const names = ['ours', 'base', 'theirs'].map((n) => join(dir, n)) as [string, string, string];
    const parts = [await blob(git, cwd, ours.oid), await blob(git, cwd, c.base?.oid), await blob(git, cwd, theirs.oid)];
    parts.forEach((data, i) => writeFileSync(names[i] as string, data, { mode: 0o600, flag: 'wx' }));
    const merged = await git.exec(mergeFileFavorOp(favor, ...names), { cwd });
    return { mode: taken.mode, oid: await storeBlob(git, cwd, merged) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function decide(git: GitRunner, cwd: string, c: ConflictedPath, r: Resolution): Promise<Decision> {
  if ('take' in r) {
    if (c.ours && c.theirs) return mergeFavoring(git, cwd, c, r.take);
    return (r.take === 'ours' ? c.ours : c.theirs) ?? null; // modify/delete: the chosen side, even a deletion
  }
  const text = r.files[c.path];
  if (text === null || text === undefined) return null;
  return { mode: c.ours?.mode ?? c.theirs?.mode ?? '100644', oid: await storeBlob(git, cwd, text) };
}

/** Paths given as text that git's merge did not mark as conflicted: the caller's text wins there too. */
async function extraFiles(
  git: GitRunner,
  cwd: string,
  r: Resolution,
  conflicted: ReadonlySet<string>,
): Promise<Map<string, Decision>> {
  const out = new Map<string, Decision>();
  if (!('files' in r)) return out;
  for (const [path, text] of Object.entries(r.files)) {
    if (conflicted.has(path)) continue;
    out.set(path, text === null ? null : { mode: '100644', oid: await storeBlob(git, cwd, text) });
  }
  return out;
}

function assertCovered(stages: MergeStages, r: Resolution): void {
  if (!('files' in r)) return;
  for (const path of Object.keys(r.files)) {
    const problem = pathProblem(path);
    if (problem !== null)
      throw new MemoryError('INVALID_PATH', `cannot resolve with '${path.slice(0, 200)}': ${problem}`, {
        data: { path },
      });
  }
  const missing = stages.conflicts.map((c) => c.path).filter((p) => !Object.hasOwn(r.files, p));
  if (missing.length > 0) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `the resolution leaves conflicted path(s) undecided: ${missing.join(', ')} (give the text of each)`,
      { data: { paths: missing } },
    );
  }
}

/** The merged tree with `decisions` applied, through a private index file (the checkout's index is untouched). */
async function applyDecisions(
  git: GitRunner,
  cwd: string,
  tree: string,
  decisions: Map<string, Decision>,
): Promise<string> {
  if (decisions.size === 0) return tree;
  const index = join(resolveGitCommonDir(cwd), `gitmem-resolve-${process.pid}-${randomBytes(6).toString('hex')}.index`);
  const env = { GIT_INDEX_FILE: index };
  try {
    await git.run(['read-tree', tree], { cwd, env });
    const lines = [...decisions].map(([path, d]) =>
      d === null ? `0 ${'0'.repeat(tree.length)}\t${path}\0` : `${d.mode} ${d.oid}\t${path}\0`,
    );
    await git.run(['update-index', '-z', '--index-info'], { cwd, env, input: lines.join('') });
    return (await git.run(['write-tree'], { cwd, env })).stdout.trim();
  } finally {
    rmSync(index, { force: true });
  }
}

/**
 * The tree resolving `theirs` into `ours` as `resolution` says, and the paths that conflicted.
 * @example await resolvedTree(git, memoryDir, head, tip, { take: 'theirs' }) // { tree, conflicted: ['a.md'] }
 */
export async function resolvedTree(
  git: GitRunner,
  cwd: string,
  ours: string,
  theirs: string,
  resolution: Resolution,
): Promise<{ tree: string; conflicted: string[] }> {
  const stages = await git.exec(mergeStagesOp(ours, theirs), { cwd });
  if (stages.tree === '') throw new MemoryError('INTERNAL', 'git merge-tree returned no tree');
  assertCovered(stages, resolution);
  const conflicted = new Set(stages.conflicts.map((c) => c.path));
  const decisions = await extraFiles(git, cwd, resolution, conflicted);
  for (const c of stages.conflicts) decisions.set(c.path, await decide(git, cwd, c, resolution));
  return { tree: await applyDecisions(git, cwd, stages.tree, decisions), conflicted: [...conflicted] };
}

/**
 * The merge's stages only (for `show` and for proposals).
 * @example (await mergeStages(git, cwd, head, tip)).conflicts
 */
export async function mergeStages(git: GitRunner, cwd: string, ours: string, theirs: string): Promise<MergeStages> {
  return git.exec(mergeStagesOp(ours, theirs), { cwd });
}
