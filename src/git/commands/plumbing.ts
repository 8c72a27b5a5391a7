/**
 * Plumbing ops used to commit without rescanning the work tree (the fast write path) and to read a
 * revision without a checkout (prompt compilation).
 */
import { MemoryError } from '../../errors.js';
import type { GitOp, GitResult } from '../runner.js';

/** update-index skips a path it refuses (e.g. with a `.git` component) with this warning and exits 0. */
function refuseIgnoredPaths(r: GitResult): void {
  const ignored = [...r.stderr.matchAll(/^Ignoring path (.*)$/gm)].map((m) => m[1] ?? '');
  if (ignored.length > 0) {
    throw new MemoryError(
      'INVALID_PATH',
      `git refused to stage ${ignored.join(', ')} (update-index: "Ignoring path")`,
      { data: { paths: ignored } },
    );
  }
}

/**
 * An index entry to set: a blob with its mode, or `mode: null` to remove the path (`id` then the all-zero
 * id of the repository's format; SHA-1's when absent).
 */
export interface IndexInfoEntry {
  path: string;
  mode: string | null;
  id?: string;
}

/**
 * Sets exactly these index entries from known blob ids (`--index-info`): the work tree is not read, so
 * nothing done to it meanwhile (a directory swapped for a link) can change what is staged.
 */
export function updateIndexInfoOp(entries: readonly IndexInfoEntry[]): GitOp<void> {
  const line = (e: IndexInfoEntry): string =>
    e.mode === null ? `0 ${e.id ?? '0'.repeat(40)}\t${e.path}\0` : `${e.mode} ${e.id ?? ''}\t${e.path}\0`;
  return { args: ['update-index', '-z', '--index-info'], input: entries.map(line).join(''), parse: refuseIgnoredPaths };
}

/** Moves `ref` to `next` only if it still points at `expected` (null = must not exist). */
export function updateRefOp(ref: string, next: string, expected: string | null, reason: string): GitOp<void> {
  const oldValue = expected ?? '0'.repeat(next.length);
  return { args: ['update-ref', '-m', reason, ref, next, oldValue], parse: () => undefined };
}

export interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  id: string;
  path: string;
}

/** Lists every file at `rev` recursively. */
export function lsTreeOp(rev: string): GitOp<TreeEntry[]> {
  return {
    args: ['ls-tree', '-r', '-z', '--full-tree', rev],
    parse: (r) =>
      r.stdout
        .split('\0')
        .filter((l) => l !== '')
        .map((line) => {
          const tab = line.indexOf('\t');
          const [mode, type, id] = line.slice(0, tab).split(' ');
          return {
            mode: mode ?? '',
            type: (type ?? 'blob') as TreeEntry['type'],
            id: id ?? '',
            path: line.slice(tab + 1),
          };
        }),
  };
}

/** Resolves a revision to a commit id, or null when it does not exist. */
export function revParseOp(rev: string): GitOp<string | null> {
  return {
    args: ['rev-parse', '--verify', '-q', `${rev}^{commit}`],
    okExitCodes: [1],
    parse: (r) => (r.exitCode === 0 ? r.stdout.trim() : null),
  };
}

export interface RawObject {
  id: string;
  type: string;
  data: Buffer;
}

/** Reads many objects in one spawn: raw bytes and types, null where missing (trees are binary). */
export function catFileBatchRawOp(specs: readonly string[]): GitOp<Array<RawObject | null>> {
  return {
    args: ['cat-file', '--batch'],
    input: specs.map((s) => `${s}\n`).join(''),
    parse: (r) => {
      const buf = r.stdoutBuffer;
      const out: Array<RawObject | null> = [];
      let pos = 0;
      for (let i = 0; i < specs.length && pos < buf.length; i++) {
        const nl = buf.indexOf(10, pos);
        const header = buf.subarray(pos, nl).toString('utf8');
        pos = nl + 1;
        const [id = '', type = '', size = ''] = header.split(' ');
        if (type === 'missing' || header.endsWith(' missing') || header.endsWith(' ambiguous')) {
          out.push(null);
          continue;
        }
        const n = Number(size);
        out.push({ id, type, data: buf.subarray(pos, pos + n) });
        pos += n + 1;
      }
      return out;
    },
  };
}

/** Like {@link catFileBatchRawOp}, contents as UTF-8 text (memory files). */
export function catFileBatchOp(ids: readonly string[]): GitOp<Array<string | null>> {
  const raw = catFileBatchRawOp(ids);
  return { ...raw, parse: (r) => raw.parse(r).map((o) => (o === null ? null : o.data.toString('utf8'))) };
}
