/**
 * Rolling a journaled write forward (see journal.ts): the part that touches the repository. Files are put
 * in place through a race-safe RepoFs, and the index from the commit's known entries, never by reading
 * the work tree back.
 */
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { syncAll } from '../git/durable.js';
import { formatOfId, OBJECT_ID, zeroId, type ObjectFormat } from '../git/object-format.js';
import { objectId } from '../git/objects.js';
import { catFileBatchRawOp, revParseOp, type IndexInfoEntry } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';
import { isMemoryError } from '../errors.js';
import { publishCommit, restageIndex } from './commit.js';
import type { JournalEntry, RecoveryOutcome } from './journal-entry.js';
import { repairTornIndex, repairTornRef } from './recover-torn.js';
import { RepoFs, TEMP_PREFIX } from './repo-fs.js';

const parentOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
/** Something at a path that is not a regular file (a link, a directory): never this write's doing. */
const OTHER = 'other';

/** Objects at `rev:<path>` for each path (null where absent), in one git call. */
async function objectsAt(git: GitRunner, cwd: string, rev: string | null, paths: readonly string[]) {
  if (rev === null) return paths.map(() => null);
  const objects = await git.exec(catFileBatchRawOp(paths.map((p) => `${rev}:${p}`)), { cwd });
  return paths.map((_, i) => (objects[i]?.type === 'blob' ? (objects[i] ?? null) : null));
}

/** The index entries of `paths` at `commit` (for journals written before entries were recorded). */
async function indexAt(
  git: GitRunner,
  cwd: string,
  commit: string,
  paths: readonly string[],
): Promise<IndexInfoEntry[]> {
  const out = (await git.run(['ls-tree', '-z', '--full-tree', commit, '--', ...paths], { cwd })).stdout;
  const found = new Map<string, IndexInfoEntry>();
  for (const line of out.split('\0').filter((l) => l !== '')) {
    const tab = line.indexOf('\t');
    const [mode = '', , id = ''] = line.slice(0, tab).split(' ');
    found.set(line.slice(tab + 1), { path: line.slice(tab + 1), mode, id });
  }
  return paths.map((p) => found.get(p) ?? { path: p, mode: null, id: zeroId(formatOfId(commit) ?? 'sha1') });
}

function workTreeId(fs: RepoFs, path: string, format: ObjectFormat): string | null {
  try {
    const bytes = fs.readFile(path);
    return bytes === null ? null : objectId('blob', bytes, format);
  } catch (err) {
    if (isMemoryError(err)) return OTHER;
    throw err;
  }
}

/** Removes the temp files a dead writer left next to its targets. */
function sweepTemps(fs: RepoFs, e: JournalEntry): void {
  const prefix = Buffer.from(`${TEMP_PREFIX}${e.pid}-`);
  for (const dir of new Set(e.paths.map(parentOf))) {
    let entries;
    try {
      entries = fs.list(dir) ?? [];
    } catch {
      continue; // not a directory we may enter: nothing of ours there
    }
    for (const entry of entries) {
      if (entry.kind === 'file' && entry.name.subarray(0, prefix.length).equals(prefix))
        fs.unlink(`${dir === '' ? '' : `${dir}/`}${entry.name.toString('utf8')}`);
    }
  }
}

/**
 * True when every path's object at the commit is the one the entry's index names: a power loss can keep
 * the entry and lose objects it names (they were flushed together), and a missing blob must never read as
 * "delete this file".
 */
function objectsSurvived(
  e: JournalEntry,
  index: readonly IndexInfoEntry[],
  wanted: ReadonlyArray<{ id: string } | null>,
): boolean {
  return e.paths.every((p, i) => {
    const entry = index.find((x) => x.path === p);
    const want = wanted[i] ?? null;
    return entry !== undefined && (entry.mode === null ? want === null : want?.id === entry.id);
  });
}

