/**
 * What a model sees when it views memory, in the format of Anthropic's memory tool (its local-filesystem
 * implementation in `@anthropic-ai/sdk`): a file as lines numbered 6 wide, right-aligned, then a tab — the
 * lines gitmem's tool counts (memfs/line-numbers.ts), so a final line end shows no empty last line, CRLF and a
 * lone CR both end a line and a BOM is not shown; an empty file says so instead of showing one empty line; a
 * directory as `<size>\t<path>` lines two levels deep, hidden items and node_modules left out, sizes as
 * `0B`, `512B`, `1.5K`, `2M`. gitmem adds, for a markdown file with one, ` — <description>` after its
 * path (off with `descriptions: false`). A directory's size is the bytes of every file below it (a
 * committed tree has no size of its own). Output is bounded; a cut says so and how to see the rest. Pure.
 */
import { clipDescription } from '../blocks/tree.js';
import { MemoryError } from '../errors.js';
import { fileLines, numberedLine } from '../memfs/line-numbers.js';

export const VIEW_LIMITS = Object.freeze({
  /** Lines of a file shown by one view. */
  maxLines: 4_000,
  /** Characters of a file view's text. */
  maxChars: 160_000,
  /** Entries of a directory view. */
  maxEntries: 1_000,
});

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
const shownPath = (p: string): string => p.replace(CONTROL, '?');

/**
 * A byte count as the memory tool writes it.
 * @example formatSize(1536) // '1.5K'
 */
export function formatSize(bytes: number): string {
  if (bytes <= 0) return '0B';
  const units = ['B', 'K', 'M', 'G'];
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const size = bytes / Math.pow(1024, i);
  return (size % 1 === 0 ? size.toString() : size.toFixed(1)) + units[i];
}

/** What the view of an empty file shows in place of lines (a note, never numbered: it is not content). */
export const EMPTY_FILE = '[empty file: no lines; insert_line 0 adds the first]';

/** Checks a view range against a file of `lines` lines; returns 0-based [start, end) to show. */
export function checkRange(range: unknown, lines: number): [number, number] {
  if (range === undefined) return [0, lines];
  const bad = (why: string): never => {
    throw new MemoryError('INVALID_ARGUMENT', `view_range ${why}`, { data: { field: 'view_range', lines } });
  };
  if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isSafeInteger(n)))
    bad('must be two integers [start, end]');
  const [start, end] = range as [number, number];
  if (start < 1) bad(`start must be at least 1, got ${start}`);
  if (start > lines) bad(`start ${start} is past the end of the file (${lines} lines)`);
  if (end !== -1 && end < start) bad(`end must be -1 (to the end) or at least start ${start}, got ${end}`);
  return [start - 1, end === -1 ? lines : Math.min(end, lines)];
}

/**
 * A file's text with line numbers, lines `range` only (1-based, inclusive; end -1 = to the end).
 * @example renderFileView('notes/a.md', 'x\ny').text // "Here's the content of notes/a.md with line numbers:\n     1\tx\n     2\ty"
 */
export function renderFileView(shown: string, text: string, range?: unknown): { text: string; truncated: boolean } {
  const lines = fileLines(text);
  const [start, end] = checkRange(range, lines.length);
  const out: string[] = [];
  let chars = 0;
  let i = start;
  for (; i < end && out.length < VIEW_LIMITS.maxLines; i++) {
    const line = numberedLine(i + 1, lines[i] as string);
    if (chars + line.length + 1 > VIEW_LIMITS.maxChars && out.length > 0) break;
    out.push(line);
    chars += line.length + 1;
  }
  const header = `Here's the content of ${shownPath(shown)} with line numbers:`;
  if (lines.length === 0) return { text: `${header}\n${EMPTY_FILE}`, truncated: false };
  if (i >= end) return { text: `${header}\n${out.join('\n')}`, truncated: false };
  const note = `[truncated: lines ${start + 1}-${i} of ${lines.length} shown; view_range [${i + 1}, -1] shows the rest]`;
  return { text: `${header}\n${out.join('\n')}\n${note}`, truncated: true };
}

/** A file of a committed tree, for a directory view. */
export interface ViewFile {
  /** Path relative to the directory viewed. */
  rel: string;
  size: number;
  description?: string;
}

interface Node {
  size: number;
  dir: boolean;
  description?: string;
  children: Map<string, Node>;
}

function buildNodes(files: readonly ViewFile[]): Node {
  const root: Node = { size: 0, dir: true, children: new Map() };
  for (const f of files) {
    const parts = f.rel.split('/');
    let node = root;
    node.size += f.size;
    for (const [i, name] of parts.entries()) {
      const leaf = i === parts.length - 1;
      let next = node.children.get(name);
      if (!next) node.children.set(name, (next = { size: 0, dir: !leaf, children: new Map() }));
      next.size += f.size;
      if (leaf && f.description) next.description = f.description;
      node = next;
    }
  }
  return root;
}

/** The listing's lines after the first: depth-first, names sorted, two levels. */
function listLines(root: Node, join: (rel: string) => string): string[] {
  const lines: string[] = [];
  const walk = (node: Node, rel: string, depth: number): void => {
    for (const name of [...node.children.keys()].sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const child = node.children.get(name) as Node;
      const path = rel ? `${rel}/${name}` : name;
      if (child.dir) {
        lines.push(`${formatSize(child.size)}\t${shownPath(join(path))}/`);
        if (depth < 2) walk(child, path, depth + 1);
      } else {
        const d = child.description ? ` — ${clipDescription(child.description)}` : '';
        lines.push(`${formatSize(child.size)}\t${shownPath(join(path))}${d}`);
      }
    }
  };
  walk(root, '', 1);
  return lines;
}

/**
 * A directory's entries two levels deep. `shown` is the directory as the caller names it (`/` = the root,
 * whose entries are shown as plain memory paths).
 * @example renderDirectoryView('notes', [{ rel: 'a.md', size: 12 }]).text.split('\n')[2] // '12B\tnotes/a.md'
 */
export function renderDirectoryView(shown: string, files: readonly ViewFile[]): { text: string; truncated: boolean } {
  const root = buildNodes(files);
  const join = (rel: string): string => (shown === '/' ? rel : `${shown}/${rel}`);
  const lines = listLines(root, join);
  const header = `Here're the files and directories up to 2 levels deep in ${shownPath(shown)}, excluding hidden items and node_modules:`;
  const first = `${formatSize(root.size)}\t${shownPath(shown)}`;
  if (lines.length <= VIEW_LIMITS.maxEntries) return { text: [header, first, ...lines].join('\n'), truncated: false };
  const rest = lines.length - VIEW_LIMITS.maxEntries;
  const note = `[truncated: ${rest} more entries not shown; view a subdirectory to see them]`;
  return { text: [header, first, ...lines.slice(0, VIEW_LIMITS.maxEntries), note].join('\n'), truncated: true };
}
