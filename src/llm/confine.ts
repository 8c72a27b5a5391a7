/**
 * Keeps the sub-agent's file tools inside their root (a reflection worktree): rejects traversal, absolute
 * paths elsewhere, symbolic links that lead out, and writes into `.git`.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { MemoryError } from '../errors.js';

/** What the caller wants to do with the path. */
export type Access = 'read' | 'write';

/** A path checked by {@link confinePath}. */
export interface ConfinedPath {
  /** Absolute path on disk. */
  abs: string;
  /** Root-relative path with `/` separators (`''` for the root itself). */
  rel: string;
}

function refuse(code: 'INVALID_PATH' | 'PATH_ESCAPE', message: string, path: string): never {
  throw new MemoryError(code, message, { data: { path } });
}

function isOutside(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** The deepest existing ancestor of `abs` (or `abs` itself), without following the last link. */
function deepestExisting(abs: string): string {
  let probe = abs;
  for (;;) {
    try {
      lstatSync(probe);
      return probe;
    } catch {
      const parent = dirname(probe);
      if (parent === probe) return probe;
      probe = parent;
    }
  }
}

function checkLinks(realRoot: string, abs: string, input: string): void {
  const existing = deepestExisting(abs);
  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    return refuse('PATH_ESCAPE', `path ${JSON.stringify(input)} goes through a broken symbolic link`, input);
  }
  if (isOutside(relative(realRoot, real))) {
    refuse(
      'PATH_ESCAPE',
      `path ${JSON.stringify(input)} resolves through a symbolic link to outside the memory directory`,
      input,
    );
  }
}

/**
 * Resolves a tool's path argument against `root` and refuses anything that leaves it.
 * @example confinePath('/wt', 'system/human.md', 'write').rel === 'system/human.md'
 * @example confinePath('/wt', '../etc/passwd', 'read') // throws PATH_ESCAPE
 */
export function confinePath(root: string, input: unknown, access: Access, allowRoot = false): ConfinedPath {
  if (typeof input !== 'string' || input.trim() === '') {
    return refuse('INVALID_PATH', 'path must be a non-empty string (relative to the memory directory)', String(input));
  }
  if (input.includes('\0')) refuse('INVALID_PATH', 'path contains a NUL byte', input);
  const base = resolve(root);
  const abs = resolve(base, input.trim());
  const rel = relative(base, abs);
  if (isOutside(rel)) refuse('PATH_ESCAPE', `path ${JSON.stringify(input)} is outside the memory directory`, input);
  if (rel === '' && !allowRoot) refuse('INVALID_PATH', 'path names the memory directory itself, not a file', input);
  const parts = rel.split(sep);
  if (access === 'write' && parts.includes('.git')) {
    refuse('INVALID_PATH', `path ${JSON.stringify(input)} points into .git; git internals are off limits`, input);
  }
  checkLinks(realpathSync(base), abs, input);
  return { abs, rel: parts.join('/') };
}
