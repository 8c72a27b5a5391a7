/**
 * `git diff-tree -r --raw -M <commit> <tree>` for the usual shape of a background writer's merge — files
 * added or changed, nothing removed — from loose objects, without a git process. Anything else returns
 * undefined and the caller asks git: a removed path (git's rename detection decides what it is), a path that
 * changes kind (file, directory, link, submodule), a link or submodule at all, a name that is not UTF-8, an
 * object that is packed or does not verify, or too many changes. So this is a shortcut, never a rule.
 */
import { isUtf8 } from 'node:buffer';
import type { RawDiffEntry } from './commands/diff-raw.js';
import { readLooseObject } from './loose-object.js';
import { parseTree, type TreeItem } from './objects.js';

// Past this many changed paths git's diff is as fast, and the walk stays bounded.
const MAX_CHANGES = 2_000;
const REGULAR = new Set(['100644', '100755']);
const TREE = '40000';

class AskGit extends Error {}

function items(objectsDir: string, id: string | undefined): TreeItem[] {
  if (id === undefined) return [];
  const obj = readLooseObject(objectsDir, id);
  if (obj?.type !== 'tree') throw new AskGit();
  return parseTree(obj.data, id.length / 2);
}

function nameOf(item: TreeItem): string {
  const raw = item.raw ?? Buffer.from(item.name);
  if (!isUtf8(raw)) throw new AskGit();
  return raw.toString('utf8');
}

function compare(
  objectsDir: string,
  prefix: string,
  fromId: string | undefined,
  toId: string,
  out: RawDiffEntry[],
): void {
  const before = new Map(items(objectsDir, fromId).map((i) => [nameOf(i), i]));
  const after = items(objectsDir, toId);
  const names = new Set<string>();
  for (const item of after) {
    const name = nameOf(item);
    names.add(name);
    const old = before.get(name);
    if (old && old.id === item.id && old.mode === item.mode) continue;
    const path = `${prefix}${name}`;
    if (item.mode === TREE && (old === undefined || old.mode === TREE))
      compare(objectsDir, `${path}/`, old?.id, item.id, out);
    else if (REGULAR.has(item.mode) && (old === undefined || REGULAR.has(old.mode))) {
      const zero = '0'.repeat(item.id.length);
      out.push({
        status: old ? 'M' : 'A',
        oldMode: old?.mode ?? '000000',
        newMode: item.mode,
        oldId: old?.id ?? zero,
        newId: item.id,
        path,
      });
    } else throw new AskGit();
    if (out.length > MAX_CHANGES) throw new AskGit();
  }
  for (const name of before.keys()) if (!names.has(name)) throw new AskGit();
}

/**
 * The raw diff from commit `from` to tree `to`, in git's order, or undefined when git must be asked.
 * @example diffLooseRaw('/mem/.git/objects', head, tree) // [{ status: 'A', newMode: '100644', path: 'notes/a.md', … }]
 */
export function diffLooseRaw(objectsDir: string, from: string, to: string): RawDiffEntry[] | undefined {
  try {
    const commit = readLooseObject(objectsDir, from);
    const root =
      commit?.type === 'commit'
        ? /^tree ([0-9a-f]{40}|[0-9a-f]{64})\n/.exec(commit.data.toString('latin1'))?.[1]
        : undefined;
    if (root === undefined) return undefined;
    const out: RawDiffEntry[] = [];
    if (root !== to) compare(objectsDir, '', root, to, out);
    return out;
  } catch (err) {
    if (err instanceof AskGit) return undefined;
    throw err;
  }
}
