/**
 * `memory.diff({ from, to, path })`: what changed between two commits — git's unified diff text (bounded)
 * and the files with their status and line counts. `to` defaults to HEAD, `from` to `to`'s first parent
 * (the empty tree for the first commit), so `diff()` is "what the last commit did".
 */
import { MemoryError } from '../errors.js';
import { LITERAL_PATHSPECS, numstatOp, unifiedDiffOp } from '../git/commands/diff-text.js';
import { rawDiffOp } from '../git/commands/diff-raw.js';
import { commitOf } from '../git/committed-read.js';
import { commitAt, readObjects } from './at.js';
import { readCandidates } from './paths.js';
import type { DiffOptions, DiffResult, ReadDeps } from './types.js';

/** Bytes of diff text one call returns by default. */
const DEFAULT_DIFF_BYTES = 1024 * 1024;
export const EMPTY_TREE: Record<number, string> = {
  40: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  64: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** Cuts `text` at a line end within `max` bytes. Pure. */
function clipText(text: string, max: number): { text: string; truncated: boolean } {
  if (Buffer.byteLength(text) <= max) return { text, truncated: false };
  const cut = Buffer.from(text)
    .subarray(0, max)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const nl = cut.lastIndexOf('\n');
  return { text: `${nl > 0 ? cut.slice(0, nl + 1) : cut}[truncated at ${max} bytes]\n`, truncated: true };
}

async function pathIn(deps: ReadDeps, commits: readonly string[], input: unknown): Promise<string> {
  const candidates = readCandidates(input, deps.memoryDir, 'path', 'memory diff');
  const specs = commits.flatMap((c) => candidates.map((p) => `${c}:${p}`));
  const objects = await readObjects(deps, specs);
  const hit = objects.findIndex((o) => o !== null);
  return candidates[hit >= 0 ? hit % candidates.length : 0] as string;
}

function checkMax(max: unknown): number {
  if (max === undefined) return DEFAULT_DIFF_BYTES;
  if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 1)
    throw new MemoryError('INVALID_ARGUMENT', 'diff: maxBytes must be a positive integer', {
      data: { field: 'maxBytes' },
    });
  return max;
}

/**
 * The diff between two commits (or what one commit changed).
 * @example (await memoryDiff(deps, { from: 'HEAD~3', path: 'system/human.md' })).text
 */
export async function memoryDiff(deps: ReadDeps, options: DiffOptions = {}): Promise<DiffResult> {
  const max = checkMax(options.maxBytes);
  const to = await commitAt(deps, options.to);
  const from =
    options.from !== undefined
      ? await commitAt(deps, options.from)
      : await commitOf(deps.git, deps.memoryDir, `${to}^1`);
  const base = from ?? (EMPTY_TREE[to.length] as string);
  const path = options.path === undefined ? undefined : await pathIn(deps, from ? [to, from] : [to], options.path);
  const run = { cwd: deps.memoryDir, env: { ...LITERAL_PATHSPECS } };
  const tail = path === undefined ? [] : ['--', path];
  const [text, raw, counts] = await Promise.all([
    deps.git.exec(unifiedDiffOp(base, to, path), run),
    deps.git.exec(rawDiffOp('diff-tree', ['-r', base, to, ...tail]), run),
    deps.git.exec(numstatOp(base, to, path), run),
  ]);
  const byPath = new Map(counts.map((c) => [c.path, c]));
  const files = raw.map((e) => {
    const c = byPath.get(e.path);
    return {
      status: e.status,
      path: e.path,
      ...(e.oldPath !== undefined ? { oldPath: e.oldPath } : {}),
      additions: c?.additions ?? null,
      deletions: c?.deletions ?? null,
    };
  });
  return { from, to, ...clipText(text, max), files };
}
