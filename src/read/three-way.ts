/**
 * A three-way merge of one file's versions through `git merge-file` (git 2.39 has no blob form, so the
 * three versions go to a private temp directory for the call and are removed after it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeFileOp } from '../git/commands/merge-file.js';
import type { GitRunner } from '../git/runner.js';

/**
 * `current` with the change from `base` to `other` applied, or null when they conflict (or are binary).
 * @example await mergeThreeWay(git, cwd, headBytes, commitBytes, parentBytes) // the revert of one file
 */
export async function mergeThreeWay(git: GitRunner, cwd: string, current: Buffer, base: Buffer, other: Buffer): Promise<Buffer | null> {
  const dir = mkdtempSync(join(tmpdir(), 'gitmem-merge-'));
  try {
    const paths = ['current', 'base', 'other'].map((n) => join(dir, n));
    [current, base, other].forEach((data, i) => writeFileSync(paths[i] as string, data, { mode: 0o600, flag: 'wx' }));
    const r = await git.exec(mergeFileOp(paths[0] as string, paths[1] as string, paths[2] as string), { cwd });
    return r.clean ? Buffer.from(r.merged) : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
