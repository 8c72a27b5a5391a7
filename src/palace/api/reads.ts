/**
 * The read routes: summary (head, commit count, the core's budget), a directory of the tree, one file, its or
 * the whole memory's history (paged), a diff, and the timeline's commit at a position. All of a committed
 * revision, through the Memory handle.
 */
import { isMemoryError } from '../../index.js';
import { estimateTokens, readRepoLayout, type LayoutRow, type WriterKind } from '../../internals.js';
import type {
  CommitInfo,
  DiffReply,
  FileReply,
  HistoryReply,
  SummaryReply,
  TimelineReply,
  TreeReply,
  Writer,
} from '../api-types.js';
import { systemBudget } from '../budget.js';
import type { TreeIndex } from '../tree-index.js';
import { queryInt, queryString, requiredQuery, type ApiRequest } from './request.js';

/** The page's writers are the table's (src/writers.ts; the page imports nothing): one added there fails to compile here. */
const _pageKnowsEveryWriter: [Writer, WriterKind] extends [WriterKind, Writer] ? true : never = true;

/** Entries of one directory per answer; the page asks for the rest with `offset`. */
export const TREE_PAGE = 500;
/** Characters of a file the page gets (the raw view says when it was cut). */
const MAX_FILE_CHARS = 2_000_000;
/** Bytes of diff text per answer. */
export const DIFF_BYTES = 512 * 1024;

/**
 * The core's markdown files (the repository's layout says which: system/, or the root's markdown in the index
 * layout), most expensive first: what the budget counts, taken from the commit's cached tree index so the
 * first view lists the tree once, not twice.
 */
function coreTokens(
  index: TreeIndex,
  isCore: (path: string) => boolean,
): { tokens: number; files: Array<{ path: string; tokens: number }> } {
  const files = [...index.files.values()]
    .filter((f) => isCore(f.path))
    .map((f) => ({ path: f.path, tokens: estimateTokens(f.size) }))
    .sort((a, b) => b.tokens - a.tokens || (a.path < b.path ? -1 : 1));
  return { tokens: files.reduce((n, f) => n + f.tokens, 0), files };
}

/** The repository's layout; a setting the palace cannot read shows as the default (the tool refuses it). */
function layoutOf(memoryDir: string): LayoutRow {
  return readRepoLayout(memoryDir, { lenient: true });
}

export async function summary(req: ApiRequest): Promise<SummaryReply> {
  const head = await req.view.head();
  const [commits, index] = await Promise.all([req.view.commitCount(head), req.view.tree(head)]);
  const layout = layoutOf(req.view.memory.memoryDir);
  const system = coreTokens(index, layout.isCore);
  return {
    agent: req.view.agent,
    head,
    commits,
    system: {
      label: layout.coreLabel,
      tokens: system.tokens,
      budget: systemBudget(req.view.memory.memoryDir, req.hub.home),
      files: system.files.slice(0, 50),
    },
    live: true,
  };
}

export async function tree(req: ApiRequest): Promise<TreeReply> {
  const commit = await req.view.commitOf(queryString(req, 'at', 256));
  const dir = queryString(req, 'dir', 1024) ?? '';
  const offset = queryInt(req, 'offset', 0, 0, 10_000_000);
  const index = await req.view.tree(commit);
  const all = index.dirs.get(dir.replace(/\/+$/, '')) ?? [];
  return { commit, dir, entries: all.slice(offset, offset + TREE_PAGE), total: all.length, offset };
}

export async function file(req: ApiRequest): Promise<FileReply> {
  const at = queryString(req, 'at', 256);
  const r = await req.view.memory.read(requiredQuery(req, 'path'), at ? { at } : {});
  const size = Buffer.byteLength(r.text);
  const truncated = r.text.length > MAX_FILE_CHARS;
  const cut = (s: string): string => (s.length > MAX_FILE_CHARS ? s.slice(0, MAX_FILE_CHARS) : s);
  return {
    path: r.path,
    commit: r.commit,
    text: cut(r.text),
    body: cut(r.body),
    frontmatter: r.frontmatter,
    size,
    tokens: estimateTokens(size),
    truncated,
  };
}

export async function history(req: ApiRequest): Promise<HistoryReply> {
  const path = queryString(req, 'path', 1024);
  const at = queryString(req, 'at', 256);
  const skip = queryInt(req, 'skip', 0, 0, 10_000_000);
  const limit = queryInt(req, 'limit', 50, 1, 200);
  let entries: CommitInfo[];
  try {
    entries = await req.view.memory.history({
      limit: limit + 1,
      skip,
      ...(path ? { path } : {}),
      ...(at ? { at } : {}),
    });
  } catch (err) {
    if (path && isMemoryError(err, 'FILE_NOT_FOUND')) entries = [];
    else throw err;
  }
  return { entries: entries.slice(0, limit), skip, more: entries.length > limit };
}

export async function diff(req: ApiRequest): Promise<DiffReply> {
  const from = queryString(req, 'from', 256);
  const to = queryString(req, 'to', 256);
  const path = queryString(req, 'path', 1024);
  return req.view.memory.diff({
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(path ? { path } : {}),
    maxBytes: DIFF_BYTES,
  });
}

/** The commit at a timeline position: 0 is the first commit, total - 1 is HEAD (log order). */
export async function timeline(req: ApiRequest): Promise<TimelineReply> {
  const head = await req.view.head();
  const total = await req.view.commitCount(head);
  if (head === null || total === 0) return { total: 0, position: 0, commit: null };
  const position = queryInt(req, 'position', total - 1, 0, total - 1);
  const [commit] = await req.view.memory.history({ at: head, skip: total - 1 - position, limit: 1 });
  return { total, position, commit: commit ?? null };
}
