/**
 * A repository's files moved from one layout (layouts.ts) to the other, as a pure function: the planner of
 * `gitmem migrate --layout`. Rules (docs/memory.md#migrating-between-layouts):
 * - system → index: `system/a/b.md` becomes the root file `a-b.md` (core stays core); a root markdown file of
 *   the system layout (deferred there) becomes a root file too (core in the index layout). Each gets `name` (its
 *   file name without `.md`) and, when the way back would not find its place, `metadata: { gitmem_path: <old
 *   path> }` (a key the index layout allows). Deferred files elsewhere keep their paths and get `name`. The
 *   index hierarchy is written: a `MEMORY.md` in every directory holding deferred markdown and its parents,
 *   each linking its files and sub-indexes once.
 * - index → system: a root file goes to `metadata.gitmem_path`, else `system/<file>`; a deferred file to
 *   `metadata.gitmem_path`, else where it is. `name`, `type` and `metadata` are dropped (the system layout has
 *   no such keys); the `MEMORY.md` indexes are dropped (routing only; they are regenerated on the way back).
 * - Every body byte (after the frontmatter) and every description is kept; relative markdown links between
 *   moved files are rewritten to the new places. Skills and non-markdown files stay as they are.
 * - Two files landing on one path (`system/a-b.md` and `system/a/b.md`) are refused naming both.
 */
import { posix } from 'node:path';
import { MemoryError } from '../errors.js';
import { descriptionOf, parseMemoryFile, renderMemoryFile, type FrontmatterData } from './frontmatter.js';
import { INDEX_FILE, type LayoutRow } from './layouts.js';

export interface MigrationFile {
  path: string;
  text: string;
}

export interface MigrationPlan {
  /** The whole new tree's text files (the unchanged ones too), sorted by path. */
  files: MigrationFile[];
  /** Each moved file: old path → new path. */
  moves: Array<{ from: string; to: string }>;
}

/** Where an index-layout file's old place is recorded. */
export const ORIGIN_KEY = 'gitmem_path';

const stem = (path: string): string => posix.basename(path, '.md');

function originOf(data: FrontmatterData): string | undefined {
  const meta = data['metadata'];
  if (typeof meta !== 'object' || meta === null) return undefined;
  const origin = (meta as Record<string, unknown>)[ORIGIN_KEY];
  return typeof origin === 'string' && origin !== '' ? origin : undefined;
}

/** Where a system-layout memory file goes, and whether its old path must be recorded. */
function toIndexPath(from: LayoutRow, path: string): { to: string; record: boolean } {
  if (from.isCore(path)) {
    const to = `${path.slice('system/'.length, -'.md'.length).split('/').join('-')}.md`;
    return { to, record: `system/${to}` !== path };
  }
  return { to: path, record: !path.includes('/') }; // a root file turns core: remember it was deferred
}

function toIndexFile(from: LayoutRow, f: MigrationFile, data: FrontmatterData, body: string): MigrationFile {
  const { to, record } = toIndexPath(from, f.path);
  const { description, ...rest } = data;
  const next: FrontmatterData = { name: stem(f.path), description: description ?? descriptionOf(data), ...rest };
  if (record) next['metadata'] = { [ORIGIN_KEY]: f.path };
  return { path: to, text: renderMemoryFile(next, body) };
}

/** A recorded place is model- or user-editable text: only a plain memory path of the target layout is taken. */
function safeOrigin(to: LayoutRow, origin: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  const parts = origin.split('/');
  const plain = parts.every((p) => p !== '' && p !== '.' && p !== '..' && !p.startsWith('.') && !p.includes('\\'));
  return plain && origin.endsWith('.md') && to.classify(origin) === 'memory' ? origin : undefined;
}

function toSystemFile(to: LayoutRow, f: MigrationFile, data: FrontmatterData, body: string): MigrationFile {
  const fromIndexCore = !f.path.includes('/');
  const path = safeOrigin(to, originOf(data)) ?? (fromIndexCore ? to.corePath(stem(f.path)) : f.path);
  const kept: FrontmatterData = {};
  for (const [k, v] of Object.entries(data)) if (to.memoryKeys.includes(k)) kept[k] = v;
  return { path, text: renderMemoryFile(kept, body) };
}

const MD_LINK = /\]\(([^()\s]+)\)/g;

