/**
 * `memory.view(path?, { at, range })`: what a model should see of a committed path — a directory (the
 * root by default) two levels deep with sizes and descriptions, or a file with line numbers (view-format.ts).
 */
import { descriptionOf, tryParseMemoryFile } from '../blocks/frontmatter.js';
import { MemoryError } from '../errors.js';
import type { SizedTreeEntry } from '../git/commands/tree-sizes.js';
import { decodeMemoryText } from '../memfs/read-text.js';
import { commitAt, filesAt, readObjects, readPaths, regularFileOrRefuse } from './at.js';
import { isRootPath, readCandidates } from './paths.js';
import type { ReadDeps, ViewOptions, ViewResult } from './types.js';
import { renderDirectoryView, renderFileView, VIEW_LIMITS, type ViewFile } from './view-format.js';

export interface ViewCallOptions extends ViewOptions {
  /** ` — <description>` after markdown files in a directory view (default true). */
  descriptions?: boolean;
}

/** Bytes of markdown read to find the descriptions of one directory view, at most. */
const DESCRIPTION_BUDGET = 16 * 1024 * 1024;
const REGULAR = new Set(['100644', '100755']);

/** Files shown two levels below `dir` (no hidden component on the way). */
function shownFiles(entries: readonly SizedTreeEntry[], dir: string): Array<SizedTreeEntry & { rel: string }> {
  const prefix = dir === '' ? '' : `${dir}/`;
  return entries
    .filter((e) => REGULAR.has(e.mode) && e.path.startsWith(prefix))
    .map((e) => ({ ...e, rel: e.path.slice(prefix.length) }));
}

async function describe(
  deps: ReadDeps,
  files: ReadonlyArray<SizedTreeEntry & { rel: string }>,
): Promise<Map<string, string>> {
  const visible = (rel: string): boolean => {
    const parts = rel.split('/');
    return parts.length <= 2 && !parts.some((p) => p.startsWith('.') || p === 'node_modules');
  };
  let budget = DESCRIPTION_BUDGET;
  const wanted = files
    .filter((f) => f.rel.endsWith('.md') && visible(f.rel))
    .slice(0, VIEW_LIMITS.maxEntries)
    .filter((f) => (budget -= f.size) >= 0);
  const objects = await readObjects(
    deps,
    wanted.map((f) => f.id),
  );
  const out = new Map<string, string>();
  objects.forEach((o, i) => {
    const d = o ? descriptionOf(tryParseMemoryFile(o.data.toString('utf8'))?.data ?? {}) : '';
    if (d) out.set((wanted[i] as { rel: string }).rel, d);
  });
  return out;
}

async function viewDirectory(deps: ReadDeps, commit: string, dir: string, descriptions: boolean): Promise<ViewResult> {
  const files = shownFiles(await filesAt(deps, commit), dir);
  const described = descriptions ? await describe(deps, files) : new Map<string, string>();
  const view: ViewFile[] = files.map((f) => {
    const d = described.get(f.rel);
    return d ? { rel: f.rel, size: f.size, description: d } : { rel: f.rel, size: f.size };
  });
  const r = renderDirectoryView(dir === '' ? '/' : dir, view);
  return { ...r, commit, path: dir, kind: 'directory' };
}

/**
 * Views a committed file or directory.
 * @example (await viewMemory(deps)).text // the root, two levels deep
 * @example (await viewMemory(deps, 'notes/a.md', { range: [2, -1] })).text // lines 2… with numbers
 */
export async function viewMemory(deps: ReadDeps, path?: string, options: ViewCallOptions = {}): Promise<ViewResult> {
  const root = isRootPath(path);
  const candidates = root ? [] : readCandidates(path, deps.memoryDir, 'path', 'memory view');
  const commit = await commitAt(deps, options.at);
  const descriptions = options.descriptions !== false;
  if (root) {
    if (options.range !== undefined)
      throw new MemoryError('INVALID_ARGUMENT', 'view_range applies to a file, not a directory', {
        data: { field: 'view_range' },
      });
    return viewDirectory(deps, commit, '', descriptions);
  }
  const objects = await readPaths(deps, commit, candidates);
  const fileAt = objects.findIndex((o) => o?.type === 'blob');
  if (fileAt >= 0) {
    const file = candidates[fileAt] as string;
    const bytes = regularFileOrRefuse(file, objects[fileAt] as NonNullable<(typeof objects)[number]>);
    const r = renderFileView(file, decodeMemoryText(bytes, file), options.range);
    return { ...r, commit, path: file, kind: 'file' };
  }
  const dirAt = objects.findIndex((o) => o?.type === 'tree');
  if (dirAt >= 0) {
    if (options.range !== undefined)
      throw new MemoryError('INVALID_ARGUMENT', 'view_range applies to a file, not a directory', {
        data: { field: 'view_range' },
      });
    return viewDirectory(deps, commit, candidates[dirAt] as string, descriptions);
  }
  throw new MemoryError(
    'FILE_NOT_FOUND',
    `The path ${String(path).slice(0, 200)} does not exist. Please provide a valid path.`,
    { data: { path: candidates[0], commit } },
  );
}
