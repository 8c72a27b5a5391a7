/**
 * One committed path's object read from loose objects only (no git process): the commit's root tree, then one
 * tree per path component, then the object itself. Undefined as soon as an object on the way is packed,
 * unverifiable, too large or of another format than SHA-1 — the caller then asks git (`cat-file --batch` of
 * `<commit>:<path>` and its parent tree). A fast path (`objectReads` in fast-paths.ts): with the switch off it
 * never answers.
 */
import { fastPath } from '../fast-paths.js';
import { looseObjectAt } from './loose-object.js';
import { parseTree, type TreeItem } from './objects.js';

/** A committed path's object and its mode in its parent tree. */
export interface PathObject {
  type: 'blob' | 'tree';
  /** `100644`, `100755`, `120000` (a symbolic link's target as a blob), `40000`. */
  mode: string;
  id: string;
  data: Buffer;
}

class NotLoose extends Error {}

function looseOf(objectsDir: string, id: string): { type: string; data: Buffer } {
  const obj = looseObjectAt(objectsDir, id);
  if (obj === undefined) throw new NotLoose();
  return obj;
}

/** The entry named `name` (compared as UTF-8 bytes, as git compares the spec's bytes); the first one, as git's. */
function entryOf(tree: Buffer, name: string): TreeItem | undefined {
  const want = Buffer.from(name, 'utf8');
  let items: TreeItem[];
  try {
    items = parseTree(tree);
  } catch {
    throw new NotLoose(); // a corrupt tree: git says what it says of it
  }
  return items.find((i) => (i.raw ?? Buffer.from(i.name)).equals(want));
}

const FILE_MODES = new Set(['100644', '100755', '120000']);

function walkPath(objectsDir: string, commit: string, path: string): PathObject | null | undefined {
  try {
    const c = looseOf(objectsDir, commit);
    const root = c.type === 'commit' ? /^tree ([0-9a-f]{40})\n/.exec(c.data.toString('latin1'))?.[1] : undefined;
    if (root === undefined) return undefined;
    let tree = looseOf(objectsDir, root);
    const parts = path.split('/');
    for (const [i, name] of parts.entries()) {
      if (tree.type !== 'tree') return undefined; // a corrupt entry (a directory's mode on another object)
      const item = entryOf(tree.data, name);
      if (item === undefined) return null;
      const last = i === parts.length - 1;
      // A file where a directory was asked: git finds nothing either. Anything else odd (a submodule): git.
      if (!last && FILE_MODES.has(item.mode)) return null;
      if (!last && item.mode !== '40000') return undefined;
      const obj = looseOf(objectsDir, item.id);
      if (last)
        return obj.type === 'blob' || obj.type === 'tree'
          ? { type: obj.type, mode: item.mode, id: item.id, data: obj.data }
          : undefined;
      tree = obj;
    }
    return undefined;
  } catch (err) {
    if (err instanceof NotLoose) return undefined;
    throw err;
  }
}

/**
 * The object `path` names at `commit` with its mode, null when there is none, undefined when git must be asked.
 * @example readLoosePath('/mem/.git/objects', head, 'notes/a.md')?.mode // '100644'
 */
export function readLoosePath(objectsDir: string, commit: string, path: string): PathObject | null | undefined {
  // A component git reads otherwise (`./`, `../` are relative to its cwd there), a line end (a spec is one
  // line of `cat-file --batch`): git answers, whatever it makes of it.
  const plain = !path.includes('\n') && path.split('/').every((p) => p !== '' && p !== '.' && p !== '..');
  return fastPath('objectReads', () => (plain ? walkPath(objectsDir, commit, path) : undefined));
}
