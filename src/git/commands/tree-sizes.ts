/**
 * `git ls-tree -r -l` as a value: every entry of a commit's tree with its blob size, in one spawn, so a
 * listing, a view of a directory or a token count needs no blob reads.
 */
import type { GitOp } from '../runner.js';

export interface SizedTreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  id: string;
  /** Bytes (0 for anything but a blob). */
  size: number;
  path: string;
}

/**
 * Parses `ls-tree -r -l -z` output (`<mode> <type> <id> <size padded>\t<path>\0`). Pure.
 * @example parseSizedTree('100644 blob 45b9…     3\tc.md\0')[0] // { mode: '100644', size: 3, path: 'c.md', … }
 */
export function parseSizedTree(stdout: string): SizedTreeEntry[] {
  const out: SizedTreeEntry[] = [];
  for (const line of stdout.split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', type = 'blob', id = '', size = '0'] = line.slice(0, tab).split(/ +/);
    out.push({ mode, type: type as SizedTreeEntry['type'], id, size: Number(size) || 0, path: line.slice(tab + 1) });
  }
  return out;
}

/** Every file of `commit` (recursive, whole tree), with sizes. */
export function lsTreeSizedOp(commit: string): GitOp<SizedTreeEntry[]> {
  return { args: ['ls-tree', '-r', '-l', '-z', '--full-tree', commit], parse: (r) => parseSizedTree(r.stdout) };
}
