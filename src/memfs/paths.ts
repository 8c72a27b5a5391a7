/**
 * Turns a path argument from a tool call into a safe repo-relative memory path (SPEC §4.4), and checks
 * on disk that no symlink along it leads out of the repository.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { MemoryError } from '../errors.js';

export interface NormalizeOptions {
  /** Absolute memory directory (absolute inputs inside it are accepted). */
  memoryDir: string;
  /** Parameter name used in messages (`file_path`, `old_path`, …). */
  field: string;
  /** Prefix for messages, e.g. `memory` or `memory_apply_patch`. */
  tool?: string;
}

/** A normalised memory path: `label` has no `.md`; `file` is the repo-relative markdown path. */
export interface MemoryPath {
  label: string;
  file: string;
}

const WINDOWS_DRIVE = /^[A-Za-z]:[\\/]/;

function fail(code: 'INVALID_PATH' | 'PATH_ESCAPE', message: string, field: string, value: string): never {
  throw new MemoryError(code, message, { data: { field, value } });
}

function stripAbsolute(input: string, o: NormalizeOptions, tool: string): string {
  const root = resolve(o.memoryDir);
  const abs = WINDOWS_DRIVE.test(input) ? input.replace(/\\/g, '/') : resolve(input);
  const rel = relative(root, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    fail('PATH_ESCAPE', `${tool}: '${o.field}' is outside the memory directory {${root}}; use a path relative to it`, o.field, input);
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
  if (input.includes('\0')) fail('INVALID_PATH', `${tool}: '${o.field}' contains invalid null bytes`, o.field, input);
  const trimmed = input.trim();
  if (/^(~|\$HOME|\$\{HOME\}|"\$HOME")(\/|\\|$)/.test(trimmed)) {
    fail('INVALID_PATH', `${tool}: '${o.field}' must be a memory-relative file path, not a home-relative filesystem path`, o.field, input);
  }
  let p = isAbsolute(trimmed) || WINDOWS_DRIVE.test(trimmed) ? stripAbsolute(trimmed, o, tool) : trimmed;
  p = p.replace(/\\/g, '/');
  if (p.startsWith('/')) fail('INVALID_PATH', `${tool}: '${o.field}' must be a relative path like system/notes.md`, o.field, input);
  if (p.startsWith('memory/')) p = p.slice('memory/'.length);
  const segments = p.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..')) {
    fail('INVALID_PATH', `${tool}: '${o.field}' contains invalid path traversal segment`, o.field, input);
  }
  if (segments[0] === '.git') fail('INVALID_PATH', `${tool}: '${o.field}' may not point into .git`, o.field, input);
  let label = segments.join('/');
  if (label.endsWith('.md')) label = label.slice(0, -3);
  if (label === '' || label.endsWith('/')) fail('INVALID_PATH', `${tool}: '${o.field}' resolves to an empty memory label`, o.field, input);
  return { label, file: `${label}.md` };
}

/**
 * Refuses a repo-relative path whose existing part passes through a symlink that leads outside the
 * repository (or that is itself a symlink to outside).
 */
export function assertInsideRepo(memoryDir: string, repoRelative: string, field = 'file_path', tool = 'memory'): void {
  const root = realpathSync(memoryDir);
  let probe = join(memoryDir, repoRelative);
  // Walk up to the deepest existing ancestor (or the file itself when it exists).
  for (;;) {
    try {
      lstatSync(probe);
      break;
    } catch {
      const parent = dirname(probe);
      if (parent === probe) return;
      probe = parent;
    }
  }
  let real: string;
  try {
    real = realpathSync(probe);
  } catch {
    // A dangling symlink: resolve where it points without following further.
    fail('PATH_ESCAPE', `${tool}: '${field}' goes through a broken symbolic link`, field, repoRelative);
  }
  const rel = relative(root, real);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    fail('PATH_ESCAPE', `${tool}: '${field}' resolves through a symbolic link to outside the memory repository`, field, repoRelative);
  }
}
