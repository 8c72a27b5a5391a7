/**
 * Reads what search needs of a commit's trees: its indexable files (path → blob id) and the paths two commits
 * differ in. Loose objects are read directly (what gitmem's own writes leave, so the search after a write
 * starts no git process); anything packed is asked of git, in one call. Blob contents: blob-read.ts.
 */
import { isUtf8 } from 'node:buffer';
import { join } from 'node:path';
import { resolveGitCommonDir } from '../git/common-dir.js';
import type { GitOp, GitRunner } from '../git/runner.js';
import { diffLoose, listLoose } from './loose-diff.js';
import type { MapChange } from './store.js';
import { isIndexablePath } from './text.js';

/** Where search reads a repository. */
export interface RepoRef {
  git: GitRunner;
  memoryDir: string;
}

/** A path as UTF-8, or null: a name that is not UTF-8 has no exact JS string (never reported, never indexed). */
function decodePath(raw: Buffer): string | null {
  return isUtf8(raw) ? raw.toString('utf8') : null;
}

/** `ls-tree -r -l -z` as (path, mode, id, size) records, paths decoded strictly. Pure parse. */
export function lsTreeSizedOp(commit: string): GitOp<Array<{ path: string; mode: string; id: string; size: number }>> {
  return {
    args: ['ls-tree', '-r', '-l', '-z', '--full-tree', commit],
    parse: (r) => {
      const out: Array<{ path: string; mode: string; id: string; size: number }> = [];
      const buf = r.stdoutBuffer;
      // Records are `<mode> <type> <id> <size, padded>\t<path>\0`; read by offsets (this runs per file).
      for (let pos = 0; pos < buf.length; ) {
        const nul = buf.indexOf(0, pos);
        const end = nul < 0 ? buf.length : nul;
        const tab = buf.indexOf(9, pos);
        const sp = buf.indexOf(32, pos);
        if (tab > pos && tab < end && sp > pos && sp < tab && buf.toString('latin1', sp + 1, sp + 6) === 'blob ') {
          const idEnd = buf.indexOf(32, sp + 6);
          const path = decodePath(buf.subarray(tab + 1, end));
          if (path !== null && idEnd > sp + 6 && idEnd < tab) {
            out.push({ path, mode: buf.toString('latin1', pos, sp), id: buf.toString('latin1', sp + 6, idEnd), size: Number(buf.toString('latin1', idEnd, tab)) });
          }
        }
        pos = end + 1;
      }
      return out;
    },
  };
}

/** The indexable files of a commit and each blob's size. */
export async function readTreeMap(repo: RepoRef, commit: string): Promise<{ entries: Map<string, string>; sizes: Map<string, number> }> {
  const loose = listLoose(join(resolveGitCommonDir(repo.memoryDir), 'objects'), commit);
  if (loose) return { entries: loose, sizes: new Map() }; // sizes unknown: blobs are then read loose or checked
  const entries = new Map<string, string>();
  const sizes = new Map<string, number>();
  for (const e of await repo.git.exec(lsTreeSizedOp(commit), { cwd: repo.memoryDir })) {
    if (!isIndexablePath(e.path, e.mode)) continue;
    entries.set(e.path, e.id);
    sizes.set(e.id, e.size);
  }
  return { entries, sizes };
}

/** `diff-tree -r --raw -z --no-renames` between two commits, as map changes. Pure parse. */
export function diffTreeOp(from: string, to: string): GitOp<MapChange> {
  return {
    args: ['diff-tree', '-r', '--raw', '-z', '--no-abbrev', '--no-renames', '--no-ext-diff', '--no-textconv', from, to, '--'],
    parse: (r) => {
      const set = new Map<string, string>();
      const removed: string[] = [];
      const parts: Buffer[] = [];
      const buf = r.stdoutBuffer;
      for (let pos = 0; pos < buf.length; ) {
        const nul = buf.indexOf(0, pos);
        const end = nul < 0 ? buf.length : nul;
        parts.push(buf.subarray(pos, end));
        pos = end + 1;
      }
      for (let i = 0; i + 1 < parts.length; i += 2) {
        const [, newMode = '', , newId = ''] = (parts[i] ?? Buffer.alloc(0)).toString('latin1').slice(1).split(' ');
        const path = decodePath(parts[i + 1] ?? Buffer.alloc(0));
        if (path === null) continue;
        if (isIndexablePath(path, newMode)) set.set(path, newId);
        else removed.push(path);
      }
      return { kind: 'delta', set, removed };
    },
  };
}

/** How the map moves from one commit to another: loose objects first, else git; null when `from` is gone. */
export async function diffCommits(repo: RepoRef, from: string, to: string): Promise<MapChange | null> {
  const objectsDir = join(resolveGitCommonDir(repo.memoryDir), 'objects');
  const loose = diffLoose(objectsDir, from, to);
  if (loose) return loose;
  try {
    return await repo.git.exec(diffTreeOp(from, to), { cwd: repo.memoryDir });
  } catch {
    return null; // e.g. the old commit was pruned after a reset: rebuild the map from the tree
  }
}
