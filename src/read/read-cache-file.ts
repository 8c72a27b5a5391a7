/**
 * The prompt's read cache on disk: one file under the git dir (`gitmem/read-cache`) holding the path map of
 * the last commit read and, per blob id, what the prompt and the tree need of it. Derived from git objects
 * only, so it is safe to delete. Never trusted blindly: a checksum covers the content, so a truncated or
 * corrupted file reads as absent (and is rebuilt); it is replaced atomically (temp file + rename), and opened
 * without following a link and without blocking on a planted FIFO.
 */
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type * as Crypto from 'node:crypto';
import type { MarkdownSummary } from '../blocks/file-summary.js';
import { OBJECT_ID } from '../git/object-format.js';

/** One step a snapshot moved by: from commit `from` to the next one, the paths the diff set or removed. */
export interface SnapshotMove {
  from: string;
  paths: readonly string[];
}

/** A commit's files with what the prompt needs of each blob (content-addressed). */
export interface ReadSnapshot {
  commit: string;
  /** Every blob path of the commit → blob id. */
  files: Map<string, string>;
  /** Blob id → summary, for the blobs of markdown paths. */
  summaries: Map<string, MarkdownSummary>;
  /** Blob id → text, for the blobs of `system/` markdown paths (shown in full). */
  texts: Map<string, string>;
  /**
   * The last moves that led here in this process (oldest first; never saved): a view kept at an earlier
   * commit of the chain catches up by these paths alone.
   */
  moves?: readonly SnapshotMove[];
}

const MAGIC = 'gitmem-read-cache 1';
// Past this the file is not read (a repository that large pays the cold path, never an unbounded read).
const MAX_BYTES = 256 * 1024 * 1024;
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

const sha256 = (text: string): string =>
  (process.getBuiltinModule('node:crypto') as typeof Crypto).createHash('sha256').update(text).digest('hex');

/** Where the cache of the repository whose common git dir is `commonDir` lives. */
export function readCachePath(commonDir: string): string {
  return join(commonDir, 'gitmem', 'read-cache');
}

function readBounded(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';

function summaryFrom(v: unknown): MarkdownSummary | undefined {
  if (!Array.isArray(v) || !isString(v[0])) return undefined;
  const s: MarkdownSummary = { description: v[0] };
  if (isString(v[1])) s.name = v[1];
  if (isString(v[2])) s.error = v[2];
  return s;
}

/** The snapshot a parsed payload holds, or undefined for anything but the exact shape written. */
function decode(payload: unknown): ReadSnapshot | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const p = payload as Record<string, unknown>;
  const { commit, paths, ids, summaries, texts } = p;
  if (
    !isString(commit) ||
    !OBJECT_ID.test(commit) ||
    !Array.isArray(paths) ||
    !Array.isArray(ids) ||
    paths.length !== ids.length
  )
    return undefined;
  if (!Array.isArray(summaries) || !Array.isArray(texts)) return undefined;
  const snap: ReadSnapshot = { commit, files: new Map(), summaries: new Map(), texts: new Map() };
  for (let i = 0; i < paths.length; i++) {
    const [path, id] = [paths[i], ids[i]];
    if (!isString(path) || !isString(id) || !OBJECT_ID.test(id)) return undefined;
    snap.files.set(path, id);
  }
  for (const entry of summaries) {
    const s = Array.isArray(entry) ? summaryFrom(entry.slice(1)) : undefined;
    if (s === undefined || !isString(entry[0])) return undefined;
    snap.summaries.set(entry[0], s);
  }
  for (const entry of texts) {
    if (!Array.isArray(entry) || !isString(entry[0]) || !isString(entry[1])) return undefined;
    snap.texts.set(entry[0], entry[1]);
  }
  return snap;
}

/**
 * The cached snapshot, or undefined when there is none or it does not verify.
 * @example loadReadCache('/mem/.git')?.commit // 'e6a8099…'
 */
export function loadReadCache(commonDir: string): ReadSnapshot | undefined {
  const text = readBounded(readCachePath(commonDir));
  if (text === undefined) return undefined;
  const nl = text.indexOf('\n');
  const header = nl < 0 ? '' : text.slice(0, nl);
  const body = text.slice(nl + 1);
  if (header !== `${MAGIC} ${sha256(body)}`) return undefined;
  try {
    return decode(JSON.parse(body));
  } catch {
    return undefined;
  }
}

/**
 * Replaces the cache with `snap` (atomically); best effort: a read-only git dir simply keeps no cache.
 * @example saveReadCache('/mem/.git', snapshot)
 */
export function saveReadCache(commonDir: string, snap: ReadSnapshot): void {
  const paths = [...snap.files.keys()];
  const ids = [...snap.files.values()];
  const used = new Set(ids); // the maps may hold blobs of earlier commits: only this commit's are kept
  const body = JSON.stringify({
    commit: snap.commit,
    paths,
    ids,
    summaries: [...snap.summaries]
      .filter(([id]) => used.has(id))
      .map(([id, s]) => [id, s.description, s.name ?? null, s.error ?? null]),
    texts: [...snap.texts].filter(([id]) => used.has(id)),
  });
  const target = readCachePath(commonDir);
  const tmp = `${target}.${process.pid}.${Math.random().toString(16).slice(2)}.tmp`;
  try {
    mkdirSync(join(commonDir, 'gitmem'), { recursive: true });
    writeFileSync(tmp, `${MAGIC} ${sha256(body)}\n${body}`, { flag: 'wx', mode: 0o644 });
    renameSync(tmp, target);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // never created
    }
  }
}
