/**
 * `gitmem defrag`: restructure the agent's memory with the defragmentation sub-agent (split, merge, keep and
 * clean) in a private, sandboxed worktree, then merge it — unless it deleted a line that is nowhere any more.
 * Thin: option checks and printing; the work is `memory.defrag` (reflection/defrag.ts).
 */
import { MemoryError, MODEL_SPEC_FORMS, type DefragResult } from '../../internals.js';
import type { CliCommand, CliContext } from '../types.js';

const USAGE = `
Usage: gitmem defrag [--agent <id>] [-i <text>] [-m <provider:model>] [--timeout <seconds>] [--dry-run]
                     [--allow-drops] [--json]

Restructures the agent's memory into a focused hierarchy (split multi-topic files, merge overlapping or tiny
ones, keep and clean the rest; named by level, links kept, descriptions accurate, budgets respected) in a
private worktree, then merges the sub-agent's commits through the validated merge.
  -i, --instruction extra instruction for this run (e.g. "focus on project/")
  -m, --model       ${MODEL_SPEC_FORMS.join(', ')}; else GITMEM_MODEL
                    or "model" in $GITMEM_HOME/config
  --timeout <s>     stop the sub-agent after this many seconds (default 1200)
  --dry-run         print the diff it would merge (and any dropped lines); merge nothing
  --allow-drops     merge even when a line of the old memory is nowhere in the new one (still reported)
Content is never dropped silently: if a line of the memory before the run (frontmatter and headings aside) is
nowhere after it, nothing is merged and the branch is kept (CONTENT_DROPPED, exit 1).
Exit codes: 0 merged, nothing to change, or dry run done; 1 anything else (dirty memory, no model, dropped
content, conflict (branch kept), rules broken, failure); 2 internal error. --json prints the result object.
`;

function timeoutMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new MemoryError('INVALID_ARGUMENT', `--timeout must be a positive number of seconds, got ${value}`);
  return n * 1000;
}

function printText(ctx: CliContext, r: DefragResult): void {
  if (r.diff !== undefined) ctx.stdout(r.diff.trim() === '' ? '(no changes)' : r.diff);
  const dropped = r.preservation?.dropped ?? [];
  const lines = dropped.map((d) => `  dropped: ${d.path}:${d.line} ${d.text}`);
  const more = (r.preservation?.droppedCount ?? 0) - dropped.length;
  if (more > 0) lines.push(`  … and ${more} more`);
  lines.push(...(r.conflictingPaths ?? []).map((p) => `  conflicting: ${p}`));
  if (r.error) ctx.stderr([`gitmem: ${r.error.code}: ${r.error.message.split('\n')[0] ?? ''}`, ...lines].join('\n'));
  else {
    if (lines.length > 0) ctx.stderr(lines.join('\n'));
    ctx.stdout(r.message);
  }
}

async function run(ctx: CliContext): Promise<number> {
  const [extra] = ctx.args;
  if (extra === 'help') return (void ctx.stdout(USAGE.trim()), 0);
  if (extra !== undefined) throw new MemoryError('INVALID_ARGUMENT', `Unknown argument: ${extra}`);
  const ms = timeoutMs(ctx.option('timeout'));
  const memory = await ctx.openMemory();
  const instruction = ctx.option('instruction');
  const model = ctx.option('model');
  const r = await memory.defrag({
    onProgress: (line) => ctx.stderr(line),
    onWarning: (line) => ctx.stderr(line),
    stream: true,
    ...(instruction !== undefined ? { instruction } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(ms !== undefined ? { limits: { timeoutMs: ms } } : {}),
    ...(ctx.values['dry-run'] === true ? { dryRun: true } : {}),
    ...(ctx.values['allow-drops'] === true ? { allowDrops: true } : {}),
  });
  if (ctx.json) {
    if (r.error) ctx.stderr(`gitmem: ${r.error.code}: ${r.error.message}`);
    ctx.stdout(JSON.stringify(r));
  } else printText(ctx, r);
  return r.success ? 0 : 1;
}

export const command: CliCommand = {
  name: 'defrag',
  usage: USAGE,
  run,
};
