/**
 * `gitmem doctor --fix` in a layout with routing indexes: every file its nearest index does not link gets one
 * `- [name](path) — description` line appended to that index, all in one commit through the memory tool's
 * write path (lease, clean check, the one validator, crash-safe commit). Nothing is removed or reworded: a dead
 * link, a file linked twice or a missing index is left for a person (each is reported by the check).
 */
import { posix } from 'node:path';
import { descriptionOf, tryParseMemoryFile } from '../blocks/frontmatter.js';
import { nearestIndex, type LayoutRow } from '../blocks/layouts.js';
import { withMemoryOperation } from '../git/lease.js';
import { SYSTEM_IDENTITY } from '../identity.js';
import type { FileEdit } from '../memfs/edit-types.js';
import { decodeMemoryText } from '../memfs/read-text.js';
import { writeUnderLease } from '../memfs/tool.js';
import { committedFiles, textOf } from './committed-files.js';
import type { DoctorContext } from './types.js';

/** One line of text: newlines and runs of space folded, so a hostile name cannot add lines to an index. */
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * The index line for `path` as `index` links it (pure): the file's `name` (else its file name; a sub-index
 * its folder), its description when it has one.
 * @example indexLine('a/MEMORY.md', 'a/b c.md', '---\nname: B\ndescription: d\n---\n') // '- [B](b%20c.md) — d'
 */
export function indexLine(index: string, path: string, text: string | null): string {
  const data = text === null ? null : (tryParseMemoryFile(text)?.data ?? null);
  const isIndex = posix.basename(path) === posix.basename(index);
  const fallback = isIndex ? posix.basename(posix.dirname(path)) : posix.basename(path, '.md');
  const named = data !== null && typeof data['name'] === 'string' ? oneLine(data['name']) : '';
  // No brackets in the title: a name may not forge a second link into the index.
  const title = (named === '' ? fallback : named).replace(/[[\]]/g, '');
  const rel = posix
    .relative(posix.dirname(index), path)
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/'); // a bare ')' would end the link early
  const description = data === null ? '' : oneLine(descriptionOf(data));
  return `- [${title}](${rel})${description === '' ? '' : ` — ${description}`}`;
}

type Files = ReadonlyArray<{ path: string; text: string | null }>;

/** Index → the lines to append, from the check's findings (check-layout.ts `indexProblems`; pure). */
export function missingIndexLines(layout: LayoutRow, files: Files, problems: readonly string[]): Map<string, string[]> {
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const out = new Map<string, string[]>();
  for (const line of problems) {
    const m = /^(.*): not linked from (.*)$/.exec(line);
    const path = m?.[1];
    const index = path === undefined ? null : nearestIndex(layout, path);
    if (path === undefined || index === null || index !== m?.[2] || !texts.has(index)) continue;
    out.set(index, [...(out.get(index) ?? []), indexLine(index, path, texts.get(path) ?? null)]);
  }
  return out;
}

/**
 * Appends the missing index lines in one commit; returns what it did, one line per index.
 * @example await fixIndexLinks(ctx, readRepoLayout(ctx.memoryDir), (files) => indexProblems(layout, files)) // ['MEMORY.md: linked 2 file(s)']
 */
export async function fixIndexLinks(
  ctx: DoctorContext,
  layout: LayoutRow,
  problemsOf: (files: Files) => string[],
): Promise<string[]> {
  const files = (await committedFiles(ctx)).map((f) => ({ path: f.path, text: textOf(f) }));
  const additions = missingIndexLines(layout, files, problemsOf(files));
  if (additions.size === 0) return [];
  const deps = {
    git: ctx.git,
    memoryDir: ctx.memoryDir,
    author: SYSTEM_IDENTITY,
    lease: <T>(fn: () => Promise<T>): Promise<T> =>
      withMemoryOperation(ctx.memoryDir, fn, { purpose: 'doctor --fix', commonDir: ctx.gitDir }),
  };
  await writeUnderLease(deps, 'doctor --fix', 'doctor: link every file from its nearest index', (fs) => {
    const edits: FileEdit[] = [];
    for (const [index, lines] of additions) {
      const bytes = fs.readFile(index);
      if (bytes === null) continue;
      const before = decodeMemoryText(bytes, index);
      const sep = before === '' || before.endsWith('\n') ? '' : '\n';
      edits.push({ file: index, before, after: `${before}${sep}${lines.join('\n')}\n` });
    }
    return edits;
  });
  return [...additions].map(([index, lines]) => `${index}: linked ${lines.length} file(s)`);
}
