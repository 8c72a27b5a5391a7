/**
 * The merge driver git runs for memory markdown (`merge.gitmem.driver`, `*.md merge=gitmem` in
 * `.git/info/attributes`): a small shell script in gitmem's hooks directory. git's own line merge runs first,
 * in the shell, so a merge it can finish costs no Node start; only a conflict starts gitmem's markdown merge
 * (the first gitmem install of the hook's list whose driver entry exists), and without one the file keeps git's
 * conflict markers. Pure: the texts are plain functions of their inputs.
 */
import type { HookInstall } from './pre-commit-script.js';

/** The script's name in the hooks directory (not a hook name git knows, so git never runs it as one). */
export const MERGE_DRIVER_FILE = 'gitmem-merge-driver';

/** `merge.gitmem.name`, shown by git in some messages. */
export const MERGE_DRIVER_NAME = 'gitmem markdown merge';

/** The attributes gitmem keeps at the end of `.git/info/attributes` (later lines win over earlier ones and over a tree's .gitattributes). */
export const MERGE_ATTRIBUTES = [
  "# gitmem (managed, kept last): memory markdown merges with gitmem's driver, every other file with git's line",
  '# merge, whatever a .gitattributes in the memory says.',
  '* merge=text',
  '*.md merge=gitmem',
];

const HEADER = "# gitmem merge driver: git's line merge, then gitmem's markdown merge where that conflicts.";

function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The driver entry beside an install's pre-commit entry (bundled or not).
 * @example driverEntry('/opt/gitmem/dist/bin/pre-commit.cjs') === '/opt/gitmem/dist/bin/merge-driver.cjs'
 */
export function driverEntry(preCommitEntry: string): string {
  return preCommitEntry.endsWith('/pre-commit.cjs')
    ? `${preCommitEntry.slice(0, -'pre-commit.cjs'.length)}merge-driver.cjs`
    : preCommitEntry.replace(/pre-commit-main\.js$/, 'merge-driver-main.js');
}

/**
 * `merge.gitmem.driver`: the script with git's placeholders (git quotes the file names it substitutes).
 * @example driverCommand('/m/.git/hooks') === "'/m/.git/hooks/gitmem-merge-driver' %O %A %B %L %P"
 */
export function driverCommand(hooksDir: string): string {
  return `${q(`${hooksDir}/${MERGE_DRIVER_FILE}`)} %O %A %B %L %P`;
}

/**
 * The script text: each install on its own `gitmem_try` line, in the pre-commit hook's order.
 * @example mergeDriverScript([{ node: '/usr/bin/node', entry: '/opt/gitmem/dist/bin/pre-commit.cjs' }])
 */
export function mergeDriverScript(installs: readonly HookInstall[]): string {
  return [
    '#!/bin/sh',
    HEADER,
    '# Managed by gitmem; rewritten when stale, so local edits are lost. git runs it as: <this> %O %A %B %L %P',
    "# The result goes to %A: exit 0 merged, 1 conflict (then %A holds git's conflict markers, or stays ours).",
    'base=$1 ours=$2 theirs=$3 size=${4:-7} path=$5',
    'lines="$ours.gitmem-lines"',
    'git merge-file -p -q --marker-size="$size" -L ours -L base -L theirs "$ours" "$base" "$theirs" > "$lines"',
    'status=$?',
    'if [ "$status" -eq 0 ]; then mv -f "$lines" "$ours"; exit 0; fi',
    'if [ "$status" -gt 127 ]; then rm -f "$lines"; exit 1; fi',
    'gitmem_try() {',
    '  [ -f "$2" ] || return 0',
    '  if [ -x "$1" ]; then exec "$1" "$2" "$base" "$ours" "$theirs" "$path" "$lines"; fi',
    '  exec node "$2" "$base" "$ours" "$theirs" "$path" "$lines"',
    '}',
    ...installs.map((i) => `gitmem_try ${q(i.node)} ${q(driverEntry(i.entry))}`),
    'mv -f "$lines" "$ours"',
    'exit 1',
    '',
  ].join('\n');
}

/**
 * `.git/info/attributes` with gitmem's lines as its last ones (any earlier copy of them removed, other lines
 * kept in order). Returns the text unchanged when it already ends that way.
 * @example withMergeAttributes('*.png binary\n') === `*.png binary\n${MERGE_ATTRIBUTES.join('\n')}\n`
 */
export function withMergeAttributes(current: string | null): string {
  const block = `${MERGE_ATTRIBUTES.join('\n')}\n`;
  const text = current ?? '';
  if (text.endsWith(block) && (text.length === block.length || text.at(-block.length - 1) === '\n')) return text;
  const ours = new Set(MERGE_ATTRIBUTES);
  const kept = text.split('\n').filter((line) => !ours.has(line));
  while (kept.length > 0 && kept.at(-1) === '') kept.pop();
  return `${kept.length > 0 ? `${kept.join('\n')}\n` : ''}${block}`;
}
