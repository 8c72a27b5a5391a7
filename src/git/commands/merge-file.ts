/**
 * `git merge-file -p` as a value: a three-way merge of one file's versions (current, base, other), given
 * as paths of files holding them. Exit 0 = clean; a positive exit is the number of conflicts; a binary
 * file cannot be merged.
 */
import type { GitOp } from '../runner.js';

export interface MergeFileResult {
  clean: boolean;
  /** The merged bytes (conflict markers included when not clean). */
  merged: Buffer;
}

/**
 * Merges the change from `base` to `other` into `current`.
 * @example git.exec(mergeFileOp('/t/current', '/t/base', '/t/other'), { cwd: '/t' })
 */
export function mergeFileOp(current: string, base: string, other: string): GitOp<MergeFileResult> {
  return {
    args: ['merge-file', '-p', '-q', '--', current, base, other],
    okExitCodes: Array.from({ length: 255 }, (_, i) => i + 1),
    parse: (r) => ({ clean: r.exitCode === 0, merged: r.stdoutBuffer }),
  };
}