/** Flushes the loose objects `commit` adds to `parent` (the dead writer may not have), with their directories. */
async function syncCommitObjects(git: GitRunner, cwd: string, commit: string, parent: string | null): Promise<void> {
  const out = (
    await git.run(
      ['rev-list', '--objects', '--no-object-names', commit, ...(parent === null ? [] : ['--not', parent])],
      { cwd },
    )
  ).stdout;
  const objectsDir = join(resolveGitCommonDir(cwd), 'objects');
  const fds: number[] = [];
  const dirs = new Set<string>();
  try {
    for (const id of out.split('\n').filter((l) => OBJECT_ID.test(l))) {
      const dir = join(objectsDir, id.slice(0, 2));
      try {
        fds.push(openSync(join(dir, id.slice(2)), 'r'));
        dirs.add(dir);
      } catch {
        // packed (fetched or repacked): git flushed it when it wrote the pack
      }
    }
    await syncAll({ data: fds, dirs: [...dirs, objectsDir] });
  } finally {
    fds.forEach((fd) => closeSync(fd));
  }
}

/** Puts each path's wanted content in place where the work tree still shows the parent's. */
function rollFilesForward(
  fs: RepoFs,
  e: JournalEntry,
  index: readonly IndexInfoEntry[],
  current: ReadonlyArray<string | null>,
  wanted: ReadonlyArray<{ id: string; data: Buffer } | null>,
  durable: boolean,
): void {
  e.paths.forEach((p, i) => {
    const want = wanted[i] ?? null;
    if (current[i] === (want?.id ?? null)) return;
    if (want === null) {
      fs.unlink(p);
      fs.pruneEmptyDirs(parentOf(p));
    } else {
      const existing = fs.info(p);
      fs.writeFile(
        p,
        want.data,
        existing ? existing.mode : index.find((x) => x.path === p)?.mode === '100755' ? 0o755 : undefined,
        durable,
      );
    }
  });
}

/**
 * Finishes the journaled write `e` whose writer died, in the order and with the flushes of a normal write
 * when `durable`. HEAD still at the parent: the files are put in place and the commit published. HEAD
 * already at the commit (a power loss can keep the ref and lose the files' renames): the files are put in
 * place too, and the index set. A ref or an index torn by the crash is repaired first (recover-torn.ts).
 * Throws when a step fails (the caller sets it aside).
 * @example await finishWrite(git, memoryDir, entry, true) // 'rolled_forward'
 */
export async function finishWrite(
  git: GitRunner,
  memoryDir: string,
  e: JournalEntry,
  durable: boolean,
): Promise<RecoveryOutcome> {
  const cwd = memoryDir;
  await repairTornRef(git, memoryDir, e.commit);
  const head = await git.exec(revParseOp('HEAD'), { cwd });
  const fs = new RepoFs(memoryDir);
  try {
    sweepTemps(fs, e);
    if (head !== e.commit && head !== e.parent) return 'abandoned';
    await repairTornIndex(git, memoryDir, head, e.paths, durable);
    const index = e.index ?? (await indexAt(git, cwd, e.commit, e.paths));
    const [wanted, before] = await Promise.all([
      objectsAt(git, cwd, e.commit, e.paths),
      objectsAt(git, cwd, e.parent, e.paths),
    ]);
    if (!objectsSurvived(e, index, wanted)) return 'abandoned';
    const format = formatOfId(e.commit) ?? 'sha1'; // the journal's commit was hashed in the repository's format
    const current = e.paths.map((p) => workTreeId(fs, p, format));
    const onlyThisWrite = current.every((id, i) => id === (wanted[i]?.id ?? null) || id === (before[i]?.id ?? null));
    if (!onlyThisWrite && head === e.parent) return 'abandoned';
    if (durable) await syncCommitObjects(git, cwd, e.commit, e.parent);
    if (onlyThisWrite) rollFilesForward(fs, e, index, current, wanted, durable);
    const alongside = durable ? (): Promise<void> => fs.syncDirsOf(e.paths) : undefined;
    if (head === e.commit) {
      await Promise.all([restageIndex(git, memoryDir, index, durable), alongside?.()]);
      return 'already_published';
    }
    await publishCommit(git, {
      memoryDir,
      commit: e.commit,
      parent: e.parent,
      index,
      subject: e.subject,
      durable,
      alongside,
    });
    return 'rolled_forward';
  } finally {
    fs.close();
  }
}
