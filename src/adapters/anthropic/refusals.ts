/**
 * What the model hears when gitmem refuses a command: one message in the Anthropic tool's own terms. The model
 * has only that tool, so a message names its parameters (`path`, `file_text`, …) and its `/memories` paths,
 * never gitmem's other tools or their parameters (the adapter writes through `memory_apply_patch`), and a line
 * number counts the model's own lines. Pure.
 */
import { isMemoryError, type MemoryError } from '../../errors.js';
import { TOOL_LIMITS } from '../../memfs/limits.js';
import { AnthropicToolError, MEMORIES } from './semantics.js';

/** The parameters of Anthropic's memory tool: the only ones a message may name. */
export const TOOL_PARAMETERS = [
  'command',
  'path',
  'view_range',
  'file_text',
  'old_str',
  'new_str',
  'insert_line',
  'insert_text',
  'old_path',
  'new_path',
] as const;

/** Names from gitmem's own tools that must not reach the model through this one. */
export const FOREIGN_NAMES =
  /memory_apply_patch|memory_view|memory_search|update_description|file_path|old_string|new_string|replace_all|'reason'|'input'|\(reason\)|(?:Add|Update|Delete) File|Move to/;

const fail = (message: string): never => {
  throw new AnthropicToolError(message);
};

/** The tool path of a repository path. */
export const shownPath = (file: string): string => `${MEMORIES}/${file}`;

/**
 * Refuses a text parameter a memory file cannot hold (gitmem stores UTF-8 text: no NUL, no lone surrogate).
 * @example checkToolText('file_text', 'a\0b') // throws: gitmem: `file_text` contains a NUL character, …
 */
export function checkToolText(param: (typeof TOOL_PARAMETERS)[number], value: unknown): string {
  if (typeof value !== 'string') fail(`gitmem: \`${param}\` must be a string`);
  const text = value as string;
  if (text.includes('\0')) fail(`gitmem: \`${param}\` contains a NUL character, which memory files cannot hold`);
  if (!text.isWellFormed())
    fail(`gitmem: \`${param}\` is not valid Unicode (a lone surrogate), which memory files cannot hold`);
  return text;
}

/** Refuses a change too large for one commit (old and new text travel together). */
export function checkChangeSize(patch: string, shown: string): void {
  if (patch.length > TOOL_LIMITS.patchChars) {
    fail(
      `gitmem: the change to ${shown} is too large for one commit (at most ${TOOL_LIMITS.patchChars.toLocaleString('en-US')} characters of old and new text together)`,
    );
  }
}

/** How the files of one command are shown: their tool paths, and the hidden lines above each file's own first line. */
export interface ShownFiles {
  files: readonly string[];
  hiddenLines: (file: string) => number;
}

/** One validator problem line (`<path>[:<line>]: …`) in the model's terms. */
function problemLine(line: string, shown: ShownFiles): string {
  if (line.startsWith('(reason):')) return `(commit message):${line.slice('(reason):'.length)}`;
  const file = [...shown.files].sort((a, b) => b.length - a.length).find((f) => line.startsWith(`${f}:`));
  if (file === undefined) return line;
  const rest = line.slice(file.length);
  const m = /^:(\d+):/.exec(rest);
  if (m === null) return `${shownPath(file)}${rest}`;
  return `${shownPath(file)}:${Math.max(1, Number(m[1]) - shown.hiddenLines(file))}${rest.slice(m[0].length - 1)}`;
}

/** A refusal's one-line detail with repository paths as tool paths and gitmem's tool label dropped. */
function detail(err: MemoryError, shown: ShownFiles): string {
  let text = (err.message.split('\n')[0] ?? '').replace(/^memory_apply_patch:\s*/, '');
  for (const file of [...shown.files].sort((a, b) => b.length - a.length)) {
    text = text.replace(
      new RegExp(`(?<![\\w./-])${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w/-])`, 'g'),
      shownPath(file),
    );
  }
  return text;
}

/**
 * The model's message for a gitmem error: validator problems one per line with tool paths and the model's line
 * numbers, a link refusal in the SDK's words, anything else as `gitmem: <detail>` — or, should a detail still
 * name something of gitmem's own tools, only its code.
 */
export function toolError(err: unknown, shown: ShownFiles): Error {
  if (err instanceof AnthropicToolError || !isMemoryError(err)) return err as Error;
  if (err.code === 'PATH_ESCAPE') return new AnthropicToolError('Path would escape /memories directory via symlink');
  let message: string;
  const problems = (err.data as { errors?: unknown } | undefined)?.errors;
  if (['VALIDATION_FAILED', 'SECRET_DETECTED', 'BUDGET_EXCEEDED'].includes(err.code) && Array.isArray(problems)) {
    message = `${err.message.split('\n')[0] ?? ''}\n  ${problems.map((p) => problemLine(String(p), shown)).join('\n  ')}`;
  } else {
    message = `gitmem: ${detail(err, shown)}`;
  }
  if (FOREIGN_NAMES.test(message)) message = `gitmem refused this change (${err.code}); nothing was written`;
  return new AnthropicToolError(message);
}
