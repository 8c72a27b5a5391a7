/**
 * Plumbing ops used to commit without rescanning the work tree (the fast write path) and to read a
 * revision without a checkout (prompt compilation).
 */
import type { GitOp } from '../runner.js';

/** Stages exactly these paths from the work tree (adds, modifies, removes deleted ones). */
export function updateIndexOp(paths: readonly string[]): GitOp<void> {
  return {
    args: ['update-index', '--add', '--remove', '-z', '--stdin'],
    input: paths.map((p) => `${p}\0`).join(''),
    parse: () => undefined,
  };
}

/** Writes the index as a tree; returns its id. */
export function writeTreeOp(): GitOp<string> {
  return { args: ['write-tree'], parse: (r) => r.stdout.trim() };
}

/** Creates a commit object for `tree` with the given parents; returns its id. Message goes via stdin. */
export function commitTreeOp(tree: string, parents: readonly string[], message: string): GitOp<string> {
  const args = ['commit-tree', tree];
  for (const p of parents) args.push('-p', p);
  return { args, input: message.endsWith('\n') ? message : `${message}\n`, parse: (r) => r.stdout.trim() };
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
          return { mode: mode ?? '', type: (type ?? 'blob') as TreeEntry['type'], id: id ?? '', path: line.slice(tab + 1) };
        }),
  };
}

/** Reads many objects in one spawn; returns their contents (as UTF-8) in request order, null if missing. */
export function catFileBatchOp(ids: readonly string[]): GitOp<Array<string | null>> {
  return {
    args: ['cat-file', '--batch'],
    input: ids.map((id) => `${id}\n`).join(''),
    parse: (r) => parseBatch(r.stdoutBuffer, ids.length),
  };
}

function parseBatch(buf: Buffer, count: number): Array<string | null> {
  const out: Array<string | null> = [];
  let pos = 0;
  for (let i = 0; i < count && pos < buf.length; i++) {
    const nl = buf.indexOf(10, pos);
    const header = buf.subarray(pos, nl).toString('utf8');
    pos = nl + 1;
    if (header.endsWith(' missing')) {
      out.push(null);
      continue;
    }
    const size = Number(header.split(' ')[2]);
    out.push(buf.subarray(pos, pos + size).toString('utf8'));
    pos += size + 1;
  }
  return out;
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

/** Like {@link catFileBatchOp} but keeps raw bytes and object types (trees are binary). */
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
