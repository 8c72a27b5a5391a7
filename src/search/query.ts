/**
 * Turns query text (from a user or a model: hostile) into an FTS5 MATCH expression built only from folded
 * words, each quoted, so no character of the input can act as FTS5 syntax. Words are alternatives (BM25
 * ranks files matching more, and rarer, words first); "quoted phrases" must occur as written; the last
 * word also matches as a prefix while it is being typed.
 */
import { MemoryError } from '../errors.js';
import { tokenize } from './text.js';
import { SEARCH_LIMITS } from './types.js';

/** One alternative of a query: a word (maybe a prefix) or a phrase of several words. */
export interface QueryItem {
  words: string[];
  prefix: boolean;
}

export interface ParsedQuery {
  items: QueryItem[];
  /** The FTS5 expression ('' when the query has no words: it matches nothing). */
  match: string;
}

// Control characters other than tab and newlines never belong in a query.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function refuse(why: string): never {
  throw new MemoryError('INVALID_ARGUMENT', `search query ${why}`);
}

/** Checks the query's type and bounds (pure): INVALID_ARGUMENT for what is refused. */
export function checkQuery(query: unknown): string {
  if (typeof query !== 'string') return refuse('must be a string');
  if (query.length > SEARCH_LIMITS.queryChars)
    refuse(`is ${query.length} characters long (at most ${SEARCH_LIMITS.queryChars})`);
  if (query.trim() === '') refuse('is empty');
  if (CONTROL.test(query)) refuse('contains control characters (NUL, escape, …)');
  if (!query.isWellFormed()) refuse('is not valid Unicode (lone surrogate)');
  return query;
}

const quote = (word: string): string => `"${word.replace(/"/g, '""')}"`;

function render(item: QueryItem): string {
  return `${quote(item.words.join(' '))}${item.prefix ? ' *' : ''}`;
}

/**
 * Parses a checked query.
 * @example parseQuery('coffee "dark roast" pref').match // '"coffee" OR "dark roast" OR "pref" *'
 */
export function parseQuery(query: string): ParsedQuery {
  const items: QueryItem[] = [];
  const seen = new Set<string>();
  const add = (words: string[], prefix: boolean): void => {
    const key = `${prefix ? '*' : ''}${words.join(' ')}`;
    if (words.length === 0 || seen.has(key) || items.length >= SEARCH_LIMITS.queryTerms) return;
    seen.add(key);
    items.push({ words, prefix });
  };
  const parts = query.split('"');
  const endsOpen = !/[\s"]$/.test(query);
  parts.forEach((part, i) => {
    const quoted = i % 2 === 1 && i < parts.length - 1; // an unclosed quote's text counts as plain words
    const words = tokenize(part);
    if (quoted) return add(words, false);
    words.forEach((w, j) => {
      const last = i === parts.length - 1 && j === words.length - 1 && endsOpen;
      add([w], last && w.length >= 2);
    });
  });
  return { items, match: items.map(render).join(' OR ') };
}
