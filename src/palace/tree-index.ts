/**
 * One commit's files as a directory index, so the page can expand the tree one directory at a time: with
 * 10,000 files the first answer is the root's few entries, not the whole listing. Pure.
 */
import type { TreeDir, TreeFile } from './api-types.js';

export interface IndexedFile {
  path: string;
  size: number;
  description?: string;
}

export interface TreeIndex {
  commit: string | null;
  files: Map<string, IndexedFile>;
  /** Directory path ('' = root) → its entries, directories first, each group by name. */
  dirs: Map<string, Array<TreeDir | TreeFile>>;
}

/** ceil(bytes / 4): the estimate `gitmem tokens` uses. */
export const tokensOf = (bytes: number): number => Math.ceil(bytes / 4);

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Builds the index of a listing.
 * @example buildTreeIndex('abc', [{ path: 'system/a.md', size: 8 }]).dirs.get('') // [{ type: 'dir', name: 'system', … }]
 */
export function buildTreeIndex(commit: string | null, listing: readonly IndexedFile[]): TreeIndex {
  const files = new Map<string, IndexedFile>();
  const dirStats = new Map<string, { files: number; tokens: number }>();
  const children = new Map<string, Array<TreeDir | TreeFile>>([['', []]]);
  const ensureDir = (dir: string): void => {
    if (children.has(dir)) return;
    children.set(dir, []);
    const parent = parentOf(dir);
    ensureDir(parent);
    dirStats.set(dir, { files: 0, tokens: 0 });
    children.get(parent)?.push({ type: 'dir', name: nameOf(dir), path: dir, files: 0, tokens: 0 });
  };
  for (const f of listing) {
    files.set(f.path, f);
    const dir = parentOf(f.path);
    ensureDir(dir);
    const tokens = tokensOf(f.size);
    children.get(dir)?.push({
      type: 'file',
      name: nameOf(f.path),
      path: f.path,
      size: f.size,
      tokens,
      ...(f.description ? { description: f.description } : {}),
    });
    for (let d = dir; d !== ''; d = parentOf(d)) {
      const s = dirStats.get(d);
      if (s) {
        s.files += 1;
        s.tokens += tokens;
      }
    }
  }
  for (const entries of children.values()) {
    for (const e of entries) {
      if (e.type === 'dir') Object.assign(e, dirStats.get(e.path));
    }
    entries.sort((a, b) =>
      a.type !== b.type ? (a.type === 'dir' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  }
  return { commit, files, dirs: children };
}
