/**
 * `memory.files({ at })`: the committed tree as data — every file with its size and, for markdown, its
 * description (what `gitmem tree --json` prints).
 */
import { descriptionOf, tryParseMemoryFile } from '../blocks/frontmatter.js';
import { MemoryError } from '../errors.js';
import { commitAt, filesAt, readObjects } from './at.js';
import type { ListedFile, ReadDeps } from './types.js';

/**
 * Every regular file at the commit, sorted by path.
 * @example (await listFiles(deps)).files[0] // { path: 'system/human.md', size: 120, description: '…' }
 */
export async function listFiles(
  deps: ReadDeps,
  options: { at?: string } = {},
): Promise<{ commit: string | null; files: ListedFile[] }> {
  let commit: string;
  try {
    commit = await commitAt(deps, options.at);
  } catch (err) {
    if (options.at === undefined && err instanceof MemoryError && err.code === 'UNKNOWN_REVISION')
      return { commit: null, files: [] };
    throw err;
  }
  const entries = (await filesAt(deps, commit)).filter((e) => e.mode === '100644' || e.mode === '100755');
  const md = entries.filter((e) => e.path.endsWith('.md'));
  const objects = await readObjects(
    deps,
    md.map((e) => e.id),
  );
  const described = new Map<string, string>();
  objects.forEach((o, i) => {
    const d = o ? descriptionOf(tryParseMemoryFile(o.data.toString('utf8'))?.data ?? {}) : '';
    if (d) described.set((md[i] as { path: string }).path, d);
  });
  const files = entries.map((e) => {
    const d = described.get(e.path);
    return d ? { path: e.path, size: e.size, description: d } : { path: e.path, size: e.size };
  });
  return { commit, files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}
