/**
 * A repository's files moved from one layout (layouts.ts) to the other, as a pure function: the planner of
 * `gitmem migrate --layout`. Rules (docs/memory.md#migrating-between-layouts):
 * - system → index: `system/a/b.md` becomes the root file `a-b.md` (core stays core); a root markdown file of
 *   the system layout (deferred there) becomes a root file too (core in the index layout). Each gets `name` (its
 *   file name without `.md`, unless it has one) and, when the way back would not find its place, `metadata:
 *   { gitmem_path: <old path> }` (other metadata kept). Deferred files elsewhere keep their paths and get
 *   `name`. The index hierarchy is written: a `MEMORY.md` in every directory holding deferred markdown and its
 *   parents, each linking its files and sub-indexes once; an index kept from an earlier migration (below) is
 *   restored first, and only the lines it lacks are added.
 * - index → system: a root file goes to `metadata.gitmem_path`, else `system/<file>`; a deferred file to
 *   `metadata.gitmem_path`, else where it is. Every key is kept (`name`, `type`, `metadata`: the system layout
 *   allows them), bar what is implied: `gitmem_path`, and a `name` equal to the file's name. A `MEMORY.md`
 *   that is exactly what the way back would write is dropped; any other (prose, hand-written lines) is kept
 *   whole as `memory-index.md` beside it (the root's as `system/memory-index.md`: core, as the root index was)
 *   with `metadata: { gitmem_index: <its path> }`, and becomes that index again on the way back.
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
/** Where a system-layout file kept from a `MEMORY.md` index records which index it was. */
export const INDEX_ORIGIN_KEY = 'gitmem_index';
/** The file name an index with prose is kept under in the system layout. */
const KEPT_INDEX_STEM = 'memory-index';

