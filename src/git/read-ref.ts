/**
 * Reads a ref's commit straight from the git dir (loose file, else packed-refs), so the read side (the prompt,
 * search, `read`, watch) and sync can learn where main and origin/main point without spawning git. It answers only when the answer is
 * plain; anything unusual (worktree, symref, reftable, unreadable) is `undefined` and callers ask git
 * (`rev-parse`). A fast path: entered through the seam (`objectReads`), so with the switch off it never answers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fastPath } from '../fast-paths.js';

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

function readText(path: string): string | null | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

/**
 * The commit `refname` (e.g. `refs/remotes/origin/main`) points at, or undefined when unsure or absent.
 * @example readRefQuick('/mem/.git', 'refs/heads/main') // 'e6a8099…'
 */
export function readRefQuick(gitDir: string, refname: string): string | undefined {
  return fastPath('objectReads', () => refFromFiles(gitDir, refname));
}

function refFromFiles(gitDir: string, refname: string): string | undefined {
  if (!/^refs\/[\w./-]+$/.test(refname) || refname.includes('..')) return undefined;
  if (existsSync(join(gitDir, 'commondir'))) return undefined; // a linked worktree: refs live elsewhere
  const loose = readText(join(gitDir, refname));
  if (loose === undefined) return undefined;
  if (loose !== null) {
    const oid = loose.trim();
    return OID.test(oid) ? oid : undefined;
  }
  const packed = readText(join(gitDir, 'packed-refs'));
  if (typeof packed !== 'string') return undefined;
  for (const line of packed.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1).trimEnd() === refname) {
      const oid = line.slice(0, space);
      return OID.test(oid) ? oid : undefined;
    }
  }
  return undefined;
}

/**
 * The commit HEAD points at when that is plain (a commit id, or `ref: refs/heads/<branch>` with the branch
 * readable), else undefined — callers then ask git.
 * @example readHeadQuick('/mem/.git') // 'e6a8099…'
 */
export function readHeadQuick(gitDir: string): string | undefined {
  return fastPath('objectReads', () => headFromFiles(gitDir));
}

/**
 * {@link readHeadQuick} outside the seam: only for code already inside another fast path (the work-tree
 * watcher's clean check, memfs/fsmonitor/), whose own entry the switch closes.
 */
export function headFromFiles(gitDir: string): string | undefined {
  const head = readText(join(gitDir, 'HEAD'))?.trim();
  if (head === undefined || head === null) return undefined;
  if (OID.test(head)) return head;
  const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
  return ref === undefined ? undefined : refFromFiles(gitDir, ref);
}
