/**
 * The prompt pieces a layout with routing indexes (the `index` row of layouts.ts) adds: a routing index as a
 * block (plain markdown, no frontmatter; the root one cut to its session-start budget, as Claude Code loads
 * only the first 200 lines / 25 KB of MEMORY.md), and the deferred directories, each with its index.
 */
import { formatCount } from './budgets.js';
import { normalizeText, singleLine } from './frontmatter.js';
import { indexSize, type IndexBudget, type LayoutRow } from './layouts.js';
import type { Block, Context } from './render-blocks.js';

/** At most this many deferred directories are listed (the tree lists the rest). */
export const MAX_DEFERRED_DIRECTORIES = 200;

/** One directory holding deferred memory, and its routing index when it has one. */
export interface DeferredDirectory {
  path: string;
  index: string | null;
}

/**
 * The first `budget` lines and bytes of a text (never splitting a UTF-8 character), and whether it was cut.
 * @example withinIndexBudget('a\nb\nc\n', { lines: 2, bytes: 100 }) // { text: 'a\nb\n', cut: true }
 */
export function withinIndexBudget(text: string, budget: IndexBudget): { text: string; cut: boolean } {
  const size = indexSize(text);
  if (size.lines <= budget.lines && size.bytes <= budget.bytes) return { text, cut: false };
  let out = text.split('\n').slice(0, budget.lines).join('\n');
  if (Buffer.byteLength(out, 'utf8') > budget.bytes) {
    out = Buffer.from(out, 'utf8')
      .subarray(0, budget.bytes)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    const nl = out.lastIndexOf('\n');
    if (nl > 0) out = out.slice(0, nl);
  }
  return { text: out, cut: true };
}

/** The description a routing index is shown with (it has no frontmatter of its own). */
export const INDEX_DESCRIPTION = 'routing index: what each file holds and when to read it';

/**
 * What Claude Code appends to a MEMORY.md it cut (its wording, seen in claude 2.1.328): how big the index is
 * against which limit, how much was cut from where, and what to do about it.
 * @example cutWarning('MEMORY.md', text, 'first 200 lines…', { lines: 200, bytes: 25600 }) // '> WARNING: MEMORY.md is 250 lines (limit: 200). …'
 */
export function cutWarning(path: string, text: string, kept: string, budget: IndexBudget): string {
  const size = indexSize(text);
  const overLines = size.lines > budget.lines;
  const overBytes = size.bytes > budget.bytes;
  const what =
    overBytes && !overLines
      ? `${formatCount(size.bytes)} bytes (limit: ${formatCount(budget.bytes)}) — index entries are too long`
      : overLines && !overBytes
        ? `${formatCount(size.lines)} lines (limit: ${formatCount(budget.lines)})`
        : `${formatCount(size.lines)} lines and ${formatCount(size.bytes)} bytes`;
  return `> WARNING: ${path} is ${what}. Only part of it was loaded: ${cutLines(text, kept)}. Keep index entries to one line under ~200 chars; move detail into topic files.`;
}

/** Which lines a cut left out: `50 of 250 lines were cut off, starting at line 201 ("- [a](a.md) …")`. */
export function cutLines(text: string, kept: string): string {
  const total = indexSize(text).lines;
  if (text[kept.length] !== '\n') return `everything after the first ${kept.length} characters of line 1 was cut off`;
  const keptLines = kept === '' ? 0 : kept.split('\n').length;
  const next = singleLine(text.slice(kept.length + 1).split('\n')[0] ?? '').trim();
  const quoted = next === '' ? '' : ` ("${next.length > 80 ? `${next.slice(0, 79)}…` : next}")`;
  return `${total - keptLines} of ${total} lines were cut off, starting at line ${keptLines + 1}${quoted}`;
}

/**
 * A routing index as a block: its text as is (an index has no frontmatter), the root index within its budget
 * with Claude Code's warning after it when it was cut.
 * @example indexBlock(LAYOUTS.index, 'MEMORY.md', '# Memory\n').body === '# Memory'
 */
export function indexBlock(layout: LayoutRow, path: string, content: string): Block {
  const text = normalizeText(content);
  const budget = path === layout.indexFile ? layout.indexBudget : null;
  const kept = budget === null ? { text, cut: false } : withinIndexBudget(text, budget);
  const body = kept.text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
  return {
    path,
    description: INDEX_DESCRIPTION,
    body: kept.cut && budget !== null ? `${body}\n\n${cutWarning(path, text, kept.text, budget)}` : body,
    readOnly: false,
  };
}

/**
 * The directories holding deferred memory (markdown outside the core, not skills), in path order, each with
 * its index if the files include one.
 * @example deferredDirectories(LAYOUTS.index, ['MEMORY.md', 'a/b.md', 'a/MEMORY.md']) // [{ path: 'a', index: 'a/MEMORY.md' }]
 */
export function deferredDirectories(layout: LayoutRow, paths: readonly string[]): DeferredDirectory[] {
  const all = new Set(paths);
  const dirs = new Set<string>();
  for (const p of paths) {
    const kind = layout.classify(p);
    if ((kind !== 'memory' && kind !== 'index') || layout.isCore(p) || !p.includes('/')) continue;
    dirs.add(p.slice(0, p.lastIndexOf('/')));
  }
  return [...dirs].sort().map((path) => {
    const index = layout.indexFile === null ? null : `${path}/${layout.indexFile}`;
    return { path, index: index !== null && all.has(index) ? index : null };
  });
}

const attr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The `<deferred-memory>` section: one `<directory path=… index=…/>` per directory, or undefined when none.
 * @example deferredSection([{ path: 'a', index: 'a/MEMORY.md' }], ctx)
 */
export function deferredSection(dirs: readonly DeferredDirectory[], ctx: Context): string | undefined {
  if (dirs.length === 0) return undefined;
  const shown = dirs.slice(0, MAX_DEFERRED_DIRECTORIES).map((d) => {
    const index = d.index === null ? '' : ` index="${attr(ctx.prefix + d.index)}"`;
    return `<directory path="${attr(ctx.prefix + d.path)}"${index}/>`;
  });
  const more = dirs.length - shown.length;
  return [
    '<deferred-memory>',
    'Not loaded: read a directory’s index to find the topic file you need.',
    ...shown,
    ...(more > 0 ? [`(… and ${more} more directories: see the tree)`] : []),
    '</deferred-memory>',
  ].join('\n');
}