const stem = (path: string): string => posix.basename(path, '.md');
const byPath = (a: MigrationFile, b: MigrationFile): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function metadataOf(data: FrontmatterData): Record<string, unknown> | undefined {
  const meta = data['metadata'];
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

function metaString(data: FrontmatterData, key: string): string | undefined {
  const v = metadataOf(data)?.[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
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
  if (record) {
    if (data['metadata'] !== undefined && metadataOf(data) === undefined)
      throw new MemoryError('INVALID_ARGUMENT', `migrate: ${f.path}: 'metadata' must be a map to record its place`);
    next['metadata'] = { ...metadataOf(data), [ORIGIN_KEY]: f.path };
  }
  return { path: to, text: renderMemoryFile(next, body) };
}

/** A recorded place is model- or user-editable text: only a plain path the target layout gives `kind` is taken. */
function safeOrigin(to: LayoutRow, origin: string | undefined, kind: 'memory' | 'index'): string | undefined {
  if (origin === undefined) return undefined;
  const parts = origin.split('/');
  const plain = parts.every((p) => p !== '' && p !== '.' && p !== '..' && !p.startsWith('.') && !p.includes('\\'));
  return plain && origin.endsWith('.md') && to.classify(origin) === kind ? origin : undefined;
}

function toSystemFile(to: LayoutRow, f: MigrationFile, data: FrontmatterData, body: string): MigrationFile {
  const fromIndexCore = !f.path.includes('/');
  const origin = metaString(data, ORIGIN_KEY);
  const path = safeOrigin(to, origin, 'memory') ?? (fromIndexCore ? to.corePath(stem(f.path)) : f.path);
  // Nothing is dropped but what the way back writes again: the recorded place, a name that is the file's name.
  const kept: FrontmatterData = { ...data };
  if (kept['name'] === stem(path)) delete kept['name'];
  const meta = metadataOf(data);
  if (meta !== undefined && origin !== undefined) {
    const { [ORIGIN_KEY]: _recorded, ...rest } = meta;
    if (Object.keys(rest).length === 0) delete kept['metadata'];
    else kept['metadata'] = rest;
  }
  return { path, text: renderMemoryFile(kept, body) };
}

/** Where the system layout keeps the text of index `path` (`MEMORY.md` → `system/memory-index.md`). */
function keptIndexFile(to: LayoutRow, path: string, text: string): MigrationFile {
  const dir = posix.dirname(path);
  const at = dir === '.' ? to.corePath(KEPT_INDEX_STEM) : `${dir}/${KEPT_INDEX_STEM}.md`;
  const data = {
    description: `The ${path} routing index of the index layout, kept by gitmem migrate (its place again on the way back)`,
    metadata: { [INDEX_ORIGIN_KEY]: path },
  };
  return { path: at, text: renderMemoryFile(data, text) };
}

const MD_LINK = /\]\(([^()\s]+)\)/g;
const isExternal = (href: string): boolean =>
  /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('/');

/** The body with relative markdown links to moved files (or from a moved file) pointing at the new places. */
function relink(body: string, from: string, to: string, moved: ReadonlyMap<string, string>): string {
  return body.replace(MD_LINK, (whole, href: string) => {
    if (isExternal(href)) return whole;
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

/** The repo paths a markdown text in `dir` links to. */
function linkedFrom(dir: string, text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(MD_LINK)) {
    const href = (m[1] ?? '').split('#')[0] ?? '';
    if (href !== '' && !isExternal(href)) out.add(posix.normalize(posix.join(dir, href)));
  }
  return out;
}

const indexPathOf = (dir: string): string => (dir === '' ? INDEX_FILE : `${dir}/${INDEX_FILE}`);

/**
 * The index hierarchy over `files` (index layout): each directory's MEMORY.md, and the root's. `kept` holds
 * index texts restored as they were (by index path): a kept index gets only the lines it lacks.
 */
function indexes(
  row: LayoutRow,
  files: readonly MigrationFile[],
  rootText: string,
  kept: ReadonlyMap<string, string> = new Map(),
): MigrationFile[] {
  const lines = new Map<string, string[]>([['', []]]);
  const has = new Map(
    [...kept].map(([path, text]) => [path, linkedFrom(posix.dirname(path).replace(/^\.$/, ''), text)]),
  );
  const add = (dir: string, line: string, target: string): void => {
    if (!lines.has(dir)) lines.set(dir, []);
    if (has.get(indexPathOf(dir))?.has(target) !== true) lines.get(dir)?.push(line);
  };
  const ensure = (dir: string): void => {
    if (lines.has(dir)) return;
    lines.set(dir, []);
    const parent = posix.dirname(dir) === '.' ? '' : posix.dirname(dir);
    ensure(parent);
    add(parent, `- [${posix.basename(dir)}](${posix.basename(dir)}/${INDEX_FILE})`, indexPathOf(dir));
  };
  for (const f of [...files].sort(byPath)) {
    if (row.classify(f.path) !== 'memory' || row.isCore(f.path)) continue;
    const dir = posix.dirname(f.path);
    ensure(dir);
    const data = parseMemoryFile(f.text).data;
    add(dir, `- [${stem(f.path)}](${posix.basename(f.path)}) — ${descriptionOf(data)}`, f.path);
  }
  for (const path of kept.keys()) ensure(path === INDEX_FILE ? '' : posix.dirname(path));
  return [...lines].map(([dir, ls]) => {
    const path = indexPathOf(dir);
    const base = kept.get(path);
    if (base !== undefined)
      return {
        path,
        text: ls.length === 0 ? base : `${base === '' || base.endsWith('\n') ? base : `${base}\n`}${ls.join('\n')}\n`,
      };
    return {
      path,
      text: dir === '' ? `${rootText.trimEnd()}\n\n${ls.join('\n')}\n` : `# ${dir}\n\n${ls.join('\n')}\n`,
    };
  });
}

/** One file of the new tree, with where it came from and its body (null: copied as it is). */
interface Staged {
  from: string;
  file: MigrationFile;
  body: string | null;
  /** True for an index text kept in (or restored from) a system-layout file. */
  index?: true;
}

/**
 * index → system: each MEMORY.md that is not exactly what the way back writes, kept as a memory file.
 */
function keepIndexes(from: LayoutRow, to: LayoutRow, files: readonly MigrationFile[]): Staged[] {
  const memory = files.filter((f) => from.classify(f.path) === 'memory');
  const generated = new Map(indexes(from, memory, from.starterIndex ?? '').map((f) => [f.path, f.text]));
  return files
    .filter((f) => from.classify(f.path) === 'index' && generated.get(f.path) !== f.text)
    .map((f) => ({ from: f.path, file: keptIndexFile(to, f.path, f.text), body: f.text }));
}

/** One memory file staged in the target layout: moved, or (system → index) a kept index restored. */
function stageMemory(from: LayoutRow, to: LayoutRow, f: MigrationFile): Staged {
  const { data, body } = parseMemoryFile(f.text);
  if (to.indexFile !== null) {
    const index = safeOrigin(to, metaString(data, INDEX_ORIGIN_KEY), 'index');
    if (index !== undefined) return { from: f.path, file: { path: index, text: body }, body, index: true };
    return { from: f.path, file: toIndexFile(from, f, data, body), body };
  }
  return { from: f.path, file: toSystemFile(to, f, data, body), body };
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
  const staged: Staged[] = [];
  for (const f of files) {
    const kind = from.classify(f.path);
    if (kind === 'index') continue; // routing: kept below when it holds more than the way back writes
    const s = kind === 'memory' ? stageMemory(from, to, f) : { from: f.path, file: f, body: null };
    if (s.file.path === INDEX_FILE && s.index !== true)
      throw new MemoryError('FILE_EXISTS', `migrate: ${f.path} would become the root index`, {
        data: { file: INDEX_FILE },
      });
    refuseCollision(taken, s.file.path, f.path);
    staged.push(s);
  }
  if (from.indexFile !== null)
    for (const s of keepIndexes(from, to, files)) {
      refuseCollision(taken, s.file.path, s.from);
      staged.push(s);
    }
  const moved = new Map(staged.filter((s) => s.from !== s.file.path).map((s) => [s.from, s.file.path]));
  const out = staged.map((s) => {
    if (s.body === null) return s;
    const body = relink(s.body, s.from, s.file.path, moved);
    return { ...s, file: { path: s.file.path, text: s.file.text.slice(0, s.file.text.length - s.body.length) + body } };
  });
  const plain = out.filter((s) => s.index !== true).map((s) => s.file);
  const kept = new Map(out.filter((s) => s.index === true).map((s) => [s.file.path, s.file.text]));
  const all = to.indexFile === null ? plain : [...plain, ...indexes(to, plain, to.starterIndex ?? '', kept)];
  return { files: all.sort(byPath), moves: [...moved].map(([f, t]) => ({ from: f, to: t })) };
}
