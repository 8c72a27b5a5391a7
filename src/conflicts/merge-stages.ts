/**
 * What merging a kept branch into main would give, as values: `git merge-tree --write-tree` (no work tree,
 * no index) → the merged tree plus, per conflicted path, the blob of each side. The resolvers decide those
 * paths; everything else is git's own clean merge.
 */
import type { GitOp } from '../git/runner.js';

/** One side of a conflicted path: stage 1 = base, 2 = ours (main), 3 = theirs (the kept branch). */
export interface StageEntry {
  mode: string;
  oid: string;
}

export interface ConflictedPath {
  path: string;
  base?: StageEntry;
  ours?: StageEntry;
  theirs?: StageEntry;
}

export interface MergeStages {
  /** The merged tree (conflicted text files hold conflict markers). */
  tree: string;
  clean: boolean;
  conflicts: ConflictedPath[];
}

const STAGE_KEY = { '1': 'base', '2': 'ours', '3': 'theirs' } as const;

/**
 * Parses `merge-tree --write-tree --no-messages -z` output: the tree, then `<mode> <oid> <stage>\t<path>`
 * records. Pure.
 * @example parseMergeStages('t\0100644 a 2\tf.md\0', 1).conflicts // [{ path: 'f.md', ours: { mode: '100644', oid: 'a' } }]
 */
export function parseMergeStages(stdout: string, exitCode: number): MergeStages {
  const [tree = '', ...records] = stdout.split('\0');
  const byPath = new Map<string, ConflictedPath>();
  for (const record of records) {
    const m = /^(\d{6}) ([0-9a-f]{40,64}) ([123])\t(.+)$/s.exec(record);
    if (!m) continue;
    const [, mode = '', oid = '', stage = '1', path = ''] = m;
    const entry = byPath.get(path) ?? { path };
    entry[STAGE_KEY[stage as keyof typeof STAGE_KEY]] = { mode, oid };
    byPath.set(path, entry);
  }
  return { tree: tree.trim(), clean: exitCode === 0, conflicts: [...byPath.values()] };
}

/**
 * The merge of `theirs` into `ours`, computed in the object store.
 * @example git.exec(mergeStagesOp(head, tip), { cwd })
 */
export function mergeStagesOp(ours: string, theirs: string): GitOp<MergeStages> {
  return {
    args: ['merge-tree', '--write-tree', '--no-messages', '-z', '--end-of-options', ours, theirs],
    okExitCodes: [1],
    parse: (r) => parseMergeStages(r.stdout, r.exitCode),
  };
}
