/**
 * The layouts a memory repository may take, as one table: each row says which files are core (compiled into
 * every prompt), which frontmatter each kind of path carries, which files are required, where the routing
 * indexes are, the root index's session-start budget and how the prompt renders. Every layer that cares (the
 * validator, the tree, compilePrompt, budgets, the tool, the hook, merges, doctor) takes a row as a parameter
 * and asks it, so a layout is one row here, never an `if (layout)` spread through the layers.
 *
 * - `system` (the default): markdown under `system/` is core; other markdown is read on demand; memory files
 *   carry `description` (plus `read_only`, `limit`; `name`, `type`, `metadata` allowed, as kept by a migration
 *   from the index layout).
 * - `index` (Claude Code auto memory, Letta MemFS v2, Codex memories): markdown directly in the root is core;
 *   the root `MEMORY.md` is required and has no frontmatter; each directory holding deferred markdown has its
 *   own `MEMORY.md` routing index (plain markdown); other memory files carry `name` and `description` (Claude
 *   Code's `type` allowed; `read_only` and `limit` kept as gitmem's extensions).
 */

export type LayoutName = 'system' | 'index';

/** Every layout's name, the default first. */
export const LAYOUT_NAMES: readonly LayoutName[] = ['system', 'index'];

export const DEFAULT_LAYOUT: LayoutName = 'system';

/**
 * Which rules a path falls under: `memory` (frontmatter per the row), `index` (a routing index: plain
 * markdown, no frontmatter), a skill, a skill's other file, a misplaced skill, or `other` (no rules).
 */
export type FileKind = 'memory' | 'index' | 'skill' | 'skill-asset' | 'bad-skill-path' | 'other';

/** The root index's session-start budget: Claude Code loads the first 200 lines / 25 KB of MEMORY.md. */
export interface IndexBudget {
  lines: number;
  bytes: number;
}

export const DEFAULT_INDEX_BUDGET: IndexBudget = Object.freeze({ lines: 200, bytes: 25 * 1024 });

export interface LayoutRow {
  name: LayoutName;
  /** One line for `gitmem status`, `doctor` and help. */
  summary: string;
  /** Which rules a repo-relative path falls under. */
  classify(path: string): FileKind;
  /** True for the markdown compiled into every prompt. */
  isCore(path: string): boolean;
  /** What the core is called in messages (`system/`, `root memory files`). */
  coreLabel: string;
  /** The session context (blocks/compile-context.ts): what it says is shown, and what it calls core files left out. */
  context: Readonly<{ shown: string; omitted: string }>;
  /** Frontmatter keys a memory file may carry, and those it must. */
  memoryKeys: readonly string[];
  requiredKeys: readonly string[];
  /** Keys whose value is one of a fixed list. */
  keyValues: Readonly<Record<string, readonly string[]>>;
  /** Files the repository always holds: a change may not delete or rename them away. */
  requiredFiles: readonly string[];
  /** The routing index's file name in every directory holding deferred markdown; null: no indexes. */
  indexFile: string | null;
  /** The root index's budget, null when the layout has no root index. */
  indexBudget: IndexBudget | null;
  /** How compilePrompt renders core memory: `blocks` (one block per system/ file) or `index` (root files + deferred directories). */
  prompt: 'blocks' | 'index';
  /** Where a core file named `name` (a starter block: persona, human) lives. */
  corePath(name: string): string;
  /** The root index a new repository starts with, or null. */
  starterIndex: string | null;
}

const SKILLS = 'skills';

/** The shared part of classification: skills, non-markdown and dot-directories; undefined for markdown. */
function baseKind(path: string): FileKind | undefined {
  const p = path.startsWith('memory/') ? path.slice('memory/'.length) : path;
  const parts = p.split('/');
  if (parts[0] === SKILLS) {
    if (parts.length === 2 && p.endsWith('.md')) return 'bad-skill-path';
    if (parts.length === 3 && parts[2] === 'SKILL.md') return 'skill';
    if (parts.length >= 3) return 'skill-asset';
  }
  if (!p.endsWith('.md')) return 'other';
  if (parts.some((s) => s.startsWith('.'))) return 'other'; // dot-dirs (e.g. .github) are not memory
  return undefined;
}

/** Claude Code's auto-memory `type` values. */
const CLAUDE_MEMORY_TYPES: readonly string[] = Object.freeze(['user', 'feedback', 'project', 'reference']);

const hidden = (path: string): boolean => path.split('/').some((s) => s.startsWith('.'));

const SYSTEM_ROW: LayoutRow = Object.freeze({
  name: 'system',
  summary: 'system/ is core memory (in every prompt); other files are read on demand',
  classify: (path: string): FileKind => baseKind(path) ?? 'memory',
  isCore: (path: string): boolean => path.startsWith('system/') && path.endsWith('.md') && !hidden(path),
  coreLabel: 'system/',
  context: Object.freeze({
    shown:
      'Files under system/ are shown in full below; the other files are listed with their descriptions and are ' +
      'read with the gitmem memory tools (memory_view).',
    omitted: 'system/ file(s)',
  }),
  // `name`, `type` and `metadata` as the index layout has them (optional here): a migration from the index
  // layout keeps them (blocks/layout-migration.ts), so the way back loses nothing.
  memoryKeys: Object.freeze(['description', 'read_only', 'limit', 'name', 'type', 'metadata']),
  requiredKeys: Object.freeze(['description']),
  keyValues: Object.freeze({ type: CLAUDE_MEMORY_TYPES }),
  requiredFiles: Object.freeze([]),
  indexFile: null,
  indexBudget: null,
  prompt: 'blocks',
  corePath: (name: string): string => `system/${name}.md`,
  starterIndex: null,
} as const satisfies LayoutRow);

