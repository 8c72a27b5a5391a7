/**
 * `gitmem worker run --command '<cmd>'`: runs any command as a confined memory worker in a private worktree
 * and prints the outcome. Thin: validation and printing only; the work is runWorkerCommand.
 */
import { MemoryError, type Memory, type MemoryWorkerOutcome, type PruneResult } from '../../index.js';
import type { CliCommand, CliContext } from '../types.js';

const USAGE = `
Usage: gitmem worker run --command '<shell command>' [--task <text>] [--paths p1,p2] [--repair]
                         [--timeout <seconds>] [--agent <id>] [--json]
       gitmem worker prune [--agent <id>] [--json]

Runs the command (sh -c) confined by the filesystem sandbox, in a private sparse worktree of the agent's
memory (cwd = the worktree, MEMORY_DIR = the worktree). The command must COMMIT its own work; uncommitted
leftovers are reported and discarded. Commits are merged back as "merge(memory): <branch>".
  --paths    extra files/directories to check out besides system/ and top-level files
  --repair   run on the memory checkout itself (under the operation lease) instead of a worktree
Outcomes (exit code): merged / no_changes (0), merge_conflict — branch kept, see \`gitmem conflicts\` (3),
discarded — the command failed or was cancelled (4), rejected — its commits break the memory rules (a link,
a read_only file changed, a file without frontmatter, a name memory may not hold); nothing merged, branch
kept (5).

prune: removes the worktrees of workers whose process is gone (killed, crashed). A branch with commits main
lacks is kept (see \`gitmem conflicts\`); an empty one is deleted. Live workers are never touched.
`;

function describePrune(r: PruneResult): string {
  const lines = r.pruned.map((p) => {
    const branch =
      p.branch === 'kept'
        ? `branch ${p.branchName} kept (${p.unmergedCommits} commit(s) not on main)`
        : `branch ${p.branch}`;
    return `pruned ${p.name}${p.ownerPid !== null ? ` (pid ${p.ownerPid} gone)` : ''}: ${branch}`;
  });
  for (const s of r.skipped)
    lines.push(`left ${s.name}: ${s.reason.replace('_', ' ')}${s.ownerPid !== null ? ` (pid ${s.ownerPid})` : ''}`);
  return lines.length > 0 ? lines.join('\n') : 'No worker worktrees: nothing to prune.';
}

const CONFLICT_REASONS: Record<Extract<MemoryWorkerOutcome, { status: 'merge_conflict' }>['conflictReason'], string> = {
  content: 'it conflicts with the checkout',
  uncommitted: 'uncommitted edits in the checkout are in the way',
  remote: "the checkout's unpushed commits conflict with its remote (run gitmem sync)",
};

function describe(o: MemoryWorkerOutcome): string {
  switch (o.status) {
    case 'merged':
      return `merged: ${o.commitCount} commit(s) from ${o.branchName} → ${o.head.slice(0, 12)}`;
    case 'no_changes':
      return 'no_changes: the worker committed nothing';
    case 'merge_conflict':
      return [
        `merge_conflict: ${o.branchName} (${o.commitCount} commit(s)) was kept; ${CONFLICT_REASONS[o.conflictReason]}:`,
        ...o.conflictingPaths.map((p) => `  ${p}`),
        `inspect: gitmem conflicts show ${o.branchName}`,
      ].join('\n');
    case 'rejected':
      return [
        `rejected: ${o.branchName} (${o.commitCount} commit(s)) was kept; it breaks the memory rules, so nothing was merged:`,
        ...o.problems.map((p) => `  ${p}`),
        `inspect: gitmem conflicts show ${o.branchName}`,
      ].join('\n');
    case 'discarded':
      return `discarded (${o.reason})${o.error ? `: ${o.error}` : ''}`;
  }
}

const EXIT_CODES: Record<MemoryWorkerOutcome['status'], number> = {
  merged: 0,
  no_changes: 0,
  merge_conflict: 3,
  discarded: 4,
  rejected: 5,
};

