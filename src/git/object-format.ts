/**
 * Which hash names a repository's objects: SHA-1 (git's default so far) or SHA-256 (`git init
 * --object-format=sha256`, `GIT_DEFAULT_HASH=sha256`). The object writer must use the repository's own
 * format, or it stores objects git calls corrupt. Read from the repository's config file
 * (`extensions.objectformat`, honoured from `core.repositoryformatversion` 1 on, as git does), once per
 * repository and again only when that file changes; no git process.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import { configValue } from './config-text.js';

export type ObjectFormat = 'sha1' | 'sha256';

/** Hex digits of an object id, per format. */
const HEX_LENGTH: Readonly<Record<ObjectFormat, number>> = Object.freeze({ sha1: 40, sha256: 64 });

/** A full object id of either format. */
export const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The format an object id belongs to, by its length; undefined for anything that is not a full id.
 * @example formatOfId('0'.repeat(64)) === 'sha256'
 */
export function formatOfId(id: string): ObjectFormat | undefined {
  if (!OBJECT_ID.test(id)) return undefined;
  return id.length === HEX_LENGTH.sha256 ? 'sha256' : 'sha1';
}

/**
 * The all-zero id of a format (what git's plumbing takes for "no object").
 * @example zeroId('sha1') === '0'.repeat(40)
 */
export function zeroId(format: ObjectFormat): string {
  return '0'.repeat(HEX_LENGTH[format]);
}

/**
 * The object format a repository config text declares. Pure. Throws REPO_UNSUPPORTED for a format gitmem
 * cannot write (git itself refuses such a repository too).
 * @example objectFormatFromConfig('[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = sha256\n') === 'sha256'
 */
export function objectFormatFromConfig(text: string): ObjectFormat {
  // `[extensions "x"]` is another section: only the bare section names the repository's extensions.
  const version = Number(configValue(text, 'core', 'repositoryformatversion') ?? '0') || 0;
  const declared = configValue(text, 'extensions', 'objectformat')?.toLowerCase();
  if (version < 1 || declared === undefined || declared === 'sha1') return 'sha1';
  if (declared === 'sha256') return 'sha256';
  throw new MemoryError(
    'REPO_UNSUPPORTED',
    `the repository's object format '${declared}' is not one gitmem can write (sha1, sha256)`,
    { data: { objectFormat: declared } },
  );
}

/**
 * The object format the remote advertises (`object-format=` capability, in protocol v2 and v0 alike; absent
 * means SHA-1), read from git's packet trace of an `ls-remote`. Pure.
 * @example advertisedObjectFormat('packet:          git< object-format=sha256\n') === 'sha256'
 */
export function advertisedObjectFormat(trace: string): string {
  return /^.*packet:\s*\S+< .*?\bobject-format=([a-z0-9]+)/m.exec(trace)?.[1] ?? 'sha1';
}

const cache = new Map<string, { stamp: string; format: ObjectFormat }>();

/**
 * The object format of the repository whose common git dir is `commonDir` (a missing config means SHA-1,
 * as for git). Cached until the config file changes.
 * @example repoObjectFormat('/mem/.git') === 'sha1'
 */
export function repoObjectFormat(commonDir: string): ObjectFormat {
  const file = join(commonDir, 'config');
  let stamp: string;
  try {
    const s = statSync(file, { bigint: true });
    stamp = `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return 'sha1';
  }
  const hit = cache.get(commonDir);
  if (hit?.stamp === stamp) return hit.format;
  const format = objectFormatFromConfig(readFileSync(file, 'utf8'));
  cache.set(commonDir, { stamp, format });
  return format;
}
