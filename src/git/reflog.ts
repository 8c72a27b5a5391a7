/**
 * The last entries of a branch's reflog, read from the git dir (no process): how the branch got where it
 * is (`commit: …`, `merge refs/remotes/origin/main: Fast-forward`, `rebase (finish): …`, a merge's
 * subject). Only plain files are read; anything unusual is an empty answer and callers decide without it.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

export interface ReflogEntry {
  old: string;
  new: string;
  email: string;
  /** Seconds since the epoch. */
  time: number;
  message: string;
}

/** How much of a reflog's end is read: far more than the moves between two looks of a watcher. */
const TAIL_BYTES = 64 * 1024;

/**
 * Parses reflog lines (`<old> <new> <name> <<email>> <time> <tz>\t<message>`); a torn first line is skipped. Pure.
 * @example parseReflog('0000… e6a8… Ann <a@x> 1700000000 +0000\tcommit: why\n')[0].message // 'commit: why'
 */
export function parseReflog(text: string): ReflogEntry[] {
  const out: ReflogEntry[] = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) .*<([^>]*)> (\d+) [+-]\d{4}(?:\t(.*))?$/.exec(line);
    if (m)
      out.push({
        old: m[1] as string,
        new: m[2] as string,
        email: m[3] as string,
        time: Number(m[4]),
        message: m[5] ?? '',
      });
  }
  return out;
}

/**
 * The last entries of `refname`'s reflog in `gitDir`, oldest first; [] when there is none or it is no
 * plain file.
 * @example readReflogTail('/mem/.git', 'refs/heads/main').at(-1)?.message
 */
export function readReflogTail(gitDir: string, refname: string): ReflogEntry[] {
  if (!/^refs\/[\w./-]+$/.test(refname) || refname.includes('..')) return [];
  let fd: number | undefined;
  try {
    fd = openSync(join(gitDir, 'logs', refname), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile()) return [];
    const length = Math.min(st.size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    const read = readSync(fd, buf, 0, length, st.size - length);
    return parseReflog(buf.subarray(0, read).toString('utf8'));
  } catch {
    return [];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
