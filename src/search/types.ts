/**
 * What `memory.search` takes and returns, and its stated limits. Shared by the engine, the library handle
 * and the adapters (CLI, MCP), so every surface refuses and bounds the same way.
 */

/** `fulltext`: BM25 over words; `semantic`: embedding similarity; `hybrid`: both, fused by rank. */
export type SearchMode = 'fulltext' | 'semantic' | 'hybrid';

export const SEARCH_MODES: readonly SearchMode[] = ['fulltext', 'semantic', 'hybrid'];

/** Options of `memory.search`: the revision, how many hits, path globs, the ranking mode. */
export interface SearchOptions {
  /** Revision to search (sha, branch, `HEAD~3`, `main@{…}`, ISO date); default HEAD. */
  at?: string;
  /** Most hits returned; default 10, at most 100. */
  limit?: number;
  /** Glob(s) a hit's path must match (picomatch syntax, `**` crosses directories), e.g. `notes/**`. */
  paths?: string | readonly string[];
  /** Default: `hybrid` when embeddings are configured, else `fulltext`. */
  mode?: SearchMode;
}

/** One ranked hit: a file at the searched revision. */
export interface SearchHit {
  /** Repo-relative path exactly as git records it. */
  path: string;
  /**
   * 1-based line of the best-matching line, counting every line of the file from its first (the
   * frontmatter included), as the memory tool's `view` numbers them.
   */
  line: number;
  /** That line, trimmed to at most {@link SEARCH_LIMITS.snippetChars} characters around the match. */
  snippet: string;
  /** Higher is better; comparable only within one result list (BM25, cosine, or fused rank score). */
  score: number;
  /** The frontmatter description ('' when none). */
  description: string;
}

export const SEARCH_LIMITS = Object.freeze({
  /** Characters in a query (a longer one is refused, never truncated silently). */
  queryChars: 1_000,
  /** Distinct words and phrases used from one query. */
  queryTerms: 32,
  defaultLimit: 10,
  maxLimit: 100,
  /** Glob patterns in `paths`, and characters in each. */
  maxGlobs: 32,
  globChars: 1_024,
  /** Files larger than this (bytes) are not indexed. */
  maxFileBytes: 1_048_576,
  snippetChars: 200,
});

/** The file names search reads: markdown and plain text (UTF-8). */
export const INDEXED_EXTENSIONS: readonly string[] = ['.md', '.markdown', '.txt'];
