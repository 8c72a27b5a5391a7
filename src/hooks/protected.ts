/**
 * The protected list: every path gitmem has seen committed as read_only, kept in the common git dir
 * (`gitmem-protected`), outside the repository's history. A commit cannot empty it — not a `--no-verify`
 * commit that drops the key, not a sync that brings one in — so the validator (memory tool, pre-commit hook,
 * merges) keeps refusing writes to those paths until an operator lifts them (`gitmem protect remove`); an
 * operator writes them with `gitmem protect write` (memfs/operator-write.ts), which records what it protects.
 * Background writers cannot touch it: their sandbox makes the whole common git dir read-only.
 *
 * gitmem records what it sees: on open and init (incrementally, from the commit it last looked at to HEAD, so
 * an open that finds nothing new reads two small files and starts no process), and after its own commits and
 * merges, which the validator has just proved add no protected file (an operator's write records the one it
 * may add itself: noteOperatorProtection).
 */
import { cloneScope, fetchObjects, isPartialClone, missingObjects } from '../git/promisor.js';
import { readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isProtectedText } from '../blocks/validate-protection.js';
import { pathProblem } from '../blocks/path-rules.js';
import { MemoryError, isMemoryError } from '../errors.js';
import { gitDirAt, resolveGitCommonDir } from '../git/common-dir.js';
import { logRawOp } from '../git/commands/diff-raw.js';
import { catFileBatchOp, revParseOp } from '../git/commands/plumbing.js';
import { withMemoryOperation } from '../git/lease.js';
import { readHeadQuick } from '../git/read-ref.js';
import type { GitRunner } from '../git/runner.js';

/** File name inside the common git dir. */
export const PROTECTED_FILE = 'gitmem-protected';

