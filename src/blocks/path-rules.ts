/**
 * The one rule for which repo-relative paths memory may hold. The memory tool checks its arguments with it
 * and the validator (tool, pre-commit hook, merges of background writers) checks every path in a commit, so
 * no writer can plant a name git itself would refuse, a `.git` look-alike, or a path too large to handle.
 */

/** Shape limits, stated in the tool schema too. */
export const PATH_LIMITS = Object.freeze({
  /** Bytes of UTF-8 in the whole repo-relative path. */
  maxPathBytes: 1024,
  /** Bytes of UTF-8 in one path component (the usual file-system limit). */
  maxSegmentBytes: 255,
  /** Components in one path. */
  maxDepth: 32,
});

// Code points HFS+ ignores when comparing names (git's is_hfs_dotgit), so `.g\u200cit` would be `.git` there.
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;
// C0 controls and DEL: valid in git, but they break every line-based reader of paths (and terminals).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * True when `segment` means `.git` to git or to a file system it may be checked out on: any case, with
 * trailing dots or spaces (NTFS), an NTFS stream suffix (`.git::$INDEX_ALLOCATION`), the 8.3 short name
 * `git~1`, or HFS+-ignorable code points inside.
 * @example isDotGitLike('.GIT.') === true; isDotGitLike('.github') === false
 */
export function isDotGitLike(segment: string): boolean {
  const folded = segment.replace(HFS_IGNORABLE, '').toLowerCase();
  const beforeStream = folded.split(':')[0] ?? '';
  const trimmed = beforeStream.replace(/[. ]+$/, '');
  return trimmed === '.git' || trimmed === 'git~1';
}

/**
 * Why a repo-relative path (`/`-separated, no leading `/`) may not be stored in memory, or null when it may.
 * Checks shape first (size, depth), so a hostile 50,000-segment path costs one split.
 * @example pathProblem('notes/a.md') === null; pathProblem('x/.Git/config') // "component '.Git' …"
 */
export function pathProblem(path: string): string | null {
  if (typeof path !== 'string' || path === '') return 'the path is empty';
  if (!path.isWellFormed()) return 'the path is not valid Unicode (lone surrogate)';
  const bytes = Buffer.byteLength(path, 'utf8');
  if (bytes > PATH_LIMITS.maxPathBytes) return `the path is ${bytes} bytes long (at most ${PATH_LIMITS.maxPathBytes})`;
  if (CONTROL.test(path)) return 'the path contains a control character (NUL, newline, tab, …)';
  if (path.includes('\\')) return 'the path contains a backslash (git refuses it; use /)';
  if (path.startsWith('/')) return 'the path is absolute';
  const segments = path.split('/');
  if (segments.length > PATH_LIMITS.maxDepth)
    return `the path has ${segments.length} components (at most ${PATH_LIMITS.maxDepth})`;
  for (const s of segments) {
    const problem = segmentProblem(s);
    if (problem) return problem;
  }
  return null;
}

function segmentProblem(s: string): string | null {
  if (s === '') return 'the path has an empty component (// or a trailing /)';
  if (s === '.' || s === '..') return `the path has a '${s}' component`;
  if (isDotGitLike(s)) return `component '${s}' names git's own directory`;
  const bytes = Buffer.byteLength(s, 'utf8');
  if (bytes > PATH_LIMITS.maxSegmentBytes)
    return `a component is ${bytes} bytes long (at most ${PATH_LIMITS.maxSegmentBytes})`;
  return null;
}
