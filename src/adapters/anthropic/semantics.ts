/**
 * Anthropic's memory tool (`memory_20250818`) as pure functions: how its `/memories` paths name files, and
 * what `view` of a file, `str_replace` and `insert` do to a text and answer — the rules and the strings of the
 * local-filesystem implementation in `@anthropic-ai/sdk`, so a model sees the same tool whichever backs it.
 * The text is the one the model wrote (stored-text.ts); lines are `text.split('\n')` (a final newline makes a
 * last empty line), as there.
 */
import { posix } from 'node:path';
import { VIEW_LIMITS } from '../../read/view-format.js';

/** The root every path of the tool starts with. */
export const MEMORIES = '/memories';
const MAX_LINES = 999_999;
const LINE_NUMBER_WIDTH = 6;

/** A refusal with the SDK's message (the tool runner hands `message` to the model as the error result). */
export class AnthropicToolError extends Error {
  override readonly name = 'AnthropicToolError';
}

const fail = (message: string): never => {
  throw new AnthropicToolError(message);
};

/**
 * The repository-relative path a tool path names ('' = the root), refused as the SDK refuses it.
 * @example repoPathOf('/memories/notes/a.md') // 'notes/a.md'
 */
export function repoPathOf(memoryPath: unknown): string {
  if (typeof memoryPath !== 'string' || !memoryPath.startsWith(MEMORIES))
    fail(`Path must start with /memories, got: ${String(memoryPath)}`);
  const p = memoryPath as string;
  const rel = p.slice(MEMORIES.length).replace(/^\//, '');
  const resolved = posix.resolve(rel ? posix.join(MEMORIES, rel) : MEMORIES);
  if (resolved !== MEMORIES && !resolved.startsWith(`${MEMORIES}/`)) fail(`Path ${p} would escape /memories directory`);
  return resolved === MEMORIES ? '' : resolved.slice(MEMORIES.length + 1);
}

const numbered = (line: string, n: number): string => `${String(n).padStart(LINE_NUMBER_WIDTH, ' ')}\t${line}`;

/**
 * `view_range` as the SDK applies it, literally (JS slice rules, its numbering from the unclamped start):
 * the lines to show and the number of the first one.
 */
function rangeOf(viewRange: unknown, lines: readonly string[]): { shown: string[]; first: number } {
  if (!Array.isArray(viewRange) || viewRange.length !== 2) return { shown: [...lines], first: 1 };
  const [a, b] = viewRange as [number, number];
  const start = Math.max(1, a) - 1;
  return { shown: lines.slice(start, b === -1 ? lines.length : b), first: start + 1 };
}

/**
 * A file's text as the tool's `view` shows it: the SDK's lines (not gitmem's own view, which shows no empty line
 * after a final newline), a range as the SDK reads it. Long output is cut by gitmem's view limits, and says so.
 * @example fileView('/memories/a.txt', 'x\ny') // "Here's the content of /memories/a.txt with line numbers:\n     1\tx\n     2\ty"
 */
export function fileView(shown: string, text: string, viewRange?: unknown): string {
  const lines = text.split('\n');
  if (lines.length > MAX_LINES)
    fail(`File ${shown} has too many lines (${lines.length}). Maximum is ${MAX_LINES.toLocaleString()} lines.`);
  const { shown: range, first } = rangeOf(viewRange, lines);
  const header = `Here's the content of ${shown} with line numbers:`;
  const out: string[] = [];
  let chars = 0;
  let i = 0;
  for (; i < range.length && out.length < VIEW_LIMITS.maxLines; i++) {
    const line = numbered(range[i] as string, i + first);
    if (chars + line.length + 1 > VIEW_LIMITS.maxChars && out.length > 0) break;
    out.push(line);
    chars += line.length + 1;
  }
  if (i >= range.length) return `${header}\n${out.join('\n')}`;
  const last = i + first - 1;
  return `${header}\n${out.join('\n')}\n[truncated: lines ${first}-${last} of ${lines.length} shown; view_range [${last + 1}, -1] shows the rest]`;
}

/** A planned edit of one file: its new text and what the tool answers. */
export interface TextEdit {
  after: string;
  result: string;
}

/**
 * `str_replace`: `old_str` must occur on exactly one line (the SDK counts lines that contain it); its first
 * occurrence is replaced, and the answer shows the lines around it.
 */
export function planStrReplace(shown: string, text: string, oldStr: string, newStr: string): TextEdit {
  const lines = text.split('\n');
  const matching: number[] = [];
  lines.forEach((line, i) => {
    if (line.includes(oldStr)) matching.push(i + 1);
  });
  if (matching.length === 0)
    fail(`No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${shown}.`);
  if (matching.length > 1)
    fail(
      `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines: ${matching.join(', ')}. Please ensure it is unique`,
    );
  const after = text.replace(oldStr, () => newStr);
  const newLines = after.split('\n');
  const changed = (matching[0] as number) - 1;
  const from = Math.max(0, changed - 2);
  const to = Math.min(newLines.length, changed + 3);
  const snippet = newLines.slice(from, to).map((line, i) => numbered(line, from + i + 1));
  return {
    after,
    result: `The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${snippet.join('\n')}`,
  };
}

/** `insert`: the text (less one final newline) becomes the lines after line `insertLine`, 0 ≤ it ≤ the line count. */
export function planInsert(shown: string, text: string, insertLine: number, insertText: string): TextEdit {
  const lines = text.split('\n');
  if (insertLine < 0 || insertLine > lines.length) {
    fail(
      `Invalid \`insert_line\` parameter: ${insertLine}. It should be within the range of lines of the file: [0, ${lines.length}]`,
    );
  }
  lines.splice(insertLine, 0, insertText.replace(/\n$/, ''));
  return { after: lines.join('\n'), result: `The file ${shown} has been edited.` };
}

/**
 * The description a markdown file created without frontmatter gets: its first heading, else its first
 * line, else its name (one line, at most `max` characters).
 * @example describeText('# Project Alpha\nnotes', 'a.md') // 'Project Alpha'
 */
export function describeText(text: string, file: string, max = 200): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const heading = lines.find((l) => /^#{1,6}\s+\S/.test(l));
  const first = (heading ?? lines[0] ?? '')
    .replace(/^#{1,6}\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const description = first === '' ? `Memory file ${file}` : first;
  return description.length > max ? `${description.slice(0, max - 1)}…` : description;
}
