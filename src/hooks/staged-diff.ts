/**
 * `git diff --cached --raw` without git, for a confined writer's hook: its staged index against the index its
 * worktree was checked out with (HEAD's tree, read by the harness before the writer ran). One walk over the
 * two sorted entry lists, comparing bytes in place; names and ids decoded only for the entries that differ. When a commit both adds and deletes
 * paths, git's rename detection (-M) decides what pairs up, so the answer is null and the caller asks git.
 * Pure but for {@link writerStagedDiff}, which reads the writer's (writer-writable) HEAD and index safely.
 */
import { join } from 'node:path';
import type { RawDiffEntry } from '../git/commands/diff-raw.js';
import { compareBytes, entryPath, INDEX_MODES, readIndexFile, type IndexEntries } from '../git/index-file.js';
import { readLooseFile } from '../git/loose-object.js';

/** A writer's base: the commit its worktree was checked out at, and that checkout's index (read before it ran). */
export interface WriterBase {
  head: string;
  index: Promise<IndexEntries | null>;
}

const ABSENT_MODE = '000000';
const NULL_ID = '0'.repeat(40);

/** The object kind a mode names (a change of kind is git's `T`). */
function kind(mode: string): string {
  return mode.slice(0, 2);
}

const modeOf = (e: IndexEntries, i: number): string => INDEX_MODES[e.mode[i] as number] as string;
const hexId = (e: IndexEntries, i: number): string => e.buf.toString('hex', e.idAt[i], (e.idAt[i] as number) + 20);

/** The order of base entry `i` and staged entry `j` by name (git's: bytes); past either end, the other first. */
function order(base: IndexEntries, i: number, staged: IndexEntries, j: number): number {
  if (i >= base.count) return 1;
  if (j >= staged.count) return -1;
  return compareBytes(base.buf, base.nameStart[i] as number, base.nameEnd[i] as number, staged.buf, staged.nameStart[j] as number, staged.nameEnd[j] as number);
}

/** True when entry `i` of `a` and entry `j` of `b` name the same object with the same mode. */
function sameEntry(a: IndexEntries, i: number, b: IndexEntries, j: number): boolean {
  const ai = a.idAt[i] as number;
  return a.mode[i] === b.mode[j] && compareBytes(a.buf, ai, ai + 20, b.buf, b.idAt[j] as number, (b.idAt[j] as number) + 20) === 0;
}

/** Entries compared as one byte range at a time: a staged index is its base but for a few entries. */
const RUN = 64;

/**
 * True when the next RUN entries of both are the very same bytes (names, ids, modes, stat data), so the same
 * entries: an entry's bytes decide what it is, and both runs start at an entry.
 */
function sameRun(base: IndexEntries, i: number, staged: IndexEntries, j: number): boolean {
  if (i + RUN > base.count || j + RUN > staged.count) return false;
  const [bs, be, ss, se] = [base.start[i] as number, base.start[i + RUN] as number, staged.start[j] as number, staged.start[j + RUN] as number];
  return be - bs === se - ss && base.buf.compare(staged.buf, ss, se, bs, be) === 0;
}

/**
 * The raw diff from `base` to `staged` in git's path order, or null when renames may pair some of it.
 * @example stagedDiff(baseEntries, stagedEntries) // [{ status: 'A', path: 'notes/x.md', … }]
 */
export function stagedDiff(base: IndexEntries, staged: IndexEntries): RawDiffEntry[] | null {
  const out: RawDiffEntry[] = [];
  let added = false;
  let deleted = false;
  for (let i = 0, j = 0; i < base.count || j < staged.count; ) {
    if (sameRun(base, i, staged, j)) {
      i += RUN;
      j += RUN;
      continue;
    }
    const c = order(base, i, staged, j);
    if (c < 0) {
      deleted = true;
      out.push({ status: 'D', oldMode: modeOf(base, i), newMode: ABSENT_MODE, oldId: hexId(base, i), newId: NULL_ID, path: entryPath(base, i) });
      i++;
    } else if (c > 0) {
      added = true;
      out.push({ status: 'A', oldMode: ABSENT_MODE, newMode: modeOf(staged, j), oldId: NULL_ID, newId: hexId(staged, j), path: entryPath(staged, j) });
      j++;
    } else {
      if (!sameEntry(base, i, staged, j)) {
        const [om, nm] = [modeOf(base, i), modeOf(staged, j)];
        out.push({ status: kind(om) === kind(nm) ? 'M' : 'T', oldMode: om, newMode: nm, oldId: hexId(base, i), newId: hexId(staged, j), path: entryPath(staged, j) });
      }
      i++;
      j++;
    }
    if (added && deleted) return null;
  }
  return out;
}

/**
 * The staged diff of a writer's commit, made here when its HEAD (in its private git dir) is still the base and
 * both indexes read plainly; undefined when git must make it (a later commit, a split or odd index, renames).
 * @example await writerStagedDiff(base, gitDir, join(gitDir, 'index.lock')) // [{ status: 'A', … }] | undefined
 */
export async function writerStagedDiff(base: WriterBase, gitDir: string, indexFile: string): Promise<RawDiffEntry[] | undefined> {
  const baseIndex = await base.index.catch(() => null);
  if (baseIndex === null) return undefined;
  let head: string | undefined;
  try {
    head = readLooseFile(join(gitDir, 'HEAD'), 256)?.toString('latin1');
  } catch {
    return undefined; // a link or a FIFO in its place: git decides
  }
  if (head?.trim() !== base.head) return undefined;
  const staged = readIndexFile(indexFile);
  return (staged && stagedDiff(baseIndex, staged)) ?? undefined;
}
