/**
 * Names and creation of the refs sync leaves behind so nothing is lost: `refs/gitmem/backup/<time>`
 * before main is moved by a recovery, `gitmem/conflict/<time>` branches that keep local commits.
 */
import type { GitRunner } from '../git/runner.js';
import { GitCommandError } from '../git/runner.js';

export const BACKUP_REF_PREFIX = 'refs/gitmem/backup/';
export const CONFLICT_BRANCH_PREFIX = 'gitmem/conflict/';

/**
 * A ref-safe UTC timestamp with milliseconds.
 * @example timeStamp(new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 6))) === '20250102T030405.006Z'
 */
export function timeStamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '');
}

/**
 * Creates `<prefix><stamp>` pointing at `sha`, never overwriting: on a name clash it appends `-2`, `-3`…
 * (`update-ref <ref> <sha> ''` refuses to replace an existing ref, atomically). Returns the ref created.
 * @example await createUniqueRef(git, dir, 'refs/gitmem/backup/', clock(), head)
 */
export async function createUniqueRef(
  git: GitRunner,
  cwd: string,
  prefix: string,
  date: Date,
  sha: string,
): Promise<string> {
  const base = `${prefix}${timeStamp(date)}`;
  for (let n = 1; n <= 50; n++) {
    const ref = n === 1 ? base : `${base}-${n}`;
    try {
      await git.run(['update-ref', '-m', 'gitmem: keep commits', ref, sha, ''], { cwd });
      return ref;
    } catch (err) {
      if (!(err instanceof GitCommandError)) throw err;
    }
  }
  throw new GitCommandError('GIT_FAILED', `could not create a unique ref under ${prefix}`, {
    argv: ['update-ref', base],
    stdout: '',
    stderr: '',
    exitCode: null,
    kind: 'other',
  });
}
