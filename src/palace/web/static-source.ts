/**
 * An exported page's data: the snapshot embedded in the file, answering the same routes as the server
 * for what it holds (HEAD's files, up to 500 commits, the newest diffs). Nothing is fetched; there are no
 * writes and no change stream.
 */
import type { DiffReply, ExportSnapshot, FileReply, HistoryReply, SearchReply, TreeReply } from '../api-types.js';
import { buildTreeIndex, tokensOf } from '../tree-index.js';
import { ApiError, type Params, type Source } from './source.js';

const missing = (what: string): never => {
  throw new ApiError('NOT_IN_EXPORT', `${what} is not in this export`, 404);
};

/** The part of a diff text about one path. */
function diffOf(d: DiffReply, path: string): DiffReply {
  const blocks = d.text
    .split(/^(?=diff --git )/m)
    .filter((b) => b.startsWith(`diff --git a/${path} `) || b.includes(` b/${path}\n`));
  return { ...d, text: blocks.join(''), files: d.files.filter((f) => f.path === path || f.oldPath === path) };
}

function search(s: ExportSnapshot, q: string): SearchReply {
  const words = q
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  const hits: SearchReply['hits'] = [];
  for (const f of s.files) {
    if (f.text === undefined || words.length === 0) continue;
    const lower = f.text.toLowerCase();
    if (!words.every((w) => lower.includes(w))) continue;
    const lines = f.text.split('\n');
    const i = Math.max(
      0,
      lines.findIndex((l) => l.toLowerCase().includes(words[0] as string)),
    );
    hits.push({
      path: f.path,
      line: i + 1,
      text: (lines[i] ?? '').slice(0, 200),
      score: words.length,
      ...(f.description ? { description: f.description } : {}),
    });
  }
  return { commit: s.head, hits: hits.slice(0, 100) };
}

/** One file of the export, as the server's file route answers it; past revisions are not in an export. */
function fileOf(s: ExportSnapshot, byPath: Map<string, ExportSnapshot['files'][number]>, p: Params): FileReply {
  const f = byPath.get(String(p['path']));
  if (!f || f.text === undefined || p['at']) return missing(f?.omitted ? `${f.path} (${f.omitted})` : 'that file');
  return {
    path: f.path,
    commit: s.head ?? '',
    text: f.text,
    frontmatter: f.frontmatter ?? null,
    body: f.body ?? f.text,
    size: f.size,
    tokens: tokensOf(f.size),
    truncated: false,
  };
}

export function staticSource(s: ExportSnapshot): Source {
  const index = buildTreeIndex(s.head, s.files);
  const byPath = new Map(s.files.map((f) => [f.path, f]));
  const routes: Record<string, (p: Params) => unknown> = {
    agents: () => ({ agents: [s.agent], current: s.agent }),
    summary: () => ({ agent: s.agent, head: s.head, commits: s.commits.length, system: s.system, live: false }),
    tree: (p): TreeReply => {
      const all = index.dirs.get(String(p['dir'] ?? '')) ?? [];
      return { commit: s.head, dir: String(p['dir'] ?? ''), entries: all, total: all.length, offset: 0 };
    },
    file: (p): FileReply => fileOf(s, byPath, p),
    history: (p): HistoryReply => {
      const path = p['path'] === undefined ? undefined : String(p['path']);
      const entries =
        path === undefined
          ? s.commits
          : s.commits.filter((c) => c.files.some((f) => f.path === path || f.oldPath === path));
      const skip = Number(p['skip'] ?? 0);
      const limit = Number(p['limit'] ?? 50);
      return { entries: entries.slice(skip, skip + limit), skip, more: entries.length > skip + limit };
    },
    diff: (p): DiffReply => {
      const d = p['from'] === undefined ? s.diffs[String(p['to'])] : undefined;
      if (!d) return missing('that diff');
      return p['path'] === undefined ? d : diffOf(d, String(p['path']));
    },
    conflicts: () => ({ branches: s.conflicts }),
    conflict: () => missing('the detail of a kept branch'),
    reflection: () => s.reflection,
    transcript: () => missing('the transcript'),
    sync: () => s.sync ?? missing('the sync state'),
    search: (p) => search(s, String(p['q'] ?? '')),
    timeline: () => missing('the timeline'),
  };
  return {
    live: false,
    get: async <T>(route: string, params: Params = {}) => {
      const r = Object.hasOwn(routes, route) ? routes[route] : undefined;
      if (!r) return missing(route);
      return r(params) as T;
    },
    post: async () => missing('a write'),
    subscribe: (_agent, _onEvent, onState) => {
      onState(false);
      return () => undefined;
    },
  };
}