interface ProtectedState {
  version: 1;
  /** The commit whose tree (and everything before it that gitmem saw) has been looked at; null = never. */
  scanned: string | null;
  paths: string[];
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const EMPTY: ProtectedState = { version: 1, scanned: null, paths: [] };

function readState(commonDir: string): ProtectedState {
  let text: string;
  try {
    text = readFileSync(join(commonDir, PROTECTED_FILE), 'utf8');
  } catch {
    return EMPTY;
  }
  try {
    const v = JSON.parse(text) as Partial<ProtectedState>;
    const paths = Array.isArray(v.paths) ? v.paths.filter((p): p is string => typeof p === 'string') : [];
    return { version: 1, scanned: typeof v.scanned === 'string' && OID.test(v.scanned) ? v.scanned : null, paths };
  } catch {
    return EMPTY; // unreadable: rescanned from scratch on the next open (the content rules still hold meanwhile)
  }
}

/** Replaces the file atomically. The caller holds the operation lease (read-modify-write). */
function writeState(commonDir: string, state: ProtectedState): void {
  const file = join(commonDir, PROTECTED_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ ...state, paths: [...new Set(state.paths)].sort() }, null, 1)}\n`);
  renameSync(tmp, file);
}

/**
 * The protected paths of the repository containing `repoDir` (validator input; a plain file read).
 * @example validateChanges(changes, { protectedPaths: readProtectedPaths(memoryDir) })
 */
export function readProtectedPaths(repoDir: string, commonDir = resolveGitCommonDir(repoDir)): ReadonlySet<string> {
  return new Set(readState(commonDir).paths);
}

/**
 * The protected paths, sorted.
 * @example listProtectedPaths('/home/me/.gitmem/agents/a1/memory') // ['system/rules.md']
 */
export function listProtectedPaths(repoDir: string): string[] {
  return [...readProtectedPaths(repoDir)].sort();
}

/**
 * Blobs to look at: every version any commit between `from` and `to` wrote (each commit against each of its
 * parents, whoever made it), or every commit's of `to`'s whole history when nothing was looked at yet. A
 * file made read_only by one commit and unlocked by the next is thereby still seen; only the net diff of
 * the two ends would miss it.
 */
async function blobsSince(
  git: GitRunner,
  cwd: string,
  from: string | null,
  to: string,
): Promise<Array<{ path: string; id: string }>> {
  const regular = (mode: string): boolean => mode === '100644' || mode === '100755';
  let entries;
  try {
    entries = await git.exec(logRawOp(from === null ? [to] : [to, '--not', from]), { cwd });
  } catch {
    entries = await git.exec(logRawOp([to]), { cwd }); // `from` is gone (gc after a reset): every commit of `to`
  }
  const seen = new Set<string>();
  const out: Array<{ path: string; id: string }> = [];
  for (const e of entries) {
    const key = `${e.newId}\0${e.path}`;
    if (e.status === 'D' || !regular(e.newMode) || seen.has(key)) continue;
    seen.add(key);
    out.push({ path: e.path, id: e.newId });
  }
  return out;
}

/**
 * A partial clone's blobs for the scan: the missing ones the memory tool could write (under the clone's scope,
 * system/ and the root files; everywhere without a scope) fetched in one round trip rather than one fetch per
 * blob; the others, outside a scoped checkout, are left out (the tool refuses writes there). When the fetch
 * fails (the remote unreachable now) the missing blobs are left out too, and the open goes on.
 */
async function fetchScanned(
  git: GitRunner,
  repoDir: string,
  common: string,
  blobs: Array<{ path: string; id: string }>,
  revs: string[],
): Promise<Array<{ path: string; id: string }>> {
  const missing = await missingObjects(git, repoDir, revs).catch(() => new Set<string>());
  if (missing.size === 0) return blobs;
  const scope = cloneScope(common);
  const writable = (path: string): boolean =>
    scope === undefined || !path.includes('/') || [scope, 'system'].some((d) => path.startsWith(`${d}/`));
  const wanted = [...new Set(blobs.filter((b) => missing.has(b.id) && writable(b.path)).map((b) => b.id))];
  const fetched = await fetchObjects(git, repoDir, wanted).then(
    () => true,
    () => false,
  );
  return blobs.filter((b) => !missing.has(b.id) || (fetched && writable(b.path)));
}

/**
 * Records the read_only files of HEAD that changed since the last look. The caller holds the lease.
 * Returns the paths newly added to the list.
 */
async function scanProtection(git: GitRunner, repoDir: string): Promise<string[]> {
  const common = resolveGitCommonDir(repoDir);
  const head = readHeadQuick(common) ?? (await git.exec(revParseOp('HEAD'), { cwd: repoDir }));
  const state = readState(common);
  if (head === null || head === state.scanned) return [];
  let blobs = await blobsSince(git, repoDir, state.scanned, head);
  if (isPartialClone(common))
    blobs = await fetchScanned(git, repoDir, common, blobs, [head, ...(state.scanned ? ['--not', state.scanned] : [])]);
  const contents = blobs.length === 0 ? [] : await git.exec(catFileBatchOp(blobs.map((b) => b.id)), { cwd: repoDir });
  const known = new Set(state.paths);
  const fresh = blobs.filter((b, i) => !known.has(b.path) && isProtectedText(contents[i] ?? null)).map((b) => b.path);
  writeState(common, { version: 1, scanned: head, paths: [...state.paths, ...fresh] });
  return fresh;
}

const CANNOT_RECORD = new Set(['EROFS', 'EACCES', 'EPERM']);

/**
 * What every open does: nothing but two file reads when HEAD is the commit last looked at; else the scan,
 * under the lease (briefly: a writer holding it longer only postpones the scan to the next open). Only the
 * primary checkout records; a read-only git dir (inside a sandbox) is left alone.
 * @example const added = await recordProtection(git, memoryDir)
 */
export async function recordProtection(git: GitRunner, repoDir: string): Promise<string[]> {
  const common = resolveGitCommonDir(repoDir);
  const own = gitDirAt(resolve(repoDir));
  if (own === null || realpathSync(own) !== common) return [];
  const scanned = readState(common).scanned;
  if (scanned !== null && readHeadQuick(common) === scanned) return [];
  try {
    return await withMemoryOperation(repoDir, () => scanProtection(git, repoDir), {
      purpose: 'record read_only files',
      timeoutMs: 2_000,
    });
  } catch (err) {
    if (isMemoryError(err, 'LOCK_TIMEOUT') || CANNOT_RECORD.has(String((err as NodeJS.ErrnoException).code))) return [];
    throw err;
  }
}

/**
 * After a commit the validator accepted on top of `parent` (which therefore protects exactly what its parent
 * did), moves the marker along so the next open has nothing to scan. The caller holds the lease.
 * @example noteValidatedCommit(memoryDir, base.head, commit)
 */
export function noteValidatedCommit(
  repoDir: string,
  parent: string | null,
  commit: string,
  common = resolveGitCommonDir(repoDir),
): void {
  const state = readState(common);
  if (state.scanned === null || state.scanned !== parent) return;
  writeState(common, { ...state, scanned: commit });
}

/**
 * After an operator's commit of a read_only text at `path` (`gitmem protect write`), records the path, so no
 * later commit that drops the key unprotects it. The caller holds the lease (the marker may then follow the
 * commit: this was the one file it added).
 * @example noteOperatorProtection(memoryDir, 'system/rules.md')
 */
export function noteOperatorProtection(repoDir: string, path: string): void {
  const common = resolveGitCommonDir(repoDir);
  const state = readState(common);
  if (!state.paths.includes(path)) writeState(common, { ...state, paths: [...state.paths, path] });
}

async function editList(repoDir: string, edit: (paths: Set<string>) => void, purpose: string): Promise<string[]> {
  return withMemoryOperation(
    repoDir,
    () => {
      const common = resolveGitCommonDir(repoDir);
      const state = readState(common);
      const paths = new Set(state.paths);
      edit(paths);
      writeState(common, { ...state, paths: [...paths] });
      return [...paths].sort();
    },
    { purpose },
  );
}

/**
 * Operator action: protects `paths` (files need not exist yet). Returns the new list.
 * @example await protectPaths(memoryDir, ['system/rules.md'])
 */
export async function protectPaths(repoDir: string, paths: readonly string[]): Promise<string[]> {
  for (const p of paths) {
    const problem = pathProblem(p);
    if (problem !== null)
      throw new MemoryError('INVALID_PATH', `cannot protect ${JSON.stringify(p)}: ${problem}`, { data: { path: p } });
  }
  return editList(repoDir, (set) => paths.forEach((p) => set.add(p)), 'gitmem protect add');
}

/**
 * Operator action: lifts the protection of `paths` (a file whose frontmatter still says read_only stays
 * protected by its content). Returns the new list.
 * @example await unprotectPaths(memoryDir, ['system/rules.md'])
 */
export async function unprotectPaths(repoDir: string, paths: readonly string[]): Promise<string[]> {
  return editList(repoDir, (set) => paths.forEach((p) => set.delete(p)), 'gitmem protect remove');
}
