/** `gitmem tokens [--top N]`: how many tokens system/ adds to the prompt (estimate: ceil(UTF-8 bytes / 4)). */
import { MemoryError } from '../../index.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'tokens',
  usage: `Usage: gitmem tokens [--top N] [--agent ID] [--json]
  Every markdown file under system/ at HEAD, ceil(UTF-8 bytes / 4) each; --top N shows the N largest (default 10).
  The total is shown against the system/ budget (config budgets.system / gitmem.budgetSystem): a write that grows
  system/ past it is refused (BUDGET_EXCEEDED); a repository already over keeps working.
  --json prints { commit, total_tokens, budget_tokens, files: [{ path, tokens }] } (every file).`,
  async run(ctx) {
    const raw = ctx.option('top') ?? '10';
    const top = Number(raw);
    if (!Number.isSafeInteger(top) || top < 1)
      throw new MemoryError('INVALID_ARGUMENT', `--top must be a positive integer, got ${raw}`, {
        data: { field: 'top' },
      });
    const memory = await ctx.openMemory();
    const t = await memory.tokens();
    const width = Math.max(0, ...t.files.slice(0, top).map((f) => String(f.tokens).length));
    const rows = t.files.slice(0, top).map((f) => `  ${String(f.tokens).padStart(width)}  ${f.path}`);
    const share = t.budget_tokens > 0 ? Math.round((t.total_tokens / t.budget_tokens) * 100) : 0;
    const over =
      t.total_tokens > t.budget_tokens
        ? ` — over budget by ${t.total_tokens - t.budget_tokens}: only growth is refused; move detail out of system/`
        : '';
    const total = `  Total: ${t.total_tokens} of ${t.budget_tokens} tokens budgeted (${share}%)${over}`;
    ctx.print(t, ['System prompt token estimate', total, 'Top files:', ...rows].join('\n'));
  },
};
