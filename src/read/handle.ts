/**
 * The read side of the Memory handle: one entry per operation, each module loaded on first use (the
 * write path never pays for them). memory.ts spreads this into the handle.
 */
import type { WriteDeps } from '../memfs/tool.js';
import type { RevertResult } from './revert.js';
import type { MemoryRevisions } from './revisions.js';
import type {
  DiffOptions,
  DiffResult,
  HistoryEntry,
  HistoryOptions,
  ListedFile,
  ReadDeps,
  ReadResult,
  TokensResult,
  ViewResult,
} from './types.js';
import type { ViewCallOptions } from './view.js';
import { watchMemory, type MemoryWatcher, type WatchOptions } from './watch.js';

/** Reads of the committed memory (HEAD unless `at` names another revision), a revert, and change events. */
export interface MemoryReadApi extends MemoryRevisions {
  /** One file as of a commit: `{ path, frontmatter, body, text, commit }` (FILE_NOT_FOUND, UNKNOWN_REVISION). */
  read(path: string, options?: { at?: string }): Promise<ReadResult>;
  /** What a model should see: a directory (default the root) two levels deep, or a file with line numbers. */
  view(path?: string, options?: ViewCallOptions): Promise<ViewResult>;
  /** Commits touching memory or one path (renames followed), newest first, with their writer. */
  history(options?: HistoryOptions): Promise<HistoryEntry[]>;
  /** The unified diff and changed files between two commits (default: what HEAD's commit did). */
  diff(options?: DiffOptions): Promise<DiffResult>;
  /** One new commit undoing `sha`'s change (REVERT_CONFLICT when it no longer applies cleanly). */
  revert(sha: string, options: { reason: string }): Promise<RevertResult>;
  /** Token estimate of system/ (ceil(UTF-8 bytes / 4) per file). */
  tokens(options?: { at?: string }): Promise<TokensResult>;
  /** Every committed file with its size and description. */
  files(options?: { at?: string }): Promise<{ commit: string | null; files: ListedFile[] }>;
  /** Change events each time main moves (async iterator and event emitter; close() when done). */
  watch(options?: WatchOptions): MemoryWatcher;
}

/**
 * The read operations bound to one repository.
 * @example const api = readApi(writeDeps, 'ada'); await api.read('system/human.md')
 */
export function readApi(deps: WriteDeps, agentId: string | undefined): MemoryReadApi {
  const r: ReadDeps = {
    git: deps.git,
    memoryDir: deps.memoryDir,
    agentId,
    systemBudget: deps.systemBudget,
  };
  return {
    read: async (path, o) => (await import('./read.js')).readMemoryFile(r, path, o),
    view: async (path, o) => (await import('./view.js')).viewMemory(r, path, o),
    history: async (o) => (await import('./history.js')).memoryHistory(r, o),
    diff: async (o) => (await import('./diff.js')).memoryDiff(r, o),
    revert: async (sha, o) => (await import('./revert.js')).revertCommit(deps, sha, o),
    tokens: async (o) => (await import('./tokens.js')).memoryTokens(r, o),
    files: async (o) => (await import('./entries.js')).listFiles(r, o),
    watch: (o) => watchMemory(r, o),
    resolve: async (rev) => (await import('./revisions.js')).revisionsApi(r).resolve(rev),
    countCommits: async (range) => (await import('./revisions.js')).revisionsApi(r).countCommits(range),
    mergeBase: async (a, b) => (await import('./revisions.js')).revisionsApi(r).mergeBase(a, b),
  };
}
