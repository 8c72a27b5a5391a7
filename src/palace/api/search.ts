/** Search of the committed memory (the read side's engine), at HEAD or a chosen commit. */
import type { SearchReply } from '../api-types.js';
import { queryInt, queryString, requiredQuery, type ApiRequest } from './request.js';

export async function search(req: ApiRequest): Promise<SearchReply> {
  const q = requiredQuery(req, 'q');
  const at = queryString(req, 'at', 256);
  const commit = await req.view.commitOf(at);
  if (commit === null) return { commit, hits: [] };
  const hits = await req.view.memory.search(q, { at: commit, limit: queryInt(req, 'limit', 30, 1, 100) });
  return {
    commit,
    hits: hits.map((h) => ({
      path: h.path,
      line: h.line,
      text: h.snippet,
      score: h.score,
      ...(h.description ? { description: h.description } : {}),
    })),
  };
}
