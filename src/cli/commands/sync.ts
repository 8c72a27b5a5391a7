/** `gitmem sync [--on-conflict <policy>]`: pull (fast-forward, else rebase), then push; policies from sync/conflict-policy.ts. */
import {
  CONFLICT_POLICIES,
  CONFLICT_POLICY_NAMES,
  DEFAULT_CONFLICT_POLICY,
  MemoryError,
  parseConflictPolicy,
} from '../../internals.js';
import type { ConflictPolicy, MemoryErrorCode, SyncStatus } from '../../internals.js';
import type { CliCommand } from '../types.js';

const POLICY_HELP = CONFLICT_POLICY_NAMES.map(
  (p) => `  ${p}${p === DEFAULT_CONFLICT_POLICY ? ' (default)' : ''}: ${CONFLICT_POLICIES[p].help}`,
);

/** The error code of each failed outcome (push_failed carries its own). */
const FAILURE_CODE: Record<Exclude<SyncStatus, 'clean' | 'pushed'>, MemoryErrorCode | undefined> = {
  skipped: 'NOT_A_GIT_REPO',
  conflict: 'SYNC_CONFLICT',
  rejected: 'REMOTE_REJECTED',
  dirty: 'REPO_DIRTY',
  no_remote: 'NO_REMOTE',
  push_failed: undefined,
};

const KEEP = 'gitmem sync --on-conflict keep-branch';

/** After a conflict, how to keep the local commits on a branch, by the policy that ran. */
const NEXT_STEP: Record<ConflictPolicy, string | undefined> = {
  fail: `to keep the local commits on a branch and let main follow the remote: ${KEEP}`,
  'keep-branch': undefined, // it kept one: the kept-branch line names it
  leave: `finish the rebase with git, or abort it (git rebase --abort) and keep the local commits on a branch: ${KEEP}`,
};

export const command: CliCommand = {
  name: 'sync',
  usage: [
    `Usage: gitmem sync [--on-conflict ${CONFLICT_POLICY_NAMES.join('|')}] [--agent ID] [--json]`,
    ...POLICY_HELP,
    '  Exit 0 when clean or pushed (printed on stdout); otherwise exit 1 with one line on stderr:',
    "  SYNC_CONFLICT, REMOTE_REJECTED (the remote's commits break the memory rules: kept, main unchanged),",
    '  REPO_DIRTY, NO_REMOTE, PUSH_FAILED / GIT_AUTH / GIT_TRANSIENT (--json: the result in error.data).',
  ].join('\n'),
  async run(ctx) {
    const onConflict = parseConflictPolicy(ctx.values['on-conflict'] ?? DEFAULT_CONFLICT_POLICY);
    const memory = await ctx.openMemory();
    const memoryDir = memory.memoryDir;
    const r = await memory.sync({ onConflict });
    if (r.status === 'clean' || r.status === 'pushed') {
      return (
        ctx.print(
          r,
          [`${r.status}: ${r.summary}`, ...(r.backupRef ? [`previous main saved at ${r.backupRef}`] : [])].join('\n'),
        ),
        0
      );
    }
    // Every other outcome is a failure: one line on stderr, what to do next after it, the result in --json.
    const lines = [r.summary];
    if (r.conflictPaths?.length) lines.push(`conflicting: ${r.conflictPaths.join(', ')}`);
    if (r.status === 'rejected')
      lines.push(
        ...(r.problems ?? []).map((p) => `  ${p}`),
        'fix the remote (or lift a false alarm: gitmem secrets allow, gitmem protect), then sync again',
      );
    if (r.keptBranch) lines.push(`kept branch: ${r.keptBranch} (see \`gitmem conflicts show ${r.keptBranch}\`)`);
    else if (r.status === 'conflict' && NEXT_STEP[onConflict]) lines.push(NEXT_STEP[onConflict]);
    if (r.backupRef) lines.push(`previous main saved at ${r.backupRef}`);
    const message = r.status === 'skipped' ? `${memoryDir}: ${lines.join('\n')}` : lines.join('\n');
    throw new MemoryError(FAILURE_CODE[r.status] ?? r.error?.code ?? 'PUSH_FAILED', message, { data: { ...r } });
  },
};
