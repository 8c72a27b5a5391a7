/**
 * Checks `memory.search` options (pure): every refusal is INVALID_ARGUMENT naming the option, before any
 * git or index work. Globs are compiled once here (picomatch: `*` stays within a directory, `**` crosses
 * them, dotfiles match like any other name); a path matches when any glob does.
 */
import picomatch from 'picomatch';
import { MemoryError } from '../errors.js';
import { classifyRevision } from '../git/revision.js';
import { SEARCH_LIMITS, SEARCH_MODES, type SearchMode, type SearchOptions } from './types.js';

export interface CheckedOptions {
  at: string | undefined;
  limit: number;
  pathOk: ((path: string) => boolean) | undefined;
  mode: SearchMode | undefined;
}

const KNOWN = new Set(['at', 'limit', 'paths', 'mode']);

/** Refuses an option; the message quotes the option's name ('limit'), as every argument error does. */
function bad(message: string, field: string): never {
  throw new MemoryError('INVALID_ARGUMENT', message, { data: { field } });
}

function checkLimit(limit: unknown): number {
  if (limit === undefined) return SEARCH_LIMITS.defaultLimit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMITS.maxLimit) {
    bad(`search: 'limit' must be an integer from 1 to ${SEARCH_LIMITS.maxLimit}`, 'limit');
  }
  return limit;
}

function checkGlobs(paths: unknown): ((path: string) => boolean) | undefined {
  if (paths === undefined) return undefined;
  const list = typeof paths === 'string' ? [paths] : paths;
  if (!Array.isArray(list) || list.length === 0)
    bad("search: 'paths' must be a glob or a non-empty list of globs", 'paths');
  if (list.length > SEARCH_LIMITS.maxGlobs)
    bad(`search: 'paths' may list at most ${SEARCH_LIMITS.maxGlobs} globs`, 'paths');
  for (const g of list) {
    if (typeof g !== 'string' || g.trim() === '' || g.length > SEARCH_LIMITS.globChars || g.includes('\0')) {
      bad(
        `search: each of 'paths' must be a non-empty string of at most ${SEARCH_LIMITS.globChars} characters`,
        'paths',
      );
    }
  }
  // A glob naming a directory (`notes`, `notes/`) means everything under it, as a user expects.
  const expanded = (list as string[]).flatMap((g) =>
    /[*?[\]{}]/.test(g) ? [g] : [g.replace(/\/+$/, ''), `${g.replace(/\/+$/, '')}/**`],
  );
  try {
    return picomatch(expanded, { dot: true, strictBrackets: true, noextglob: true });
  } catch (err) {
    return bad(`search: a glob in 'paths' is malformed: ${(err as Error).message}`, 'paths');
  }
}

/**
 * Validates options.
 * @example checkOptions({ limit: 5, paths: 'notes/**' }).limit === 5
 */
export function checkOptions(options: unknown): CheckedOptions {
  if (options === undefined || options === null)
    return { at: undefined, limit: SEARCH_LIMITS.defaultLimit, pathOk: undefined, mode: undefined };
  if (typeof options !== 'object' || Array.isArray(options)) bad('search options must be an object', 'options');
  const o = options as SearchOptions & Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KNOWN.has(k) && o[k] !== undefined);
  if (unknown.length > 0) bad(`unknown search option ${unknown.join(', ')}`, unknown[0] ?? '');
  if (o.at !== undefined) classifyRevision(o.at);
  if (o.mode !== undefined && !SEARCH_MODES.includes(o.mode))
    bad(`search: 'mode' must be one of ${SEARCH_MODES.join(', ')}`, 'mode');
  return { at: o.at, limit: checkLimit(o.limit), pathOk: checkGlobs(o.paths), mode: o.mode };
}
