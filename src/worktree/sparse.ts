/**
 * Cone-mode sparse-checkout patterns for a private worktree: top-level files always, plus whole directories
 * the body reads or writes. Pure, so the rules are tested without git.
 */
import { MemoryError } from '../errors.js';

/** Directories every worker sees by default (the in-context blocks). */
export const DEFAULT_SPARSE_DIRS: readonly string[] = ['system'];

/**
 * Turns a requested path (file or directory, repo-relative) into the directory cone mode must include:
 * a directory stays itself, a file (`reference/x.md`) becomes its parent, a top-level file needs nothing ('').
 * @example sparseDirFor('reference/notes/x.md') === 'reference/notes'
 */
export function sparseDirFor(input: string): string {
  const clean = input
    .replace(/\\/g, '/')
    .replace(/\/+/g, '/')
    .replace(/^\.\//, '')
    .replace(/^\/+|\/+$/g, '');
  if (clean === '' || clean === '.') return '';
  const parts = clean.split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '.git' || p.includes('\0'))) {
    throw new MemoryError('INVALID_PATH', `invalid worktree path ${JSON.stringify(input)}`, { data: { path: input } });
  }
  const last = parts[parts.length - 1] ?? '';
  const looksLikeFile = /\.[A-Za-z0-9]{1,8}$/.test(last) && !input.endsWith('/');
  return looksLikeFile ? parts.slice(0, -1).join('/') : parts.join('/');
}

/**
 * Normalised, de-duplicated directory list: nested dirs under an included dir are dropped.
 * @example normalizeSparseDirs(['system/', 'system/human', 'reference/a.md']) // ['reference', 'system']
 */
export function normalizeSparseDirs(paths: readonly string[]): string[] {
  const dirs = [...new Set(paths.map(sparseDirFor).filter((d) => d !== ''))].sort();
  return dirs.filter((d) => !dirs.some((o) => o !== d && d.startsWith(`${o}/`)));
}

/**
 * The cone-mode pattern file for `dirs` (git's own format: parents are included shallowly).
 * @example renderConePatterns(['reference/deep']) // '/*\n!/*\/\n/reference/\n!/reference/*\/\n/reference/deep/\n'
 */
export function renderConePatterns(dirs: readonly string[]): string {
  const lines = ['/*', '!/*/'];
  const parents = new Set<string>();
  const full = normalizeSparseDirs(dirs);
  for (const dir of full) {
    const parts = dir.split('/');
    for (let i = 1; i < parts.length; i++) parents.add(parts.slice(0, i).join('/'));
  }
  const entries = [...new Set([...parents, ...full])].sort();
  for (const d of entries) {
    lines.push(`/${escapePattern(d)}/`);
    if (parents.has(d) && !full.includes(d)) lines.push(`!/${escapePattern(d)}/*/`);
  }
  return `${lines.join('\n')}\n`;
}

function escapePattern(dir: string): string {
  return dir.replace(/([\\*?[\]!#])/g, '\\$1');
}

/**
 * Reads back the directories recorded in a cone pattern file (the inverse of {@link renderConePatterns}).
 * @example parseConePatterns(renderConePatterns(['system'])) // ['system']
 */
export function parseConePatterns(text: string): string[] {
  const included: string[] = [];
  const parents = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const neg = /^!\/(.+)\/\*\/$/.exec(line);
    if (neg?.[1]) parents.add(unescape(neg[1]));
    const pos = /^\/(.+)\/$/.exec(line);
    if (pos?.[1] && line !== '/*/') included.push(unescape(pos[1]));
  }
  return normalizeSparseDirs(included.filter((d) => !parents.has(d)));
}

function unescape(p: string): string {
  return p.replace(/\\(.)/g, '$1');
}
