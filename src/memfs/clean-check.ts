/**
 * The clean-for-write check: an automated write refuses to mix its commit with someone's uncommitted
 * work. Also yields HEAD and the branch, so the write path needs no extra git call for them.
 */
import { MemoryError } from '../errors.js';
import { statusOp, type RepoStatus } from '../git/commands/status.js';
import type { GitRunner } from '../git/runner.js';
import { diagnoseEncoding } from './read-text.js';
import { RepoFs } from './repo-fs.js';
import type { WatchedCleanCheck } from './fsmonitor/watched-check.js';

/** How much of a dirty file the diagnosis reads (a hostile work tree may hold anything). */
const DIAGNOSE_BYTES = 1 << 20;

/**
 * Encoding problems among dirty markdown files, e.g. `system/x.md has a UTF-16LE BOM`. Files are read
 * without following links, and only their first MiB.
 */
function diagnoseDirty(memoryDir: string, status: RepoStatus): string[] {
  const issues: string[] = [];
  const fs = new RepoFs(memoryDir);
  try {
    for (const e of status.entries) {
      if (e.code.includes('D') || !e.path.endsWith('.md')) continue;
      let bytes: Buffer | null;
      try {
        bytes = fs.readFile(e.path, DIAGNOSE_BYTES);
      } catch {
        continue; // a link, a directory, anything but a file: nothing to diagnose
      }
      const problem = bytes === null ? null : diagnoseEncoding(bytes);
      if (problem) issues.push(`${e.path} ${problem}`);
    }
  } finally {
    fs.close();
  }
  return issues;
}

/**
 * Returns the repo status when clean; throws REPO_DIRTY (naming paths and encoding issues) otherwise.
 * With a watched check (fsmonitor/), a check after the first proven-clean one asks git only about what
 * changed since; whenever the watcher cannot vouch for that, and for every dirty answer, it is this walk.
 * @example const { head } = await assertCleanForWrite(git, '/m')
 */
export async function assertCleanForWrite(
  git: GitRunner,
  memoryDir: string,
  watched?: WatchedCleanCheck,
): Promise<RepoStatus> {
  return watched ? watched.check(git, () => fullCleanCheck(git, memoryDir)) : fullCleanCheck(git, memoryDir);
}

/** The full check: one `git status` over the whole work tree. */
async function fullCleanCheck(git: GitRunner, memoryDir: string): Promise<RepoStatus> {
  // With git's optional locks on purpose: the status writes back the index it refreshed, which is what
  // settles racily-clean entries; without it every later check re-reads those files (slow at 10,000 files).
  const quick = await git.exec(statusOp('normal', false), { cwd: memoryDir });
  if (quick.entries.length === 0) return quick;
  // Dirty: the error path may spend a second call to name every file (untracked directories expanded).
  const status = await git.exec(statusOp('all'), { cwd: memoryDir });
  const paths = status.entries.map((e) => e.path);
  const issues = diagnoseDirty(memoryDir, status);
  const shown = paths.slice(0, 10).join(', ') + (paths.length > 10 ? `, and ${paths.length - 10} more` : '');
  let message = `Memory repo has uncommitted changes (${shown}). Commit, discard, or sync them before using memory tools.`;
  if (issues.length > 0) message += ` Dirty markdown encoding issue(s): ${issues.join('; ')}.`;
  throw new MemoryError('REPO_DIRTY', message, { data: { paths, encodingIssues: issues } });
}
