/**
 * `git diff --cached --raw` without git, for a confined writer's hook: its staged index against the index its
 * worktree was checked out with (HEAD's tree, read by the harness before the writer ran). One walk over the
 * two sorted entry lists; ids in hex only for the entries that differ. When a commit both adds and deletes
 * paths, git's rename detection (-M) decides what pairs up, so the answer is null and the caller asks git.
 * Pure but for {@link writerStagedDiff}, which reads the writer's (writer-writable) HEAD and index safely.
 */
import { join } from 'node:path';
import type { RawDiffEntry } from '../git/commands/diff-raw.js';
import { readIndexFile, type IndexEntries } from '../git/index-file.js';
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

/** Entry `i`'s path as git prints it (the lists hold the bytes as latin1, which sorts as bytes). */
function printed(e: IndexEntries, i: number): string {
  return Buffer.from(e.paths[i] as string, 'latin1').toString('utf8');
}

const hexId = (e: IndexEntries, i: number): string => e.ids.toString('hex', i * 20, i * 20 + 20);

/**
 * The raw diff from `base` to `staged` in git's path order, or null when renames may pair some of it.
 * @example stagedDiff(baseEntries, stagedEntries) // [{ status: 'A', path: 'notes/x.md', … }]
 */
export function stagedDiff(base: IndexEntries, staged: IndexEntries): RawDiffEntry[] | null {
  const out: RawDiffEntry[] = [];
  const [nb, ns] = [base.paths.length, staged.paths.length];
  let added = false;
  let deleted = false;
  for (let i = 0, j = 0; i < nb || j < ns; ) {
    const bp = base.paths[i];
    const sp = staged.paths[j];
    if (sp === undefined || (bp !== undefined && bp < sp)) {
      deleted = true;
      out.push({ status: 'D', oldMode: base.modes[i] as string, newMode: ABSENT_MODE, oldId: hexId(base, i), newId: NULL_ID, path: printed(base, i) });
      i++;
    } else if (bp === undefined || sp < bp) {
      added = true;
      out.push({ status: 'A', oldMode: ABSENT_MODE, newMode: staged.modes[j] as string, oldId: NULL_ID, newId: hexId(staged, j), path: printed(staged, j) });
      j++;
    } else {
      const [om, nm] = [base.modes[i] as string, staged.modes[j] as string];
      if (om !== nm || base.ids.compare(staged.ids, j * 20, j * 20 + 20, i * 20, i * 20 + 20) !== 0) {
        out.push({ status: kind(om) === kind(nm) ? 'M' : 'T', oldMode: om, newMode: nm, oldId: hexId(base, i), newId: hexId(staged, j), path: printed(staged, j) });
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
