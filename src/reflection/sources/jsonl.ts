/**
 * Reading a harness's JSONL log from a byte offset, so a hook can read only what was appended since its last
 * read: complete lines only, offsets in bytes (never UTF-16 units), huge lines skipped, the torn tail of a live
 * log left for the next read. Shared by the Claude Code and Codex sources.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { MemoryError } from '../../errors.js';
import { notOfShape, parseJson } from './common.js';

/**
 * Longest line read (8 MiB). A longer one (a pasted image, a huge tool output) is skipped undecoded, its bytes
 * counted as consumed, so one giant record neither crashes a read nor is held in memory as text too.
 */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

const NL = 0x0a;

/** One accepted line: its value and the byte offset where it starts (a stable key across reads). */
export interface JsonlLine<T> {
  value: T;
  at: number;
}

/** What {@link readJsonlFrom} checks each line against and names in a refusal. */
export interface JsonlShape<T> {
  /** "a Claude Code session", "a Codex rollout" (refusals read "Could not read <path> as <what>"). */
  what: string;
  expected: string;
  isLine: (v: unknown, at: number) => v is T;
  /**
   * Whole-file reads also take an unterminated last line (a hand-written file may lack the final newline);
   * incremental reads never do, since it may still be growing. It never counts as consumed.
   */
  includeTail?: boolean;
}

/** A raw line: where it starts, its text (undefined when over {@link MAX_LINE_BYTES}), where the next begins. */
interface RawLine {
  at: number;
  text: string | undefined;
  /** Offset after its '\n'; undefined for an unterminated last line. */
  next: number | undefined;
}

/** The bytes of `path` from `offset` to its end, read into one Buffer (the file is not decoded whole). */
function readBytesFrom(path: string, offset: number): Buffer {
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new MemoryError('INVALID_ARGUMENT', `offset must be a byte offset (a non-negative integer), got ${offset}`, {
      data: { path, offset },
    });
  }
  if (!existsSync(path) || !statSync(path).isFile())
    throw new MemoryError('FILE_NOT_FOUND', `source file not found: ${path}`, { data: { path } });
  // Non-blocking, and checked again on the descriptor: a path swapped for a FIFO after the check never hangs the read.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new MemoryError('FILE_NOT_FOUND', `source file not found: ${path}`, { data: { path } });
    const size = st.size;
    if (offset > size) {
      // the log was replaced or truncated: the caller's offset belongs to another file
      throw new MemoryError('INVALID_ARGUMENT', `offset ${offset} is past the end of ${path} (${size} bytes)`, {
        data: { path, offset, size },
      });
    }
    const buf = Buffer.alloc(size - offset);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, offset + got);
      if (n === 0) break; // the file shrank while reading
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** The line starts of the bytes (a line is decoded only when asked for, and never when over-long). */
function lineStarts(buf: Buffer): number[] {
  const starts: number[] = [];
  for (let start = 0; start < buf.length;) {
    starts.push(start);
    const nl = buf.indexOf(NL, start);
    start = nl < 0 ? buf.length : nl + 1;
  }
  return starts;
}

function rawLine(buf: Buffer, offset: number, start: number): RawLine {
  const nl = buf.indexOf(NL, start);
  const stop = nl < 0 ? buf.length : nl;
  const text = stop - start > MAX_LINE_BYTES ? undefined : buf.toString('utf8', start, stop);
  return { at: offset + start, text, next: nl < 0 ? undefined : offset + nl + 1 };
}

/** True when bytes [from, to) are only ASCII whitespace (what may follow a torn last line). */
function onlyBlank(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (![0x20, 0x09, 0x0d, NL].includes(buf[i] ?? NL)) return false;
  return true;
}

/**
 * The lines of a JSONL log from byte `offset` (0, or an `end` a previous read returned) and `end`, the offset
 * just after the last complete line consumed. Blank and over-long lines are consumed and skipped. Every other
 * line must satisfy `shape.isLine` (else INVALID_ARGUMENT naming it: "line N" from the start of the file, or
 * "line at byte B" when reading from an offset), except a last line that is not JSON after accepted lines or
 * after `offset` > 0: a live log's torn tail, ignored and not consumed, so it is read again once complete.
 * @example const { lines, end } = readJsonlFrom(path, 0, { what: 'a log', expected: 'JSON objects', isLine })
 */
export function readJsonlFrom<T>(
  path: string,
  offset: number,
  shape: JsonlShape<T>,
): { lines: JsonlLine<T>[]; end: number } {
  const buf = readBytesFrom(path, offset);
  const starts = lineStarts(buf);
  const unterminated = buf.length > 0 && buf[buf.length - 1] !== NL;
  if (unterminated && shape.includeTail !== true) starts.pop(); // still being written
  const limit = shape.includeTail === true ? buf.length : buf.lastIndexOf(NL) + 1; // bytes this read may use
  const lines: JsonlLine<T>[] = [];
  let end = offset;
  for (const [i, start] of starts.entries()) {
    const l = rawLine(buf, offset, start);
    if (l.text !== undefined && l.text.trim() !== '') {
      const v = parseJson(l.text);
      if (!shape.isLine(v, l.at)) {
        const last = onlyBlank(buf, l.next === undefined ? limit : l.next - offset, limit);
        if (v === undefined && last && (lines.length > 0 || offset > 0)) break; // a torn tail: not consumed
        const where = offset === 0 ? `line ${i + 1}` : `line at byte ${l.at}`;
        throw notOfShape(shape.what, path, where, shape.expected);
      }
      lines.push({ value: v, at: l.at });
    }
    if (l.next !== undefined) end = l.next;
  }
  return { lines, end };
}

/**
 * The first line of a file (without its '\n'), read in chunks so a large first record does not mean reading the
 * whole file; undefined when it is over {@link MAX_LINE_BYTES} or the file is empty.
 * @example parseJson(readFirstLine('/…/rollout-….jsonl') ?? '') // { type: 'session_meta', … }
 */
export function readFirstLine(path: string): string | undefined {
  const fd = openSync(path, 'r');
  try {
    const chunks: Buffer[] = [];
    for (let pos = 0, size = 0; size <= MAX_LINE_BYTES;) {
      const chunk = Buffer.alloc(64 * 1024);
      const n = readSync(fd, chunk, 0, chunk.length, pos);
      const nl = chunk.subarray(0, n).indexOf(NL);
      chunks.push(chunk.subarray(0, nl < 0 ? n : nl));
      size += nl < 0 ? n : nl;
      if (nl >= 0 || n === 0) return size === 0 ? undefined : Buffer.concat(chunks).toString('utf8');
      pos += n;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}
