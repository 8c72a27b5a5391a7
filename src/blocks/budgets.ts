/**
 * Budgets: how much text a file and the compiled part of memory (`system/`) may hold. Pure: callers pass the
 * sizes they read (a tree listing, HEAD's blobs) and the configured budget; the validator refuses growth
 * past either, and `gitmem tokens` shows use against budget with the same numbers.
 *
 * Tokens are estimated as ceil(UTF-8 bytes / 4) per file, the estimate the reference system reports.
 */
import { splitFrontmatter } from './frontmatter.js';

/**
 * Default budget for every `system/` file together, in estimated tokens. 8,000 tokens (~32 KB of text) is
 * what the compiled memory may take of the system prompt: under the 16k-token start-up context a reflection
 * sub-agent is given (prompt + memory + tree), and a few percent of a model's context window, so the agent
 * keeps room to work. Detail beyond that belongs in files outside `system/`, listed in the tree and read on
 * demand.
 */
export const DEFAULT_SYSTEM_BUDGET_TOKENS = 8_000;

/**
 * The token estimate of `bytes` UTF-8 bytes.
 * @example estimateTokens(9) === 3
 */
export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/**
 * True for the files compiled into the system prompt: markdown under `system/`, no hidden component.
 * @example isSystemFile('system/human.md') === true
 */
export function isSystemFile(path: string): boolean {
  return path.startsWith('system/') && path.endsWith('.md') && !path.split('/').some((s) => s.startsWith('.'));
}

/** Use of the system/ budget: per file and in total (estimated tokens). */
export interface SystemUsage {
  total: number;
  budget: number;
  files: Array<{ path: string; tokens: number }>;
}

/**
 * Use of the system/ budget from a tree listing (paths and blob sizes in bytes), files sorted by tokens; `isCore`
 * names the core of the repository's layout (src/blocks/layouts.ts), system/ by default.
 * @example systemUsage([{ path: 'system/human.md', size: 4000 }], 8000) // { total: 1000, budget: 8000, files: [...] }
 */
export function systemUsage(
  entries: ReadonlyArray<{ path: string; size: number }>,
  budget = DEFAULT_SYSTEM_BUDGET_TOKENS,
  isCore: (path: string) => boolean = isSystemFile,
): SystemUsage {
  const files = entries.filter((e) => isCore(e.path)).map((e) => ({ path: e.path, tokens: estimateTokens(e.size) }));
  files.sort((a, b) => b.tokens - a.tokens || (a.path < b.path ? -1 : 1));
  return { total: files.reduce((n, f) => n + f.tokens, 0), budget, files };
}

/**
 * Tokens of one file's text (0 when absent).
 * @example textTokens('abcde') === 2
 */
export function textTokens(text: string | null): number {
  return text === null ? 0 : estimateTokens(Buffer.byteLength(text, 'utf8'));
}

/**
 * Characters (code points) of a memory file's body — what a frontmatter `limit` bounds; null without a
 * readable frontmatter block.
 * @example bodyChars('---\ndescription: d\n---\nhello\n') === 6
 */
export function bodyChars(text: string | null): number | null {
  if (text === null) return null;
  const split = splitFrontmatter(text);
  if (split.kind !== 'ok') return null;
  let n = 0;
  for (let i = 0; i < split.body.length; i++) {
    const c = split.body.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++; // a low surrogate completes the code point counted before it
  }
  return n;
}

/**
 * A budget setting as configured: a positive integer, else undefined (the caller says what was wrong).
 * @example parseBudget('12000') === 12000
 */
export function parseBudget(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** Groups digits for messages: 12345 → `12,345`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
