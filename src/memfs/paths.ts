/**
 * Turns a path argument from a tool call into a safe repo-relative memory path: pure, applied before any
 * file-system access, and held to the one path rule (blocks/path-rules.ts) so a `.git` look-alike, a name
 * git would refuse or a huge/deep path never reaches the disk. Links are refused where files are touched
 * (repo-fs.ts), never resolved.
 *
 * Which file a path names: one ending in `.md` is that markdown file; one whose last component has another
 * extension (`notes/progress.json`, `todo.txt`) is exactly that plain file; one without an extension is
 * markdown, `.md` appended (`system/human` → `system/human.md`).
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { PATH_LIMITS, pathProblem } from '../blocks/path-rules.js';
import { MemoryError } from '../errors.js';

export interface NormalizeOptions {
  /** Absolute memory directory (absolute inputs inside it are accepted). */
  memoryDir: string;
  /** Parameter name used in messages (`file_path`, `old_path`, …). */
  field: string;
  /** Prefix for messages, e.g. `memory` or `memory_apply_patch`. */
  tool?: string;
}

/**
 * A normalised memory path: `file` is the repo-relative file; `label` is the same without a final `.md`
 * (commands use it to name a directory).
 */
export interface MemoryPath {
  label: string;
  file: string;
}

const WINDOWS_DRIVE = /^[A-Za-z]:[\\/]/;

function fail(code: 'INVALID_PATH' | 'PATH_ESCAPE', message: string, field: string, value: string): never {
  const shown = value.length > 200 ? `${value.slice(0, 200)}…` : value;
  throw new MemoryError(code, message, { data: { field, value: shown } });
}

function stripAbsolute(input: string, o: NormalizeOptions, tool: string): string {
  const root = resolve(o.memoryDir);
  const abs = WINDOWS_DRIVE.test(input) ? input.replace(/\\/g, '/') : resolve(input);
  const rel = relative(root, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    fail(
      'PATH_ESCAPE',
      `${tool}: '${o.field}' is outside the memory directory {${root}}; use a path relative to it`,
      o.field,
      input,
    );
  }
  return rel.split(sep).join('/');
}

/**
 * Normalises a memory path argument.
 * @example normalizeMemoryPath('system/human.md', { memoryDir: '/m', field: 'file_path' })
 *   // { label: 'system/human', file: 'system/human.md' }
 */
export function normalizeMemoryPath(input: unknown, o: NormalizeOptions): MemoryPath {
  const tool = o.tool ?? 'memory';
  if (typeof input !== 'string' || input.trim() === '') {
    fail('INVALID_PATH', `${tool}: '${o.field}' must be a non-empty string`, o.field, String(input));
  }
  // Size first: UTF-8 is never shorter than UTF-16, so a longer string cannot fit (allowing for an absolute
  // prefix and `.md`); a hostile 50,000-segment path costs one comparison.
  if (input.length > PATH_LIMITS.maxPathBytes + o.memoryDir.length + 16) {
    fail(
      'INVALID_PATH',
      `${tool}: '${o.field}' is ${input.length} characters long (at most ${PATH_LIMITS.maxPathBytes} bytes)`,
      o.field,
      input,
    );
  }
  if (input.includes('\0')) fail('INVALID_PATH', `${tool}: '${o.field}' contains invalid null bytes`, o.field, input);
  const trimmed = input.trim();
  if (/^(~|\$HOME|\$\{HOME\}|"\$HOME")(\/|\\|$)/.test(trimmed)) {
    fail(
      'INVALID_PATH',
      `${tool}: '${o.field}' must be a memory-relative file path, not a home-relative filesystem path`,
      o.field,
      input,
    );
  }
  let p = isAbsolute(trimmed) || WINDOWS_DRIVE.test(trimmed) ? stripAbsolute(trimmed, o, tool) : trimmed;
  p = p.replace(/\\/g, '/');
  if (p.startsWith('/'))
    fail('INVALID_PATH', `${tool}: '${o.field}' must be a relative path like system/notes.md`, o.field, input);
  if (p.startsWith('memory/')) p = p.slice('memory/'.length);
  const segments = p.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..')) {
    fail('INVALID_PATH', `${tool}: '${o.field}' contains invalid path traversal segment`, o.field, input);
  }
  const joined = segments.join('/');
  const label = joined.endsWith('.md') ? joined.slice(0, -3) : joined;
  if (label === '' || label.endsWith('/'))
    fail('INVALID_PATH', `${tool}: '${o.field}' resolves to an empty memory label`, o.field, input);
  const file = joined.endsWith('.md') || !hasExtension(label) ? `${label}.md` : label;
  // The label is checked too: commands use it as a directory (delete), so `.git.md` must not mean `.git`.
  const problem = pathProblem(label) ?? pathProblem(file);
  if (problem) fail('INVALID_PATH', `${tool}: '${o.field}' is refused: ${problem}`, o.field, input);
  return { label, file };
}

/** True when the last component has an extension: a `.` after its first character, followed by something. */
function hasExtension(path: string): boolean {
  return /[^/]\.[^./]+$/.test(path.slice(path.lastIndexOf('/') + 1));
}
