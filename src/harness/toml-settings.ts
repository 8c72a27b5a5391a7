/**
 * gitmem's `[mcp_servers.gitmem]` table in Codex's config.toml. No TOML library edits text without
 * re-printing it, so the table is a delimited block of our own text appended at the end (after one blank
 * line), found again by its marker comment: everything else keeps its bytes, comments and order.
 * smol-toml only validates (before and after), so a malformed file is refused with its line and column.
 */
import { parse, TomlError } from 'smol-toml';
import type { HarnessId } from './catalogue.js';
import type { McpServer } from './command-line.js';
import { settingsError } from './settings-error.js';

const MARKER_PREFIX = '# gitmem: added by `gitmem connect';
const HEADER = '[mcp_servers.gitmem]';

function marker(harness: HarnessId): string {
  return `${MARKER_PREFIX} ${harness}\`; \`gitmem disconnect ${harness}\` removes this table`;
}

/**
 * A TOML basic string: JSON's escapes are TOML's too, plus DEL, which TOML requires escaped.
 * @example tomlString('a"b') === '"a\\"b"'
 */
export function tomlString(s: string): string {
  return JSON.stringify(s).replaceAll('\x7f', '\\u007F');
}

/** The block connect writes, each line ending in `eol`. */
export function renderBlock(harness: HarnessId, server: McpServer, eol = '\n'): string {
  const lines = [
    marker(harness),
    HEADER,
    `command = ${tomlString(server.command)}`,
    `args = [${server.args.map(tomlString).join(', ')}]`,
  ];
  return lines.map((l) => l + eol).join('');
}

function check(path: string, text: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const why = err.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? 'invalid';
    throw settingsError(path, { line: err.line, col: err.column }, `not valid TOML (${why})`);
  }
}

function gitmemTable(doc: Record<string, unknown>): unknown {
  const servers = doc['mcp_servers'];
  return typeof servers === 'object' && servers !== null ? (servers as Record<string, unknown>)['gitmem'] : undefined;
}

/** Character range of our block: marker through the table's last line (not trailing blanks or comments). */
interface Block {
  start: number;
  end: number;
  /** Start of the blank line before the marker (what connect added), else `start`. */
  startWithBlank: number;
}

function findBlock(text: string): Block | undefined {
  const lines = text.split(/(?<=\n)/); // each line keeps its ending
  const offsets: number[] = [];
  lines.reduce((at, line) => (offsets.push(at), at + line.length), 0);
  const m = lines.findIndex((l, i) => l.startsWith(MARKER_PREFIX) && lines[i + 1]?.trim() === HEADER);
  if (m < 0) return undefined;
  let e = lines.findIndex((l, i) => i > m + 1 && /^\s*\[/.test(l));
  if (e < 0) e = lines.length;
  // Blank lines and comments just before the next table belong to it, not to ours.
  while (e > m + 2 && /^\s*(#.*)?\r?\n?$/.test(lines[e - 1] ?? '')) e -= 1;
  const start = offsets[m] ?? 0;
  const blankBefore = m > 0 && /^\r?\n$/.test(lines[m - 1] ?? '');
  return { start, end: offsets[e] ?? text.length, startWithBlank: blankBefore ? (offsets[m - 1] ?? start) : start };
}

/**
 * `text` (undefined: no file yet) with our `[mcp_servers.gitmem]` table set to `server`: appended, or
 * our older block replaced in place; the same text when it is already there. Refuses a malformed file
 * and a `mcp_servers.gitmem` the user wrote.
 */
export function addTomlServer(path: string, text: string | undefined, harness: HarnessId, server: McpServer): string {
  const before = text ?? '';
  const doc = check(path, before);
  const eol = before.includes('\r\n') ? '\r\n' : '\n';
  const block = findBlock(before);
  const wanted = renderBlock(harness, server, eol);
  let out: string;
  if (block) {
    out = before.slice(0, block.start) + wanted + before.slice(block.end);
  } else if (gitmemTable(doc) !== undefined) {
    throw settingsError(
      path,
      { line: lineOf(before, 'gitmem'), col: 1 },
      'already defines mcp_servers.gitmem, not written by gitmem connect (remove it, then connect again)',
    );
  } else {
    out = before === '' ? wanted : `${before}${before.endsWith('\n') ? '' : eol}${eol}${wanted}`;
  }
  if (out === before) return before;
  // A `mcp_servers = { … }` inline table cannot be extended by a [mcp_servers.gitmem] header.
  let added: unknown;
  try {
    added = gitmemTable(parse(out) as Record<string, unknown>);
  } catch {
    added = undefined;
  }
  if (added === undefined)
    throw settingsError(
      path,
      { line: lineOf(before, 'mcp_servers'), col: 1 },
      'cannot take a [mcp_servers.gitmem] table appended at its end',
    );
  return out;
}

/** First line mentioning `word` in a table header or key (where the user's gitmem server is). */
function lineOf(text: string, word: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(word) && !l.trimStart().startsWith('#'));
  return i < 0 ? 1 : i + 1;
}

/** `text` without our block and the blank line connect put before it; the same text when there is none. */
export function removeTomlServer(path: string, text: string): string {
  check(path, text);
  const block = findBlock(text);
  return block ? text.slice(0, block.startWithBlank) + text.slice(block.end) : text;
}

/** What `text` holds: our block's server, a server the user wrote, or none. */
export function readTomlServer(path: string, text: string | undefined): { ours: boolean; server: unknown } | undefined {
  const doc = check(path, text ?? '');
  const server = gitmemTable(doc);
  if (server === undefined) return undefined;
  return { ours: findBlock(text ?? '') !== undefined, server };
}
