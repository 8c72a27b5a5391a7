/**
 * The narrow git questions an incremental clean check asks (memfs/fsmonitor): the status of some paths,
 * whether the index still equals HEAD, and which paths two commits differ in. Each reads the index or two
 * trees, never the whole work tree.
 */
import type { GitOp } from '../runner.js';
import { lsTreeOp, type TreeEntry } from './plumbing.js';
import { parseStatusV2, statusOp, type RepoStatus } from './status.js';

/** Run the ops below with this environment: a path is a path, never a pathspec pattern or magic. */
export const LITERAL_PATHSPECS_ENV: Readonly<Record<string, string>> = { GIT_LITERAL_PATHSPECS: '1' };

/** The clean check's status (no ahead/behind, no renames), limited to `paths` (at least one). */
export function pathStatusOp(paths: readonly string[]): GitOp<RepoStatus> {
  if (paths.length === 0) throw new Error('pathStatusOp: no paths');
  return { args: [...statusOp('normal', false).args, '--', ...paths], parse: (r) => parseStatusV2(r.stdout) };
}

/** True when the index holds exactly `rev`'s tree (nothing staged, nothing unmerged). */
export function indexMatchesHeadOp(rev: string): GitOp<boolean> {
  return {
    args: ['diff-index', '--cached', '--quiet', '--ignore-submodules', rev, '--'],
    okExitCodes: [1],
    parse: (r) => r.exitCode === 0,
  };
}

/** The paths `from` and `to` differ in (both sides of a rename; every level of a changed directory). */
export function changedPathsOp(from: string, to: string): GitOp<string[]> {
  return {
    args: ['diff-tree', '-r', '-z', '--name-only', '--no-renames', '--no-commit-id', from, to, '--'],
    parse: (r) => r.stdout.split('\0').filter((p) => p !== ''),
  };
}

/** The files core.excludesFile / core.attributesFile name (their content decides what status shows). */
export function ruleFilesOp(): GitOp<string[]> {
  return {
    args: ['config', '-z', '--path', '--get-regexp', '^core\\.(excludesfile|attributesfile)$'],
    okExitCodes: [1],
    parse: (r) =>
      r.stdout
        .split('\0')
        .filter((rec) => rec !== '')
        .map((rec) => rec.slice(rec.indexOf('\n') + 1)),
  };
}

/** HEAD's entries at exactly these paths (a path naming a directory lists what is in it, one level). */
export function entriesAtOp(rev: string, paths: readonly string[]): GitOp<TreeEntry[]> {
  return { args: ['ls-tree', '-z', '--full-tree', rev, '--', ...paths], parse: lsTreeOp(rev).parse };
}
