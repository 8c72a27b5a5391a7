/**
 * `memory.read(path, { at })`: one file as of a commit — its frontmatter, body and text — through the same
 * path rule as every write. Plain (non-markdown) files are read too: the exact path first, then `<path>.md`.
 */
import { tryParseMemoryFile } from '../blocks/frontmatter.js';
import { MemoryError } from '../errors.js';
import { decodeMemoryText } from '../memfs/read-text.js';
import { commitAt, readPaths, regularFileOrRefuse } from './at.js';
import { readCandidates } from './paths.js';
import type { ReadDeps, ReadResult } from './types.js';

/** The bytes of the first candidate that is a file at `commit`, or FILE_NOT_FOUND. */
async function readCommittedBytes(
  deps: ReadDeps,
  commit: string,
  candidates: readonly string[],
  shown: string,
): Promise<{ path: string; bytes: Buffer }> {
  const objects = await readPaths(deps, commit, candidates);
  for (const [i, o] of objects.entries()) {
    if (o?.type === 'blob')
      return { path: candidates[i] as string, bytes: regularFileOrRefuse(candidates[i] as string, o) };
  }
  const dir = objects.some((o) => o?.type === 'tree');
  const why = dir ? 'is a directory (view lists it)' : 'does not exist';
  throw new MemoryError('FILE_NOT_FOUND', `memory read: ${shown} ${why} at ${commit.slice(0, 7)}`, {
    data: { path: candidates[0], commit, directory: dir },
  });
}

/** Splits a file into frontmatter and body (no frontmatter, or none that parses: null and the whole text). */
function splitRead(path: string, text: string, commit: string): ReadResult {
  const parsed = tryParseMemoryFile(text);
  return parsed
    ? { path, frontmatter: parsed.data, body: parsed.body, text, commit }
    : { path, frontmatter: null, body: text, text, commit };
}

/**
 * Reads one committed file (strict UTF-8: NOT_UTF8 otherwise).
 * @example const { frontmatter, body, commit } = await readMemoryFile(deps, 'system/human', { at: 'HEAD~2' })
 */
export async function readMemoryFile(deps: ReadDeps, path: string, options: { at?: string } = {}): Promise<ReadResult> {
  const candidates = readCandidates(path, deps.memoryDir, 'path', 'memory read');
  const commit = await commitAt(deps, options.at);
  const found = await readCommittedBytes(deps, commit, candidates, String(path));
  return splitRead(found.path, decodeMemoryText(found.bytes, found.path), commit);
}
