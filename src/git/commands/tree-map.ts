/**
 * A commit's path map (path → blob id) and how it moves between two commits, as git ops: the fallback of
 * git/loose-tree.ts when objects are packed. Paths are decoded strictly: a name that is not UTF-8 has no
 * exact JS string, so it is never reported (search and the prompt's read cache skip it alike).
 */
import { isUtf8 } from 'node:buffer';
import type { KeepFile, TreeDelta } from '../loose-tree.js';
import type { GitOp } from '../runner.js';

function decodePath(raw: Buffer): string | null {
  return isUtf8(raw) ? raw.toString('utf8') : null;
}

/** One blob of a listing: path, mode, id and size in bytes. */
export interface MappedBlob {
  path: string;
  mode: string;
  id: string;
  size: number;
}

/**
 * Walks the blob records of `ls-tree -r -z` output (`<mode> blob <id>[ <size, padded>]\t<path>\0`) by offsets
 * (this runs per file): `visit(mode, id and size as listed, raw path)`. Other record types are skipped.
 */
export function eachLsTreeBlob(buf: Buffer, visit: (mode: string, idField: string, rawPath: Buffer) => void): void {
  for (let pos = 0; pos < buf.length;) {
    const nul = buf.indexOf(0, pos);
    const end = nul < 0 ? buf.length : nul;
    const tab = buf.indexOf(9, pos);
    const sp = buf.indexOf(32, pos);
    if (tab > pos && tab < end && sp > pos && sp < tab && buf.toString('latin1', sp + 1, sp + 6) === 'blob ') {
      visit(buf.toString('latin1', pos, sp), buf.toString('latin1', sp + 6, tab), buf.subarray(tab + 1, end));
    }
    pos = end + 1;
  }
}

/** `ls-tree -r -l -z` as the blobs `keep` accepts, paths decoded strictly. Pure parse. */
export function lsTreeMapOp(commit: string, keep: KeepFile): GitOp<MappedBlob[]> {
  return {
    args: ['ls-tree', '-r', '-l', '-z', '--full-tree', commit],
    parse: (r) => {
      const out: MappedBlob[] = [];
      eachLsTreeBlob(r.stdoutBuffer, (mode, field, raw) => {
        const idEnd = field.indexOf(' ');
        const path = decodePath(raw);
        if (path !== null && idEnd > 0 && keep(path, mode))
          out.push({ path, mode, id: field.slice(0, idEnd), size: Number(field.slice(idEnd)) });
      });
      return out;
    },
  };
}

/** `ls-tree -r -z` without sizes (git then reads no blob) as the kept files, path → blob id. Pure parse. */
export function lsTreeIdsOp(commit: string, keep: KeepFile): GitOp<Map<string, string>> {
  return {
    args: ['ls-tree', '-r', '-z', '--full-tree', commit],
    parse: (r) => {
      const out = new Map<string, string>();
      eachLsTreeBlob(r.stdoutBuffer, (mode, id, raw) => {
        const path = decodePath(raw);
        if (path !== null && keep(path, mode)) out.set(path, id);
      });
      return out;
    },
  };
}

/** `diff-tree -r --raw -z --no-renames` between two commits, as a path-map change. Pure parse. */
export function diffTreeMapOp(from: string, to: string, keep: KeepFile): GitOp<TreeDelta> {
  return {
    args: [
      'diff-tree',
      '-r',
      '--raw',
      '-z',
      '--no-abbrev',
      '--no-renames',
      '--no-ext-diff',
      '--no-textconv',
      from,
      to,
      '--',
    ],
    parse: (r) => {
      const set = new Map<string, string>();
      const removed: string[] = [];
      const parts: Buffer[] = [];
      const buf = r.stdoutBuffer;
      for (let pos = 0; pos < buf.length;) {
        const nul = buf.indexOf(0, pos);
        const end = nul < 0 ? buf.length : nul;
        parts.push(buf.subarray(pos, end));
        pos = end + 1;
      }
      for (let i = 0; i + 1 < parts.length; i += 2) {
        const [, newMode = '', , newId = ''] = (parts[i] ?? Buffer.alloc(0)).toString('latin1').slice(1).split(' ');
        const path = decodePath(parts[i + 1] ?? Buffer.alloc(0));
        if (path === null) continue;
        // A deletion (mode 000000) leaves the map whatever `keep` says of its mode, as the loose walk's does.
        if (newMode !== '000000' && keep(path, newMode)) set.set(path, newId);
        else removed.push(path);
      }
      return { kind: 'delta', set, removed };
    },
  };
}
