/** `gitmem search <query>`: ranked hits in the committed memory (HEAD or --at REV). */
import { MemoryError } from '../../index.js';
import type { SearchMode, SearchOptions } from '../../internals.js';
import type { CliCommand } from '../types.js';

function limitOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(n))
    throw new MemoryError('INVALID_ARGUMENT', `--limit must be a positive integer, got ${raw}`);
  return n;
}

export const command: CliCommand = {
  name: 'search',
  usage: [
    'Usage: gitmem search <query> [--at REV] [--limit N] [--path GLOB]... [--mode fulltext|semantic|hybrid] [--agent ID] [--json]',
    '  Words match in any order (files with more, rarer words rank first), "quoted phrases" as written,',
    '  the last word also as a prefix. --at searches an older revision (sha, branch, HEAD~3, an ISO date).',
    '  Output: path:line  snippet  (score); --json prints the hits.',
  ].join('\n'),
  async run(ctx) {
    const paths = ctx.values['path'];
    const options: SearchOptions = {
      at: ctx.option('at'),
      limit: limitOf(ctx.option('limit')),
      paths: Array.isArray(paths) ? paths.map(String) : typeof paths === 'string' ? paths : undefined,
      mode: ctx.option('mode') as SearchMode | undefined,
    };
    const memory = await ctx.openMemory();
    const hits = await memory.search(ctx.args[0] ?? '', options);
    const text = hits.map((h) => `${h.path}:${h.line}  ${h.snippet}  (${h.score.toFixed(3)})`).join('\n');
    ctx.print(hits, text || 'No matches.');
  },
};
