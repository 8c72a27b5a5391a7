/** `gitmem sync [--on-conflict <policy>]`: pull (fast-forward, else rebase), then push; policies from sync/conflict-policy.ts. */
import { CONFLICT_POLICIES, CONFLICT_POLICY_NAMES, createGitRunner, DEFAULT_CONFLICT_POLICY, MemoryError, parseConflictPolicy, resolveCredentials, resolveMemoryDir, syncMemory } from '../../index.js';
import type { CliCommand } from '../types.js';

const POLICY_HELP = CONFLICT_POLICY_NAMES.map((p) => `  ${p}${p === DEFAULT_CONFLICT_POLICY ? ' (default)' : ''}: ${CONFLICT_POLICIES[p].help}`);

export const command: CliCommand = {
  name: 'sync',
  summary: 'sync the memory with its remote: pull (fast-forward or rebase), then push',
  usage: [
    `Usage: gitmem sync [--on-conflict ${CONFLICT_POLICY_NAMES.join('|')}] [--agent ID] [--json]`,
    ...POLICY_HELP,
    '  Exit 0 when clean or pushed, 1 otherwise (conflict, dirty, no remote, push failed).',
  ].join('\n'),
  options: { 'on-conflict': { type: 'string' } },
  async run(ctx) {
    const onConflict = parseConflictPolicy(ctx.values['on-conflict'] ?? DEFAULT_CONFLICT_POLICY);
    const memoryDir = resolveMemoryDir({ home: ctx.home, agentId: ctx.agent, env: ctx.env });
    const credentials = resolveCredentials({ env: ctx.env, home: ctx.home });
    const r = await syncMemory({ git: createGitRunner({ env: ctx.env }), memoryDir, onConflict, ...(credentials ? { credentials } : {}) });
    if (r.status === 'skipped') throw new MemoryError('NOT_A_GIT_REPO', `${memoryDir}: ${r.summary}`);
    const lines = [`${r.status}: ${r.summary}`];
    if (r.keptBranch) lines.push(`kept branch: ${r.keptBranch} (see \`gitmem conflicts show ${r.keptBranch}\`)`);
    if (r.backupRef) lines.push(`previous main saved at ${r.backupRef}`);
    if (r.status === 'push_failed' && !ctx.json) {
      throw new MemoryError(r.error?.code ?? 'PUSH_FAILED', r.summary, { data: { ...r } });
    }
    ctx.print(r, lines.join('\n'));
    return r.status === 'clean' || r.status === 'pushed' ? 0 : 1;
  },
};
