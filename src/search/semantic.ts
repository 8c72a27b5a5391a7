/**
 * Semantic ranking: embeddings of each blob (cached in the index per blob id and model, so a file is
 * embedded once whatever its paths or revisions) compared by cosine similarity with the query's, and
 * hybrid ranking by reciprocal rank fusion of the full-text and semantic lists. Requests go only to the
 * configured provider, and only when a search asks for semantic or hybrid ranking.
 */
import { MemoryError } from '../errors.js';
import type { EmbeddingChoice } from '../llm/embedding.js';
import type { SearchStore } from './store.js';
import { hitTexts } from './hit-text.js';
import type { RepoRef } from './blob-read.js';

export interface Ranked {
  path: string;
  id: number;
  score: number;
}

// What one input to the embedding model holds at most (characters; long files are embedded by their start).
const EMBED_CHARS = 8_000;
// The usual constant of reciprocal rank fusion.
const RRF_K = 60;

async function embedAll(choice: EmbeddingChoice, values: string[]): Promise<Float32Array[]> {
  const { embedMany } = await import('ai');
  try {
    const { embeddings } = await embedMany({ model: choice.model, values, maxRetries: 1, maxParallelCalls: 2 });
    return embeddings.map((e) => Float32Array.from(e));
  } catch (err) {
    throw new MemoryError(
      'MODEL_ERROR',
      `embeddings ${choice.label} failed: ${(err as Error).message.split('\n')[0]}`,
      { cause: err },
    );
  }
}

function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return -1;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Vectors for every candidate blob, embedding (and caching) those the index has none for. */
async function vectorsFor(
  repo: RepoRef,
  store: SearchStore,
  choice: EmbeddingChoice,
  rows: ReadonlyArray<{ path: string; oid: string }>,
): Promise<Map<string, Float32Array>> {
  const oids = [...new Set(rows.map((r) => r.oid))];
  const have = store.vectors(choice.label, oids);
  const todo: Array<{ path: string; oid: string }> = [];
  const queued = new Set<string>();
  for (const r of rows) {
    if (have.has(r.oid) || queued.has(r.oid)) continue;
    queued.add(r.oid);
    todo.push(r);
  }
  if (todo.length > 0) {
    const texts = await hitTexts(repo, todo);
    const values = todo.map((r) => {
      const t = texts.get(r.oid);
      return `${t?.description ?? ''}\n${t?.text ?? ''}`.slice(0, EMBED_CHARS);
    });
    const vecs = await embedAll(choice, values);
    const fresh = todo.map((r, i) => ({ oid: r.oid, vec: vecs[i] ?? new Float32Array() }));
    store.putVectors(choice.label, fresh);
    for (const f of fresh) have.set(f.oid, f.vec);
  }
  return have;
}

/**
 * The `limit` candidates most similar to the query.
 * @example await semanticRank(repo, store, choice, rows, 'where do I keep passwords', 10)
 */
export async function semanticRank(
  repo: RepoRef,
  store: SearchStore,
  choice: EmbeddingChoice,
  rows: ReadonlyArray<{ path: string; id: number; oid: string }>,
  query: string,
  limit: number,
): Promise<Ranked[]> {
  if (rows.length === 0) return [];
  const vectors = await vectorsFor(repo, store, choice, rows);
  const [q] = await embedAll(choice, [query]);
  if (!q) return [];
  return rows
    .map((r) => ({ path: r.path, id: r.id, score: cosine(q, vectors.get(r.oid) ?? new Float32Array()) }))
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1))
    .slice(0, limit);
}

/**
 * Reciprocal rank fusion: each list adds 1 / (60 + rank) for each hit it holds.
 * @example fuse([[{ path: 'a', id: 1, score: 3 }], [{ path: 'b', id: 2, score: 0.9 }]], 10)
 */
export function fuse(lists: ReadonlyArray<readonly Ranked[]>, limit: number): Ranked[] {
  const byPath = new Map<string, Ranked>();
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const prev = byPath.get(hit.path);
      const add = 1 / (RRF_K + rank + 1);
      byPath.set(hit.path, { path: hit.path, id: hit.id, score: (prev?.score ?? 0) + add });
    });
  }
  return [...byPath.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1)).slice(0, limit);
}