export const INDEX_FILE = 'MEMORY.md';

const INDEX_ROW: LayoutRow = Object.freeze({
  name: 'index',
  summary: 'root markdown is core memory, MEMORY.md indexes route to topic files read on demand',
  classify: (path: string): FileKind => {
    const base = baseKind(path);
    if (base !== undefined) return base;
    return path.split('/').at(-1) === INDEX_FILE ? 'index' : 'memory';
  },
  isCore: (path: string): boolean => !path.includes('/') && path.endsWith('.md') && !path.startsWith('.'),
  coreLabel: 'root memory files',
  context: Object.freeze({
    shown:
      'The root MEMORY.md index (within its session-start budget) and the other markdown files in the root are ' +
      "shown below; topic files in subfolders are not loaded: each folder's MEMORY.md lists them, and they are " +
      'read with the gitmem memory tools (memory_view).',
    omitted: 'root memory file(s)',
  }),
  // `metadata`: Claude Code (2.1.x) rewrites an auto-memory file's frontmatter on Write, moving `type` into a
  // `metadata` map (node_type, type, originSessionId, modified); seen with the real program in
  // test/integration/harness/auto-memory-claude.test.ts.
  memoryKeys: Object.freeze(['name', 'description', 'type', 'metadata', 'read_only', 'limit']),
  requiredKeys: Object.freeze(['name', 'description']),
  keyValues: Object.freeze({ type: CLAUDE_MEMORY_TYPES }),
  requiredFiles: Object.freeze([INDEX_FILE]),
  indexFile: INDEX_FILE,
  indexBudget: DEFAULT_INDEX_BUDGET,
  prompt: 'index',
  corePath: (name: string): string => `${name}.md`,
  starterIndex:
    '# Memory\n\nThe markdown files in this folder are core memory, loaded every session. Topic files live in ' +
    "subfolders, read on demand; each folder's MEMORY.md lists its files, one line each: " +
    '`- [Title](file.md) — when to read it`.\n',
} as const satisfies LayoutRow);

/** The table: one row per layout. */
export const LAYOUTS: Readonly<Record<LayoutName, LayoutRow>> = Object.freeze({ system: SYSTEM_ROW, index: INDEX_ROW });

/**
 * A layout name as configured or given on the command line, or undefined when it names none.
 * @example parseLayoutName(' index ') === 'index'; parseLayoutName('x') === undefined
 */
export function parseLayoutName(value: unknown): LayoutName | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  return (LAYOUT_NAMES as readonly string[]).includes(v) ? (v as LayoutName) : undefined;
}

/**
 * The row of a layout; with `indexBudget`, the row with the root index's budget as configured.
 * @example layoutRow('index').indexFile === 'MEMORY.md'
 */
export function layoutRow(name: LayoutName = DEFAULT_LAYOUT, indexBudget?: IndexBudget): LayoutRow {
  const row = LAYOUTS[name];
  return indexBudget === undefined || row.indexBudget === null
    ? row
    : Object.freeze({ ...row, indexBudget: Object.freeze({ ...indexBudget }) });
}

/**
 * The index a path is routed from in a layout with indexes: the `MEMORY.md` of its own directory (the root
 * index for a root file); an index itself is routed from its parent directory's index. Null without indexes
 * or for the root index.
 * @example nearestIndex(layoutRow('index'), 'a/b.md') === 'a/MEMORY.md'
 */
export function nearestIndex(row: LayoutRow, path: string): string | null {
  if (row.indexFile === null) return null;
  const parts = path.split('/');
  if (parts.at(-1) === row.indexFile) parts.pop();
  if (parts.length === 0) return null;
  parts.pop();
  return [...parts, row.indexFile].join('/');
}

/**
 * Lines and bytes of a text as the root index's budget counts them (a final newline ends the last line).
 * @example indexSize('a\nb\n') // { lines: 2, bytes: 4 }
 */
export function indexSize(text: string | null): IndexBudget {
  if (text === null || text === '') return { lines: 0, bytes: 0 };
  const newlines = text.split('\n').length - 1;
  return { lines: text.endsWith('\n') ? newlines : newlines + 1, bytes: Buffer.byteLength(text, 'utf8') };
}

/**
 * The layout a tree's root entries suggest, when no configuration says (a clone: repository config is not
 * copied): a root index and no `system/` is the index layout, anything else the default.
 * @example layoutOfRootNames(['MEMORY.md', 'lang']) === 'index'
 */
export function layoutOfRootNames(names: readonly string[]): LayoutName {
  return names.includes(INDEX_FILE) && !names.includes('system') ? 'index' : DEFAULT_LAYOUT;
}