/** The outcome line(s), then the files the command left uncommitted (update workers discard them). */
function describeAll(o: MemoryWorkerOutcome): string {
  if (o.uncommittedPaths.length === 0) return describe(o);
  const what =
    o.type === 'repair'
      ? 'left uncommitted in the checkout'
      : 'uncommitted, discarded with the worktree (commit what should be kept)';
  return [
    describe(o),
    `${o.uncommittedPaths.length} file(s) ${what}:`,
    ...o.uncommittedPaths.map((p) => `  ${p}`),
  ].join('\n');
}

/**
 * A failed update worker that names a top-level folder its sparse checkout lacks (in its command or its
 * output) most likely failed for that reason: say how to check the folder out.
 */
async function sparseHint(memory: Memory, paths: readonly string[], text: string): Promise<string | undefined> {
  const listed = await memory.files().catch(() => undefined);
  const inCone = new Set(['system', ...paths.map((p) => p.replace(/^\.?\/+/, '').split('/')[0])]);
  const topDirs = new Set(
    (listed?.files ?? [])
      .map((f) => f.path.split('/'))
      .filter((parts) => parts.length > 1)
      .map((parts) => parts[0] as string),
  );
  const missing = [...topDirs].filter((d) => !inCone.has(d));
  const named = missing.filter((d) =>
    new RegExp(`(^|[^\\w.-])${d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`).test(text),
  );
  if (named.length === 0) return undefined;
  const dirs = named.map((d) => `${d}/`).join(', ');
  return `hint: ${dirs} ${named.length === 1 ? 'is' : 'are'} not checked out in the worker (only system/, top-level files and --paths are); pass --paths ${named.join(',')}`;
}

function exitCode(o: MemoryWorkerOutcome): number {
  return EXIT_CODES[o.status];
}

function parseTimeout(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0)
    throw new MemoryError('INVALID_ARGUMENT', `--timeout must be a positive number of seconds, got ${String(v)}`);
  return Math.round(n * 1000);
}

async function prune(ctx: CliContext): Promise<number> {
  const result = await (await ctx.openMemory()).pruneWorkers();
  ctx.print(result, describePrune(result));
  return 0;
}

async function run(ctx: CliContext): Promise<number> {
  const [sub] = ctx.args;
  if (sub === 'prune') return prune(ctx);
  if (sub !== 'run')
    throw new MemoryError(
      'UNKNOWN_COMMAND',
      `unknown worker sub-command ${JSON.stringify(sub ?? '')} (use: gitmem worker run --command '<cmd>' | gitmem worker prune)`,
    );
  const command = ctx.values['command'];
  if (typeof command !== 'string' || command.trim() === '')
    throw new MemoryError('INVALID_ARGUMENT', "--command '<shell command>' is required");
  const paths =
    typeof ctx.values['paths'] === 'string'
      ? ctx.values['paths']
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean)
      : undefined;
  const task = typeof ctx.values['task'] === 'string' ? ctx.values['task'] : undefined;
  const timeoutMs = parseTimeout(ctx.values['timeout']);
  const memory = await ctx.openMemory();
  let output = '';
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // With a remote, the checkout is brought up to date before the merge (a remote edit conflicts now, not at the next sync).
    const outcome = await memory.runWorker({
      command,
      type: ctx.values['repair'] === true ? 'repair' : 'update',
      signal: controller.signal,
      onWarning: ctx.stderr,
      onOutput: (r) => {
        output = `${r.stdout}\n${r.stderr}`;
        if (r.stdout) ctx.stderr(r.stdout);
        if (r.stderr) ctx.stderr(r.stderr);
      },
      ...(task ? { description: task } : {}),
      ...(paths ? { paths } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
    });
    ctx.print(outcome, describeAll(outcome));
    if (outcome.status === 'discarded' && outcome.reason === 'body_failed' && outcome.type === 'update') {
      const hint = await sparseHint(memory, paths ?? [], `${command}\n${output}`);
      if (hint) ctx.stderr(hint);
    }
    return exitCode(outcome);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export const command: CliCommand = {
  name: 'worker',
  usage: USAGE,
  run,
};
