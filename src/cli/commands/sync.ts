/** `gitmem sync [--on-conflict fail|keep-branch|leave]`: pull (fast-forward, else rebase), then push. */
import { createGitRunner, MemoryError, resolveCredentials, syncMemory } from '../../index.js';
import type { ConflictPolicy } from '../../index.js';
import { openMemoryDir } from '../../memory.js';
import type { CliCommand } from '../types.js';

const POLICIES: readonly ConflictPolicy[] = ['fail', 'keep-branch', 'leave'];

export const command: CliCommand = {
  name: 'sync',
  summary: 'sync the memory with its remote: pull (fast-forward or rebase), then push',
  usage: [
    'Usage: gitmem sync [--on-conflict fail|keep-branch|leave] [--agent ID] [--json]',
    '  fail (default): stop, main unchanged;  keep-branch: keep local commits on gitmem/conflict/<time>,',
    '  main follows the remote;  leave: leave the rebase in progress to resolve by hand.',
    '  Exit 0 when clean or pushed, 1 otherwise (conflict, dirty, no remote, push failed).',
  ].join('\n'),
  async run(ctx) {
    const raw = ctx.values['on-conflict'];
    const onConflict = (typeof raw === 'string' ? raw : 'fail') as ConflictPolicy;
    if (!POLICIES.includes(onConflict)) {
      throw new MemoryError('INVALID_ARGUMENT', `--on-conflict must be one of ${POLICIES.join(', ')}, got ${String(raw)}`);
    }
    const memoryDir = openMemoryDir({ home: ctx.home, agentId: ctx.agent, env: ctx.env }).memoryDir;
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
