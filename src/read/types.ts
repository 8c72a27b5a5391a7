/**
 * The read side of memory as types: what each read returns. Every read is of a committed revision (HEAD
 * unless `at` names another), never of the work tree.
 */
import type { GitRunner } from '../git/runner.js';
import type { WriterKind } from '../writers.js';

/** What a read needs: the runner and the repository. */
export interface ReadDeps {
  git: GitRunner;
  memoryDir: string;
  /** The agent whose memory this is (tells its own commits from others'). */
  agentId?: string | undefined;
  /** The system/ token budget (default: the repository's config, its home's, else the default). */
  systemBudget?: () => number;
}

/** One file as of a commit. */
export interface ReadResult {
  /** Repo-relative path of the file read. */
  path: string;
  /** Its frontmatter, or null when it has none (or it does not parse; `text` still has it all). */
  frontmatter: Record<string, unknown> | null;
  /** The text after the frontmatter (all of it when there is none). */
  body: string;
  /** The whole file. */
  text: string;
  /** The commit it was read from. */
  commit: string;
}

export interface ViewOptions {
  at?: string;
  /** Lines of a file, 1-based and inclusive; `end` -1 = to the end. */
  range?: readonly [number, number];
}

/** What `memory.view` shows: a file's numbered lines or a directory listing, at one commit. */
export interface ViewResult {
  /** What a model should see. */
  text: string;
  commit: string;
  /** The path viewed ('' = the root). */
  path: string;
  kind: 'file' | 'directory';
  /** True when the output was cut at its limit (the text says so too). */
  truncated: boolean;
}

/** One entry of a listing: a file at a commit. */
export interface ListedFile {
  path: string;
  size: number;
  description?: string;
}

export interface HistoryOptions {
  path?: string;
  /** At most this many commits (default 20, at most 1,000). */
  limit?: number;
  /** Pass over this many commits first (the next page; default 0). */
  skip?: number;
  /** Only commits at or after this date (ISO, or `3 days ago`). */
  since?: string;
  /** Start from this revision instead of HEAD. */
  at?: string;
}

/** One commit of a memory's history, with who wrote it (see read/writer.ts). */
export interface HistoryEntry {
  sha: string;
  date: string;
  author: string;
  email: string;
  writer: WriterKind;
  /** The commit message: the writer's reason. */
  reason: string;
  parents: string[];
  files: Array<{ status: 'A' | 'M' | 'D' | 'R' | 'C' | 'T'; path: string; oldPath?: string }>;
}

export interface DiffOptions {
  /** Default: the first parent of `to` (the empty tree for a root commit). */
  from?: string;
  /** Default HEAD. */
  to?: string;
  path?: string;
  /** Cut the diff text after this many bytes (default 1 MiB). */
  maxBytes?: number;
}

/** What `memory.diff` returns: the changed files and git's unified diff between two revisions. */
export interface DiffResult {
  from: string | null;
  to: string;
  /** Unified diff text (git's own), cut at `maxBytes`. */
  text: string;
  truncated: boolean;
  files: Array<{ status: string; path: string; oldPath?: string; additions: number | null; deletions: number | null }>;
}

export interface TokensResult {
  commit: string | null;
  total_tokens: number;
  /** The system/ budget in tokens (writes that grow system/ past it are refused: BUDGET_EXCEEDED). */
  budget_tokens: number;
  /** Files under system/, most tokens first. */
  files: Array<{ path: string; tokens: number }>;
}

/** One move of `main`, whoever made it. */
export interface MemoryUpdatedEvent {
  type: 'memory_updated';
  /** Files that differ between the previous head and this one. */
  affected_paths: string[];
  /** The new head. */
  commit: string;
  /** The head before (null when main was just created). */
  previous: string | null;
  /** Who moved main last (see writer.ts for the rule). */
  writer: WriterKind;
  /** ISO 8601, when the move was seen. */
  timestamp: string;
}
