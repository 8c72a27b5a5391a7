/** `gitmem log [<path>] [-n N] [--since DATE]`: memory commits (of one path: renames followed), newest first. */
import { MemoryError } from '../../index.js';
import type { HistoryEntry } from '../../index.js';
import { WRITER_KINDS } from '../../internals.js';
import type { CliCommand } from '../types.js';

const fileLine = (f: HistoryEntry['files'][number]): string =>
  f.oldPath !== undefined ? `${f.status} ${f.oldPath} → ${f.path}` : `${f.status} ${f.path}`;

export const command: CliCommand = {
  name: 'log',
  usage: `Usage: gitmem log [<path>] [-n N] [--since DATE] [--agent ID] [--json]
  DATE: 2025-01-02, 2025-01-02T10:00Z or "3 days ago". writer: ${WRITER_KINDS.join(' | ')}.
  --json prints [{ sha, date, author, email, writer, reason, parents, files: [paths], changes: [{ status, path, oldPath? }] }].`,
  async run(ctx) {
    const raw = typeof ctx.values['n'] === 'string' ? ctx.values['n'] : '20';
    const limit = Number(raw);
    if (!Number.isInteger(limit) || limit < 1)
      throw new MemoryError('INVALID_ARGUMENT', `-n must be a positive integer, got ${raw}`);
    const memory = await ctx.openMemory();
    const since = ctx.option('since');
    const path = ctx.args[0];
    const entries = await memory.history({
      limit: Math.min(limit, 1000),
      ...(since !== undefined ? { since } : {}),
      ...(path !== undefined ? { path } : {}),
    });
    const json = entries.map((e) => ({ ...e, files: e.files.map((f) => f.path), changes: e.files }));
    const text = entries
      .map(
        (e) =>
          `${e.sha.slice(0, 7)} ${e.date} ${e.author} (${e.writer})\n    ${e.reason.split('\n').join('\n    ')}\n    files: ${e.files.map(fileLine).join(', ')}`,
      )
      .join('\n');
    ctx.print(json, text || 'No commits yet.');
  },
};
