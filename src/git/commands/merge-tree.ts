/**
 * `git merge-tree --write-tree -z` as a value: the merged tree, the conflicted paths with their stages, and
 * git's messages (which say what kind of conflict each path has).
 */
import type { GitOp } from '../runner.js';

/** One conflicted path at one stage (1 base, 2 ours, 3 theirs). */
export interface MergeTreeStage {
  mode: string;
  id: string;
  stage: number;
  path: string;
}

/** One of git's messages: the paths it is about, its type (`Auto-merging`, `CONFLICT (contents)`, …), its text. */
export interface MergeTreeMessage {
  paths: string[];
  type: string;
  message: string;
}

export interface MergeTreeResult {
  clean: boolean;
  tree: string;
  stages: MergeTreeStage[];
  messages: MergeTreeMessage[];
}

/**
 * Run with this config, a merge-tree merges markdown with git's own line merge even where the repository
 * names gitmem's merge driver for `*.md`: the caller merges what still conflicts in-process, without a Node
 * process per file.
 */
export const LINE_MERGE_FOR_MARKDOWN = ['merge.gitmem.driver=git merge-file --marker-size=%L %A %O %B'];

/**
 * Parses `merge-tree --write-tree -z` output (exit 1: with conflicts). Pure.
 * @example parseMergeTreeOutput('t\0100644 b 2\ta.md\0\0001\0a.md\0CONFLICT (contents)\0…\0', false).stages[0].path === 'a.md'
 */
export function parseMergeTreeOutput(stdout: string, clean: boolean): MergeTreeResult {
  const fields = stdout.split('\0');
  const tree = (fields[0] ?? '').trim();
  const out: MergeTreeResult = { clean, tree, stages: [], messages: [] };
  if (clean) return out;
  let i = 1;
  for (; i < fields.length && fields[i] !== ''; i++) {
    const field = fields[i] as string;
    const tab = field.indexOf('\t');
    const [mode = '', id = '', stage = ''] = field.slice(0, tab).split(' ');
    out.stages.push({ mode, id, stage: Number(stage), path: field.slice(tab + 1) });
  }
  for (i++; i < fields.length;) {
    const count = Number(fields[i]);
    if (!Number.isInteger(count) || count < 0 || fields[i] === '') break;
    const paths = fields.slice(i + 1, i + 1 + count);
    out.messages.push({ paths, type: fields[i + 1 + count] ?? '', message: fields[i + 2 + count] ?? '' });
    i += count + 3;
  }
  return out;
}

/**
 * Merges `theirs` into `ours` in the object store (nothing else is touched).
 * @example await git.exec(mergeTreeOp(head, tip), { cwd, config: LINE_MERGE_FOR_MARKDOWN })
 */
export function mergeTreeOp(ours: string, theirs: string): GitOp<MergeTreeResult> {
  return {
    args: ['merge-tree', '--write-tree', '-z', ours, theirs],
    okExitCodes: [1],
    parse: (r) => parseMergeTreeOutput(r.stdout, r.exitCode === 0),
  };
}