/** The body with relative markdown links to moved files (or from a moved file) pointing at the new places. */
function relink(body: string, from: string, to: string, moved: ReadonlyMap<string, string>): string {
  return body.replace(MD_LINK, (whole, href: string) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('/')) return whole;
    const [file = '', ...frag] = href.split('#');
    const target = posix.normalize(posix.join(posix.dirname(from), file));
    const next = moved.get(target) ?? target;
    if (posix.dirname(from) === posix.dirname(to) && next === target) return whole;
    const rel = posix.relative(posix.dirname(to), next);
    return `](${[rel, ...frag].join('#')})`;
  });
}

function refuseCollision(taken: Map<string, string>, to: string, from: string): void {
  const other = taken.get(to);
  if (other !== undefined)
    throw new MemoryError('FILE_EXISTS', `migrate: ${other} and ${from} would both become ${to}; rename one first`, {
      data: { file: to, paths: [other, from] },
    });
  taken.set(to, from);
}

/** The index hierarchy over `paths` (index layout): each directory's MEMORY.md, and the root's. */
function indexes(row: LayoutRow, files: readonly MigrationFile[], rootText: string): MigrationFile[] {
  const lines = new Map<string, string[]>([['', []]]);
  const add = (dir: string, line: string): void => void lines.set(dir, [...(lines.get(dir) ?? []), line]);
  const ensure = (dir: string): void => {
    if (lines.has(dir)) return;
    lines.set(dir, []);
    const parent = posix.dirname(dir) === '.' ? '' : posix.dirname(dir);
    ensure(parent);
    add(parent, `- [${posix.basename(dir)}](${posix.basename(dir)}/${INDEX_FILE})`);
  };
  for (const f of files) {
    if (row.classify(f.path) !== 'memory' || row.isCore(f.path)) continue;
    const dir = posix.dirname(f.path);
    ensure(dir);
    const data = parseMemoryFile(f.text).data;
    add(dir, `- [${stem(f.path)}](${posix.basename(f.path)}) — ${descriptionOf(data)}`);
  }
  return [...lines].map(([dir, ls]) => ({
    path: dir === '' ? INDEX_FILE : `${dir}/${INDEX_FILE}`,
    text: dir === '' ? `${rootText.trimEnd()}\n\n${ls.join('\n')}\n` : `# ${dir}\n\n${ls.join('\n')}\n`,
  }));
}

/**
 * The files of a repository in the `to` layout. Throws FILE_EXISTS on a name collision, INVALID_ARGUMENT when
 * the layouts are the same, FRONTMATTER_INVALID for a memory file that does not parse.
 * @example planLayoutMigration(LAYOUTS.system, LAYOUTS.index, [{ path: 'system/a/b.md', text }]).moves
 *   // [{ from: 'system/a/b.md', to: 'a-b.md' }]
 */
export function planLayoutMigration(from: LayoutRow, to: LayoutRow, files: readonly MigrationFile[]): MigrationPlan {
  if (from.name === to.name) throw new MemoryError('INVALID_ARGUMENT', `migrate: the layout is already ${to.name}`);
  const taken = new Map<string, string>();
  const staged: Array<{ from: string; file: MigrationFile; body: string | null }> = [];
  for (const f of files) {
    const kind = from.classify(f.path);
    if (kind === 'index') continue; // routing only: the target layout's indexes are written below
    if (kind !== 'memory') {
      refuseCollision(taken, f.path, f.path);
      staged.push({ from: f.path, file: f, body: null });
      continue;
    }
    const { data, body } = parseMemoryFile(f.text);
    const file = to.indexFile !== null ? toIndexFile(from, f, data, body) : toSystemFile(to, f, data, body);
    refuseCollision(taken, file.path, f.path);
    staged.push({ from: f.path, file, body });
  }
  if (to.indexFile !== null && taken.has(INDEX_FILE))
    throw new MemoryError('FILE_EXISTS', `migrate: ${taken.get(INDEX_FILE)} would become the root index`, {
      data: { file: INDEX_FILE },
    });
  const moved = new Map(staged.filter((s) => s.from !== s.file.path).map((s) => [s.from, s.file.path]));
  const out = staged.map((s) => {
    if (s.body === null) return s.file;
    const body = relink(s.body, s.from, s.file.path, moved);
    return { path: s.file.path, text: s.file.text.slice(0, s.file.text.length - s.body.length) + body };
  });
  const root = files.find((f) => f.path === INDEX_FILE)?.text ?? to.starterIndex ?? '';
  const all = to.indexFile === null ? out : [...out, ...indexes(to, out, root)];
  return {
    files: all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    moves: [...moved].map(([f, t]) => ({ from: f, to: t })),
  };
}
