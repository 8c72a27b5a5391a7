/** `gitmem tokens [--top N]`: how many tokens system/ adds to the prompt (estimate: ceil(UTF-8 bytes / 4)). */
import { MemoryError } from '../../index.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'tokens',
  summary: 'estimate the tokens system/ adds to the system prompt',
  usage: `Usage: gitmem tokens [--top N] [--agent ID] [--json]
  Every markdown file under system/ at HEAD, ceil(UTF-8 bytes / 4) each; --top N shows the N largest (default 10).
  --json prints { commit, total_tokens, files: [{ path, tokens }] } (every file).`,
  async run(ctx) {
    const raw = ctx.option('top') ?? '10';
    const top = Number(raw);
    if (!Number.isSafeInteger(top) || top < 1) throw new MemoryError('INVALID_ARGUMENT', `--top must be a positive integer, got ${raw}`, { data: { field: 'top' } });
    const memory = await ctx.openMemory();
    const t = await memory.tokens();
    const width = Math.max(0, ...t.files.slice(0, top).map((f) => String(f.tokens).length));
    const rows = t.files.slice(0, top).map((f) => `  ${String(f.tokens).padStart(width)}  ${f.path}`);
    ctx.print(t, ['System prompt token estimate', `  Total: ${t.total_tokens} tokens`, 'Top files:', ...rows].join('\n'));
  },
};
