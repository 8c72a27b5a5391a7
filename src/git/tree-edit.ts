/**
 * Builds the next commit's tree without the index: read only the trees along the changed paths from HEAD
 * (one `cat-file --batch`), swap in the new blobs, and write the changed trees bottom-up. Cost grows with the
 * number of changed paths, not with the size of the repository. Entries are identified by their exact bytes,
 * so siblings the write does not touch (even a name that is not UTF-8) are written back unchanged.
 */
import { catFileBatchRawOp, type IndexInfoEntry } from './commands/plumbing.js';
import { MemoryError } from '../errors.js';
import { zeroId } from './object-format.js';
import { nameBytes, parseTree, serializeTree, type ObjectBatch, type TreeItem } from './objects.js';
import type { GitRunner } from './runner.js';

/** HEAD and the trees (by directory, '' = root) that the changed paths pass through. */
export interface BaseTrees {
  head: string | null;
  trees: Map<string, TreeItem[]>;
}

/** A file's next content (null = delete). */
export interface TreeChange {
  file: string;
  content: Buffer | null;
}

const parentOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const nameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
/** A byte-exact key for a tree entry name (latin1 maps each byte to one code unit). */
const keyOfItem = (item: TreeItem): string => nameBytes(item).toString('latin1');
const keyOfName = (name: string): string => Buffer.from(name, 'utf8').toString('latin1');
/** Every directory (root included, as '') that contains one of `files`. Pure. */
function ancestorDirs(files: readonly string[]): string[] {
  const dirs = new Set<string>(['']);
  for (const f of files) for (let d = parentOf(f); d !== ''; d = parentOf(d)) dirs.add(d);
  return [...dirs];
}

/**
 * Reads HEAD and the trees along `files` in one git call.
 * @example const base = await readBaseTrees(git, memoryDir, ['notes/a.md'])
 */
export async function readBaseTrees(git: GitRunner, memoryDir: string, files: readonly string[]): Promise<BaseTrees> {
  const dirs = ancestorDirs(files);
  const specs = ['HEAD', ...dirs.map((d) => (d === '' ? 'HEAD^{tree}' : `HEAD:${d}`))];
  const objects = await git.exec(catFileBatchRawOp(specs), { cwd: memoryDir });
  const head = objects[0];
  const trees = new Map<string, TreeItem[]>();
  if (!head || head.type !== 'commit') return { head: null, trees };
  dirs.forEach((dir, i) => {
    const obj = objects[i + 1];
    if (obj && obj.type === 'tree') trees.set(dir, parseTree(obj.data, obj.id.length / 2));
  });
  return { head: head.id, trees };
}

/** What a new tree means for the index: the entries to set after the commit, and those it replaced. */
export interface BuiltTree {
  tree: string;
  /** Index entries matching the new commit for every changed path. */
  after: IndexInfoEntry[];
  /** The same paths as they were in the base (for undoing a staged index). */
  before: IndexInfoEntry[];
}

function refuse(path: string, why: string): never {
  throw new MemoryError('INVALID_PATH', `${path} ${why}`, { data: { path } });
}

const isBlobMode = (mode: string): boolean => mode === '100644' || mode === '100755';

/**
 * Adds the blobs and the changed trees for `changes` on top of `base` to `batch`; returns the new root tree
 * id and the index entries. A directory left empty disappears; an existing file keeps its mode (e.g.
 * executable). A change may only replace a regular file: putting a file where a directory, link or
 * submodule is, or a directory where a file is, is refused (nothing is stored yet).
 */
export function buildTree(batch: ObjectBatch, base: BaseTrees, changes: readonly TreeChange[]): BuiltTree {
  const working = new Map<string, Map<string, TreeItem>>();
  const dirOf = (dir: string): Map<string, TreeItem> => {
    let entries = working.get(dir);
    if (!entries) {
      entries = new Map((base.trees.get(dir) ?? []).map((e) => [keyOfItem(e), e]));
      working.set(dir, entries);
    }
    return entries;
  };
  const after: IndexInfoEntry[] = [];
  const before: IndexInfoEntry[] = [];
  const none = zeroId(batch.format); // update-index takes a removal as mode 0 with an all-zero id of the repo's length
  for (const c of changes) {
    const entries = dirOf(parentOf(c.file));
    const key = keyOfName(nameOf(c.file));
    const previous = entries.get(key);
    if (previous && !isBlobMode(previous.mode))
      refuse(c.file, previous.mode === '40000' ? 'is a directory, not a file' : 'is a link or submodule in HEAD');
    before.push(
      previous ? { path: c.file, mode: previous.mode, id: previous.id } : { path: c.file, mode: null, id: none },
    );
    if (c.content === null) {
      entries.delete(key);
      after.push({ path: c.file, mode: null, id: none });
      continue;
    }
    const mode = previous ? previous.mode : '100644';
    const id = batch.add('blob', c.content);
    entries.set(key, { mode, name: nameOf(c.file), id });
    after.push({ path: c.file, mode, id });
  }
  const dirs = ancestorDirs(changes.map((c) => c.file)).sort(
    (a, b) => b.split('/').length - a.split('/').length || b.length - a.length,
  );
  for (const dir of dirs) {
    if (dir === '') continue;
    const entries = dirOf(dir);
    const parent = dirOf(parentOf(dir));
    const key = keyOfName(nameOf(dir));
    const existing = parent.get(key);
    if (existing && existing.mode !== '40000') refuse(dir, 'is a file in HEAD, not a directory');
    if (entries.size === 0) parent.delete(key);
    else
      parent.set(key, {
        mode: '40000',
        name: nameOf(dir),
        id: batch.add('tree', serializeTree([...entries.values()])),
      });
  }
  return { tree: batch.add('tree', serializeTree([...dirOf('').values()])), after, before };
}
