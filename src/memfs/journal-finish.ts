/**
 * Rolling a journaled write forward (see journal.ts): the part that touches the repository. Files are put
 * in place through a race-safe RepoFs, and the index from the commit's known entries, never by reading
 * the work tree back.
 */
import { formatOfId, zeroId, type ObjectFormat } from '../git/object-format.js';
import { objectId } from '../git/objects.js';
import { catFileBatchRawOp, revParseOp, updateIndexInfoOp, type IndexInfoEntry } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';
import { isMemoryError } from '../errors.js';
import { publishCommit } from './commit.js';
import type { JournalEntry, RecoveryOutcome } from './journal.js';
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
async function indexAt(git: GitRunner, cwd: string, commit: string, paths: readonly string[]): Promise<IndexInfoEntry[]> {
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
      if (entry.kind === 'file' && entry.name.subarray(0, prefix.length).equals(prefix)) fs.unlink(`${dir === '' ? '' : `${dir}/`}${entry.name.toString('utf8')}`);
    }
  }
}

/**
 * Finishes the journaled write `e` whose writer died. Throws when a step fails (the caller sets it aside).
 * @example await finishWrite(git, memoryDir, entry) // 'rolled_forward'
 */
export async function finishWrite(git: GitRunner, memoryDir: string, e: JournalEntry): Promise<RecoveryOutcome> {
  const cwd = memoryDir;
  const head = await git.exec(revParseOp('HEAD'), { cwd });
  const fs = new RepoFs(memoryDir);
  try {
    sweepTemps(fs, e);
    const index = e.index ?? (await indexAt(git, cwd, e.commit, e.paths));
    if (head === e.commit) {
      await git.exec(updateIndexInfoOp(index), { cwd });
      return 'already_published';
    }
    if (head !== e.parent) return 'abandoned';
    const [wanted, before] = await Promise.all([objectsAt(git, cwd, e.commit, e.paths), objectsAt(git, cwd, e.parent, e.paths)]);
    const format = formatOfId(e.commit) ?? 'sha1'; // the journal's commit was hashed in the repository's format
    const current = e.paths.map((p) => workTreeId(fs, p, format));
    const onlyThisWrite = current.every((id, i) => id === (wanted[i]?.id ?? null) || id === (before[i]?.id ?? null));
    if (!onlyThisWrite) return 'abandoned';
    e.paths.forEach((p, i) => {
      const want = wanted[i] ?? null;
      if (current[i] === (want?.id ?? null)) return;
      if (want === null) {
        fs.unlink(p);
        fs.pruneEmptyDirs(parentOf(p));
      } else {
        const existing = fs.info(p);
        fs.writeFile(p, want.data, existing ? existing.mode : index.find((x) => x.path === p)?.mode === '100755' ? 0o755 : undefined);
      }
    });
    await publishCommit(git, { memoryDir, commit: e.commit, parent: e.parent, index, subject: e.subject });
    return 'rolled_forward';
  } finally {
    fs.close();
  }
}
