/**
 * Parses the text of a `memory_apply_patch` call into file operations. Pure: no paths are
 * resolved and no files are read here; plan.ts does that.
 */
import { MemoryError } from '../../errors.js';

/** One line of a hunk: ' ' context, '+' added, '-' removed. A blank patch line is context with text ''. */
export interface HunkLine {
  kind: ' ' | '+' | '-';
  text: string;
}

/** One `@@` hunk. `endOfFile` is set when the hunk was closed by `*** End of File` (anchored at EOF). */
export interface Hunk {
  lines: HunkLine[];
  endOfFile: boolean;
}

/** A parsed patch operation; paths are exactly as written in the patch (normalised later). */
export type PatchOp =
  | { type: 'add'; path: string; lines: string[] }
  | { type: 'update'; path: string; moveTo?: string; hunks: Hunk[] }
  | { type: 'delete'; path: string };

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const END_OF_FILE = '*** End of File';
const ADD = '*** Add File:';
const UPDATE = '*** Update File:';
const DELETE = '*** Delete File:';
const MOVE = '*** Move to:';

function invalid(message: string, line: number): never {
  throw new MemoryError('PATCH_INVALID', `memory_apply_patch: ${message}`, { data: { line } });
}

/** A raw line that closes an Add File body or a hunk: any `*** ` marker. */
function isMarker(raw: string): boolean {
  return raw.startsWith('*** ');
}

/** Cursor over the lines strictly between Begin Patch and End Patch; `line(i)` is 1-based for messages. */
interface Cursor {
  lines: string[];
  i: number;
  end: number;
}

function parseAdd(c: Cursor, path: string): PatchOp {
  const lines: string[] = [];
  while (c.i < c.end && !isMarker(c.lines[c.i] as string)) {
    const raw = c.lines[c.i] as string;
    if (!raw.startsWith('+')) invalid(`invalid Add File line at ${c.i + 1}: expected '+' prefix`, c.i + 1);
    lines.push(raw.slice(1));
    c.i++;
  }
  if (lines.length === 0) invalid(`Add File for ${path} must include at least one + line`, c.i);
  return { type: 'add', path, lines };
}

function parseHunkLine(raw: string, lineNo: number): HunkLine {
  if (raw === '') return { kind: ' ', text: '' };
  const kind = raw[0];
  if (kind === ' ' || kind === '+' || kind === '-') return { kind, text: raw.slice(1) };
  return invalid(`invalid hunk line at ${lineNo}: expected one of ' ', '+', '-'`, lineNo);
}

/** Reads one hunk whose `@@` header is at `c.i`; stops at the next `@@`, a `*** ` marker, or End Patch. */
function parseHunk(c: Cursor): Hunk {
  const hunk: Hunk = { lines: [], endOfFile: false };
  c.i++; // the @@ header; anything after "@@" is ignored
  while (c.i < c.end) {
    const raw = c.lines[c.i] as string;
    if (raw.startsWith('@@')) break;
    if (raw.trimEnd() === END_OF_FILE) {
      hunk.endOfFile = true;
      c.i++;
      break;
    }
    if (isMarker(raw)) break;
    hunk.lines.push(parseHunkLine(raw, c.i + 1));
    c.i++;
  }
  return hunk;
}

function parseUpdate(c: Cursor, path: string): PatchOp {
  let moveTo: string | undefined;
  const next = c.lines[c.i];
  if (c.i < c.end && next !== undefined && next.startsWith(MOVE)) {
    moveTo = next.slice(MOVE.length).trim();
    c.i++;
  }
  const hunks: Hunk[] = [];
  while (c.i < c.end && !isMarker(c.lines[c.i] as string)) {
    if (!(c.lines[c.i] as string).startsWith('@@')) {
      invalid(`invalid Update File body at ${c.i + 1}: expected '@@' hunk header`, c.i + 1);
    }
    hunks.push(parseHunk(c));
  }
  if (hunks.length === 0) invalid(`Update File for ${path} has no hunks`, c.i);
  return moveTo === undefined ? { type: 'update', path, hunks } : { type: 'update', path, moveTo, hunks };
}

function parseDirective(c: Cursor): PatchOp {
  const lineNo = c.i + 1;
  const trimmed = (c.lines[c.i] as string).trim();
  c.i++;
  if (trimmed.startsWith(ADD)) return parseAdd(c, trimmed.slice(ADD.length).trim());
  if (trimmed.startsWith(UPDATE)) return parseUpdate(c, trimmed.slice(UPDATE.length).trim());
  if (trimmed.startsWith(DELETE)) return { type: 'delete', path: trimmed.slice(DELETE.length).trim() };
  return invalid(`unknown patch directive at line ${lineNo}: ${trimmed}`, lineNo);
}

/** Finds End Patch and checks nothing but blank lines follows it; returns its index. */
function findEnd(lines: string[]): number {
  const end = lines.findIndex((l, idx) => idx > 0 && l.trim() === END);
  if (end === -1) invalid(`patch must end with "${END}"`, lines.length);
  const extra = lines.findIndex((l, idx) => idx > end && l.trim() !== '');
  if (extra !== -1) invalid(`unexpected content after ${END}`, extra + 1);
  return end;
}

/**
 * Parses a patch. `*** End of File` is accepted as a hunk terminator and marks the hunk as
 * anchored at the end of the file. Throws PATCH_INVALID (`data.line`, 1-based) on any grammar error,
 * including a patch with no operations.
 * @example
 *   parsePatch('*** Begin Patch\n*** Delete File: notes/old.md\n*** End Patch')
 *   // [{ type: 'delete', path: 'notes/old.md' }]
 */
export function parsePatch(input: string): PatchOp[] {
  const lines = input.split(/\r?\n/);
  if ((lines[0] ?? '').trim() !== BEGIN) invalid(`patch must start with "${BEGIN}"`, 1);
  const c: Cursor = { lines, i: 1, end: findEnd(lines) };
  const ops: PatchOp[] = [];
  while (c.i < c.end) {
    if ((c.lines[c.i] as string).trim() === '') {
      c.i++;
      continue;
    }
    ops.push(parseDirective(c));
  }
  if (ops.length === 0) invalid('no file operations found in patch', c.end + 1);
  return ops;
}
