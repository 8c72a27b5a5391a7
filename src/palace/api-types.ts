/**
 * The palace's JSON API as types, shared by the server and the page (no imports: the page is compiled for
 * the browser). Every string in these shapes may come from memory and is untrusted.
 */

export type Writer = 'agent' | 'worker' | 'reflection' | 'shell' | 'sync';

export interface AgentsReply {
  agents: string[];
  /** The agent the page opens first. */
  current: string;
}

export interface SummaryReply {
  agent: string;
  head: string | null;
  /** Commits reachable from HEAD (for the timeline). */
  commits: number;
  /**
   * Core memory (compiled into every prompt) against its budget; `label` names the core of the repository's
   * layout (`system/`, or `root memory files` in the index layout).
   */
  system: { label: string; tokens: number; budget: number; files: Array<{ path: string; tokens: number }> };
  live: boolean;
}

export interface TreeDir {
  type: 'dir';
  name: string;
  path: string;
  files: number;
  tokens: number;
}

export interface TreeFile {
  type: 'file';
  name: string;
  path: string;
  size: number;
  tokens: number;
  description?: string;
}

export interface TreeReply {
  commit: string | null;
  dir: string;
  entries: Array<TreeDir | TreeFile>;
  /** Entries of this directory in all (the page asks for more with `offset`). */
  total: number;
  offset: number;
}

export interface FileReply {
  path: string;
  commit: string;
  text: string;
  frontmatter: Record<string, unknown> | null;
  body: string;
  size: number;
  tokens: number;
  /** The text was cut for the page (the whole file is larger). */
  truncated: boolean;
}

export interface CommitInfo {
  sha: string;
  date: string;
  author: string;
  email: string;
  writer: Writer;
  reason: string;
  parents: string[];
  files: Array<{ status: string; path: string; oldPath?: string }>;
}

export interface HistoryReply {
  entries: CommitInfo[];
  skip: number;
  more: boolean;
}

export interface DiffReply {
  from: string | null;
  to: string;
  text: string;
  truncated: boolean;
  files: Array<{ status: string; path: string; oldPath?: string; additions: number | null; deletions: number | null }>;
}

export interface KeptBranchInfo {
  branch: string;
  kind: string;
  id: string;
  head: string;
  date: string;
  subject: string;
  commits: number;
  files: string[];
}

export interface KeptBranchReply extends KeptBranchInfo {
  log: Array<{ sha: string; subject: string }>;
  base: string | null;
  /** What the branch changed since it left main (merge base → branch tip). */
  diff: DiffReply | null;
  /** Files "take the branch's side" would write, and whether each can be taken exactly. */
  take: Array<{ path: string; action: 'write' | 'delete'; problem?: string }>;
}

export interface RunInfo {
  kind: string;
  startedAt: string;
  durationMs: number;
  steps: number;
  inputTokens: number;
  outputTokens: number;
  outcome: string;
  model: string;
}

export interface CursorInfo {
  conversation: string;
  lines: number;
  reflectedThroughLine: number;
  totalSteps: number;
  stepsSinceLastReflection: number;
  lastStartedAt?: string;
  lastSucceededAt?: string;
}

export interface ReflectionReply {
  runs: RunInfo[];
  cursors: CursorInfo[];
}

export interface TranscriptReply {
  conversation: string;
  lines: number;
  rows: Array<{ line: number; kind: string; text: string }>;
}

export interface SyncReply {
  remote: { url: string | null; upstream: string | null; ahead: number | null; behind: number | null };
  /** Recent moves of the remote-tracking ref (pushes and fetches), newest first. */
  tracking: Array<{ date: string; what: string }>;
  mirror: {
    url: string | null;
    last: { at: string; commit: string; trigger: string; ok: boolean; output: string } | null;
    log: string[];
  };
  dirty: boolean;
}

export interface SearchReply {
  commit: string | null;
  hits: Array<{ path: string; line: number; text: string; score: number; description?: string }>;
}

export interface TimelineReply {
  total: number;
  /** Position from the oldest (0) to HEAD (total - 1). */
  position: number;
  commit: CommitInfo | null;
}

export interface UpdateEvent {
  type: 'memory_updated';
  agent: string;
  commit: string;
  previous: string | null;
  writer: Writer;
  affected_paths: string[];
  timestamp: string;
}

/** What an exported page carries instead of an API. */
export interface ExportSnapshot {
  agent: string;
  exportedAt: string;
  head: string | null;
  system: SummaryReply['system'];
  files: Array<{
    path: string;
    size: number;
    description?: string;
    text?: string;
    frontmatter?: Record<string, unknown> | null;
    body?: string;
    omitted?: string;
  }>;
  commits: CommitInfo[];
  diffs: Record<string, DiffReply>;
  conflicts: KeptBranchInfo[];
  reflection: ReflectionReply;
  sync: SyncReply | null;
  limits: { commits: number; diffs: number; diffBytes: number; totalDiffBytes: number };
}
