/**
 * The repository's layout (`gitmem.layout`, blocks/layouts.ts), and in a layout with routing indexes the
 * index hierarchy: every deferred file (and every sub-index) linked exactly once from its nearest index, every
 * directory holding deferred markdown with its index, no index linking a file that is not there.
 */
import type { LayoutRow } from '../blocks/layouts.js';
import { nearestIndex } from '../blocks/layouts.js';
import { readRepoLayout } from '../hooks/layout-config.js';
import { committedFiles, textOf } from './committed-files.js';
import { linkTargets } from './check-links.js';
import { fixIndexLinks } from './fix-index-links.js';
import { capped, ok, problem, type DoctorCheck } from './types.js';

/**
 * What is wrong with the index hierarchy of `files` under `layout` (one line each; empty when none). Pure.
 * @example indexProblems(LAYOUTS.index, [{ path: 'MEMORY.md', text: '' }, { path: 'a/b.md', text: '…' }])
 *   // ['a/MEMORY.md: missing (a/ holds deferred memory)', 'a/b.md: not linked from a/MEMORY.md']
 */
export function indexProblems(
  layout: LayoutRow,
  files: ReadonlyArray<{ path: string; text: string | null }>,
): string[] {
  if (layout.indexFile === null) return [];
  const paths = new Set(files.map((f) => f.path));
  const out: string[] = [];
  const links = new Map<string, Map<string, number>>(); // index → target → count
  for (const f of files) {
    if (layout.classify(f.path) !== 'index' || f.text === null) continue;
    const counts = new Map<string, number>();
    for (const l of linkTargets(f.path, f.text)) {
      if (l.wiki) continue;
      counts.set(l.target, (counts.get(l.target) ?? 0) + 1);
      if (!paths.has(l.target)) out.push(`${f.path}: dead link ${l.raw}`);
    }
    links.set(f.path, counts);
  }
  const missing = new Set<string>();
  const routed = [...paths].filter((p) => {
    const kind = layout.classify(p);
    return (kind === 'memory' || kind === 'index') && !layout.isCore(p);
  });
  for (const p of routed.sort()) {
    const index = nearestIndex(layout, p);
    if (index === null) continue;
    if (!paths.has(index)) {
      if (!missing.has(index))
        out.push(`${index}: missing (${index.slice(0, -layout.indexFile.length)} holds deferred memory)`);
      missing.add(index);
      continue;
    }
    const n = links.get(index)?.get(p) ?? 0;
    if (n === 0) out.push(`${p}: not linked from ${index}`);
    else if (n > 1) out.push(`${p}: linked ${n} times from ${index} (once is enough)`);
  }
  return out;
}

export const layoutCheck: DoctorCheck = {
  title: 'the layout, and its index hierarchy (every file linked once from its nearest index)',
  async run(ctx) {
    const layout = readRepoLayout(ctx.memoryDir);
    const head = `layout: ${layout.name} (${layout.summary})`;
    if (layout.indexFile === null) return ok(head);
    const files = (await committedFiles(ctx)).map((f) => ({ path: f.path, text: textOf(f) }));
    const found = indexProblems(layout, files);
    return found.length === 0 ? ok(head) : problem(`${head}: ${found.length} index problem(s)`, capped(found));
  },
  // Safe: it only appends the index lines that are missing (fix-index-links.ts), never deletes.
  async fix(ctx) {
    const layout = readRepoLayout(ctx.memoryDir);
    if (layout.indexFile === null) return [];
    return fixIndexLinks(ctx, layout, (files) => indexProblems(layout, files));
  },
};
