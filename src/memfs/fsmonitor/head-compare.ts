/**
 * The cheap answer for a few changed paths: is each one, in the work tree, byte for byte and mode for mode
 * what HEAD's tree holds? One `ls-tree` of those paths (HEAD's trees along them, never the index) and a
 * hash of each file. Anything but a plain yes — a directory, a path HEAD lacks (untracked or ignored), other
 * bytes (perhaps only a line-ending conversion), another mode — is "ask git", which then decides exactly.
 */
import {
  closeSync,
  constants as fsc,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';
import { entriesAtOp } from '../../git/commands/status-paths.js';
import type { ObjectFormat } from '../../git/object-format.js';
import { objectId } from '../../git/objects.js';
import type { GitRunner } from '../../git/runner.js';

/** Files above this size are left to git (hashing them here would cost what the check saves). */
const MAX_HASHED_BYTES = 16 << 20;

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null; // gone (or a parent is no longer a directory)
  }
}

/** The file's bytes, read without following a link; null when it is not (any more) that regular file. */
function readRegular(path: string, st: Stats): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, fsc.O_RDONLY | fsc.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const now = fstatSync(fd);
    if (!now.isFile() || now.ino !== st.ino || now.dev !== st.dev) return null;
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

interface HeadEntry {
  mode: string;
  type: string;
  id: string;
}

function sameAsHead(abs: string, e: HeadEntry | undefined, format: ObjectFormat): boolean | 'ask git' {
  const st = lstatOrNull(abs);
  if (st === null) return e === undefined; // a tracked file deleted is dirty; a temporary file gone is nothing
  if (e === undefined || e.type !== 'blob' || st.isDirectory() || st.size > MAX_HASHED_BYTES) return 'ask git';
  let bytes: Buffer | null;
  if (st.isSymbolicLink()) bytes = e.mode === '120000' ? Buffer.from(readlinkSync(abs, { encoding: 'buffer' })) : null;
  else if (st.isFile())
    bytes = e.mode === ((st.mode & 0o100) !== 0 ? '100755' : '100644') ? readRegular(abs, st) : null;
  else bytes = null;
  if (bytes === null) return 'ask git';
  return objectId('blob', bytes, format) === e.id || 'ask git';
}

/**
 * True when every path matches HEAD; false when one certainly does not (a tracked file deleted);
 * 'ask git' when this cheap look cannot tell. Paths are repo-relative; git sees them literally.
 */
export async function matchesHead(
  git: GitRunner,
  memoryDir: string,
  head: string,
  paths: readonly string[],
  format: ObjectFormat,
  env: Record<string, string>,
): Promise<boolean | 'ask git'> {
  if (paths.length === 0) return true;
  const listed = await git.exec(entriesAtOp(head, paths), { cwd: memoryDir, env });
  const asked = new Set(paths);
  const entries = new Map<string, HeadEntry>();
  for (const t of listed) {
    if (!asked.has(t.path)) return 'ask git'; // a path HEAD holds as a directory: ls-tree listed what is in it
    entries.set(t.path, t);
  }
  let answer: boolean | 'ask git' = true;
  for (const p of paths) {
    const one = sameAsHead(join(memoryDir, p), entries.get(p), format);
    if (one === false) return false;
    if (one === 'ask git') answer = 'ask git';
  }
  return answer;
}
