/**
 * Turns a raw diff (paths, modes, blob ids) into the validator's change set, reading every needed blob in one
 * `cat-file --batch`. Used by the pre-commit hook and by merge validation, so both see modes and contents the
 * same way. Links and gitlinks are never read: their mode alone refuses them.
 */
import type { FileChange } from '../blocks/validate.js';
import { catFileBatchOp } from '../git/commands/plumbing.js';
import { rawDiffOp, type RawDiffEntry } from '../git/commands/diff-raw.js';
import type { GitRunner } from '../git/runner.js';

const REGULAR = /^100[0-7]{3}$/;
const NULL_ID = /^0+$/;

function readable(mode: string, id: string): boolean {
  return REGULAR.test(mode) && !NULL_ID.test(id);
}

function toChange(e: RawDiffEntry, blob: (mode: string, id: string) => string | null): FileChange {
  const headContent = blob(e.oldMode, e.oldId);
  if (e.status === 'D') return { status: 'deleted', path: e.path, content: null, headContent };
  const content = blob(e.newMode, e.newId);
  const mode = e.newMode;
  if (e.status === 'R')
    return { status: 'renamed', path: e.path, oldPath: e.oldPath ?? '', content, headContent, mode };
  // A copy leaves its source in place: for the rules it is a new file.
  if (e.status === 'A' || e.status === 'C') return { status: 'added', path: e.path, content, headContent: null, mode };
  return { status: 'modified', path: e.path, content, headContent, mode };
}

/**
 * The change set a raw diff describes, with contents.
 * @example await readChangeSet(git, cwd, 'diff', ['--cached']) // what `git commit` would record
 */
export async function readChangeSet(
  git: GitRunner,
  cwd: string,
  command: 'diff' | 'diff-tree',
  rest: readonly string[],
  /** Blobs the caller has already read and re-hashed (a background writer's new objects): not asked again. */
  known?: ReadonlyMap<string, Buffer>,
): Promise<FileChange[]> {
  const entries = await git.exec(rawDiffOp(command, rest), { cwd });
  if (entries.length === 0) return [];
  const ids = new Set<string>();
  for (const e of entries) {
    if (readable(e.oldMode, e.oldId) && e.status !== 'A' && e.status !== 'C') ids.add(e.oldId);
    if (readable(e.newMode, e.newId) && e.status !== 'D') ids.add(e.newId);
  }
  const byId = new Map<string, string | null>();
  for (const id of ids) {
    const blob = known?.get(id);
    if (blob !== undefined) byId.set(id, blob.toString('utf8'));
  }
  const wanted = [...ids].filter((id) => !byId.has(id));
  const blobs = wanted.length === 0 ? [] : await git.exec(catFileBatchOp(wanted), { cwd });
  wanted.forEach((id, i) => byId.set(id, blobs[i] ?? null));
  return entries.map((e) => toChange(e, (mode, id) => (readable(mode, id) ? (byId.get(id) ?? null) : null)));
}
