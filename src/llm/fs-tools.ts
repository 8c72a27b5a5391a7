/**
 * The file operations behind the sub-agent's tools (read, list, grep, edit, write), each confined to a
 * root directory. Plain synchronous functions returning text, so they are tested without a model.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryError } from '../errors.js';
import { confinePath } from './confine.js';

/** Largest text a read returns before truncating (characters). */
const READ_CAP = 60_000;
const GREP_CAP = 200;
const LIST_CAP = 500;
const GREP_FILE_MAX = 1_000_000;

function readText(abs: string, rel: string): string {
  if (!existsSync(abs) || !statSync(abs).isFile()) {
    throw new MemoryError('FILE_NOT_FOUND', `no such file: ${rel}`, { data: { path: rel } });
  }
  return readFileSync(abs, 'utf8');
}

/**
 * Reads a file, optionally a window of lines (1-based `offset`, `limit` lines).
 * @example readFileIn(root, { path: 'system/human.md' })
 */
export function readFileIn(root: string, a: { path: string; offset?: number; limit?: number }): string {
  const p = confinePath(root, a.path, 'read');
  let text = readText(p.abs, p.rel);
  if (a.offset !== undefined || a.limit !== undefined) {
    const lines = text.split('\n');
    const start = Math.max(1, a.offset ?? 1) - 1;
    text = lines.slice(start, a.limit === undefined ? undefined : start + Math.max(0, a.limit)).join('\n');
  }
  if (text.length <= READ_CAP) return text;
  return `${text.slice(0, READ_CAP)}\n[truncated: ${text.length} characters in total; read further with offset/limit]`;
}

function walk(root: string, relDir: string, depth: number, out: string[]): void {
  const abs = relDir === '' ? root : join(root, relDir);
  const entries = readdirSync(abs, { withFileTypes: true })
    .filter((e) => e.name !== '.git')
    .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
  for (const e of entries) {
    if (out.length >= LIST_CAP) return;
    const rel = relDir === '' ? e.name : `${relDir}/${e.name}`;
    out.push(e.isDirectory() ? `${rel}/` : rel);
    if (e.isDirectory() && depth > 1) walk(root, rel, depth - 1, out);
  }
}

/**
 * Lists a directory (recursively by default, `.git` hidden); directories end with `/`.
 * @example listDirIn(root, { path: 'system' }) // 'system/human.md\nsystem/persona.md'
 */
export function listDirIn(root: string, a: { path?: string; depth?: number }): string {
  const p = confinePath(root, a.path ?? '.', 'read', true);
  if (!existsSync(p.abs) || !statSync(p.abs).isDirectory()) {
    throw new MemoryError('FILE_NOT_FOUND', `no such directory: ${p.rel || '.'}`, { data: { path: p.rel } });
  }
  const out: string[] = [];
  walk(p.abs, '', Math.max(1, a.depth ?? 8), out);
  const prefix = p.rel === '' ? '' : `${p.rel}/`;
  const lines = out.map((l) => prefix + l);
  if (out.length >= LIST_CAP) lines.push(`[listing stopped at ${LIST_CAP} entries]`);
  return lines.length === 0 ? '(empty directory)' : lines.join('\n');
}

function grepFile(abs: string, rel: string, re: RegExp, out: string[]): void {
  if (statSync(abs).size > GREP_FILE_MAX) return;
  const text = readFileSync(abs, 'utf8');
  if (text.includes('\0')) return;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && out.length < GREP_CAP; i++) {
    if (re.test(lines[i] ?? '')) out.push(`${rel}:${i + 1}: ${(lines[i] ?? '').slice(0, 300)}`);
  }
}

function grepTree(root: string, rel: string, re: RegExp, out: string[]): void {
  const abs = rel === '' ? root : join(root, rel);
  if (statSync(abs).isFile()) return grepFile(abs, rel, re, out);
  for (const e of readdirSync(abs, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (out.length >= GREP_CAP) return;
    if (e.name === '.git' || e.isSymbolicLink()) continue;
    const child = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory() || e.isFile()) grepTree(root, child, re, out);
  }
}

/**
 * Searches file contents with a JavaScript regular expression; prints `path:line: text`.
 * @example grepIn(root, { pattern: 'prefers? tabs', ignoreCase: true })
 */
export function grepIn(root: string, a: { pattern: string; path?: string; ignoreCase?: boolean }): string {
  let re: RegExp;
  try {
    re = new RegExp(a.pattern, a.ignoreCase ? 'i' : '');
  } catch (err) {
    throw new MemoryError('INVALID_ARGUMENT', `invalid regular expression: ${(err as Error).message}`, { cause: err });
  }
  const p = confinePath(root, a.path ?? '.', 'read', true);
  if (!existsSync(p.abs)) throw new MemoryError('FILE_NOT_FOUND', `no such path: ${p.rel}`, { data: { path: p.rel } });
  const out: string[] = [];
  grepTree(root, p.rel, re, out);
  if (out.length >= GREP_CAP) out.push(`[stopped at ${GREP_CAP} matches]`);
  return out.length === 0 ? 'No matches.' : out.join('\n');
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) count++;
  return count;
}

/**
 * Replaces an exact string in a file; it must occur once unless `replace_all` is set.
 * @example editFileIn(root, { path: 'system/human.md', old_string: 'tabs', new_string: 'spaces' })
 */
export function editFileIn(
  root: string,
  a: { path: string; old_string: string; new_string: string; replace_all?: boolean },
): string {
  const p = confinePath(root, a.path, 'write');
  const text = readText(p.abs, p.rel);
  if (a.old_string === '')
    throw new MemoryError('INVALID_ARGUMENT', 'old_string must not be empty; use write_file to create');
  if (a.old_string === a.new_string) throw new MemoryError('NO_CHANGES', 'old_string and new_string are identical');
  const n = countOccurrences(text, a.old_string);
  if (n === 0) throw new MemoryError('NO_MATCH', `old_string not found in ${p.rel}`, { data: { path: p.rel } });
  if (n > 1 && !a.replace_all) {
    throw new MemoryError(
      'AMBIGUOUS_MATCH',
      `old_string occurs ${n} times in ${p.rel}; add context or set replace_all`,
      {
        data: { path: p.rel, count: n },
      },
    );
  }
  writeFileSync(p.abs, text.split(a.old_string).join(a.new_string));
  return `Edited ${p.rel} (${a.replace_all ? n : 1} replacement${n > 1 && a.replace_all ? 's' : ''}).`;
}

/**
 * Creates or overwrites a file (parent directories are created).
 * @example writeFileIn(root, { path: 'project/notes.md', content: '---\ndescription: x\n---\nbody\n' })
 */
export function writeFileIn(root: string, a: { path: string; content: string }): string {
  const p = confinePath(root, a.path, 'write');
  if (typeof a.content !== 'string') throw new MemoryError('INVALID_ARGUMENT', 'content must be a string');
  if (existsSync(p.abs) && statSync(p.abs).isDirectory()) {
    throw new MemoryError('FILE_EXISTS', `${p.rel} is a directory`, { data: { path: p.rel } });
  }
  mkdirSync(dirname(p.abs), { recursive: true });
  const existed = existsSync(p.abs);
  writeFileSync(p.abs, a.content);
  return `${existed ? 'Overwrote' : 'Created'} ${p.rel} (${a.content.length} characters).`;
}
