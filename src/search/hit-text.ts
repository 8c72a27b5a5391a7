/**
 * The text of hits, read from git by blob id when they are returned (the index stores no copy of the files):
 * the work-tree file when it hashes to the blob, else the object store, as for indexing. A blob is
 * immutable, so whatever the source, a hit's text is exactly the blob's.
 */
import { readBlobs, type RepoRef } from './blob-read.js';
import { indexFields } from './text.js';

export interface HitText {
  text: string;
  description: string;
}

/**
 * The text and description of each blob of `rows` (a path of each, tried in the work tree first); a blob
 * that cannot be read as text is absent from the map.
 * @example await hitTexts(repo, [{ oid: '4b82…', path: 'notes/a.md' }])
 */
export async function hitTexts(
  repo: RepoRef,
  rows: ReadonlyArray<{ oid: string; path: string }>,
): Promise<Map<string, HitText>> {
  const pathOf = new Map<string, string>();
  for (const r of rows) if (!pathOf.has(r.oid)) pathOf.set(r.oid, r.path);
  const out = new Map<string, HitText>();
  for (const b of await readBlobs(repo, [...pathOf.keys()], pathOf)) {
    if (b.bytes === null) continue;
    const text = b.bytes.toString('utf8');
    out.set(b.oid, { text, description: indexFields(text).description });
  }
  return out;
}
