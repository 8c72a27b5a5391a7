/** `gitmem shared create|attach|detach|list|sync|history`: shared memory repositories (sync/shared.ts). */
import { MemoryError } from '../../index.js';
import { homeShared } from '../../internals.js';
import type { CliCommand, CliContext } from '../types.js';

const USAGE = `Usage:
  gitmem shared create <name> [--remote URL]          make the shared repository in the home (no agent needed)
  gitmem shared attach <name> --agent ID [--read-only] check it out beside the agent's memory, as shared/<name>/
  gitmem shared detach <name> --agent ID              stop seeing it (the checkout stays, ignored)
  gitmem shared list [--agent ID]                     the home's shared repositories and who attaches them
  gitmem shared sync --agent ID                       sync every attached repository with its remote
  gitmem shared history <name> --agent ID [--limit N] its recent commits
Global: --home DIR, --json.`;

type SharedInfo = Awaited<ReturnType<ReturnType<typeof homeShared>['list']>>[number];

/** Who has it attached: `ada (read-write), bob (read-only)`, or `-`. */
function agentsOf(r: SharedInfo): string {
  const each = r.attachments.map((a) => `${a.agentId} (${a.readOnly ? 'read-only' : 'read-write'})`);
  return each.length > 0 ? each.join(', ') : '-';
}

/** `shared create <name>` and `shared list` for the home (no agent needed). */
async function homeLevel(ctx: CliContext, sub: 'create' | 'list', name: string): Promise<number> {
  const shared = homeShared({ config: ctx.config, launch: ctx.launch });
  if (sub === 'create') {
    const remote = ctx.values['remote'];
    const r = await shared.create(name, typeof remote === 'string' ? { remote } : {});
    ctx.print(
      r,
      `Created shared repository ${r.name} (${r.hub}); attach it with \`gitmem shared attach ${r.name} --agent ID\``,
    );
    return 0;
  }
  const list = await shared.list();
  const lines = list.map((r) => `${r.name}\t${r.remote}\t${agentsOf(r)}`);
  ctx.print(list, lines.length > 0 ? lines.join('\n') : 'No shared repositories (gitmem shared create <name>).');
  return 0;
}

export const command: CliCommand = {
  name: 'shared',
  usage: USAGE,
  async run(ctx) {
    const [sub, name = ''] = ctx.args;
    // create, and list without --agent, need only the home: no agent's memory is opened for them.
    if (sub === 'create' || (sub === 'list' && ctx.agent === undefined)) return homeLevel(ctx, sub, name);
    const { shared } = await ctx.openMemory();
    if (sub === 'attach') {
      const r = await shared.attach(name, { readOnly: ctx.values['read-only'] === true });
      ctx.print(
        r,
        `Attached ${r.name} ${r.readOnly ? 'read-only' : 'read-write'} at ${r.checkout} (shared/${r.name}/)`,
      );
    } else if (sub === 'detach') {
      const r = await shared.detach(name);
      ctx.print(r, r.detached ? `Detached ${name} (its checkout stays on disk, ignored)` : `${name} was not attached`);
    } else if (sub === 'list') {
      const list = await shared.list();
      const lines = list.map(
        (r) =>
          `${r.name}\t${r.attached ? (r.readOnly ? 'attached read-only' : 'attached') : '-'}\t${r.remote}\t${agentsOf(r)}`,
      );
      ctx.print(list, lines.length > 0 ? lines.join('\n') : 'No shared repositories (gitmem shared create <name>).');
    } else if (sub === 'sync') {
      const results = await shared.sync();
      const lines = results.map((r) => `${r.name}: ${r.error ?? r.result?.summary ?? ''}`);
      ctx.print(results, lines.length > 0 ? lines.join('\n') : 'No shared repository is attached.');
      if (results.some((r) => r.error !== undefined)) return 1;
    } else if (sub === 'history') {
      const limit = ctx.values['limit'];
      const n = typeof limit === 'string' ? Number(limit) : undefined;
      if (n !== undefined && !(Number.isInteger(n) && n > 0))
        throw new MemoryError('INVALID_ARGUMENT', 'shared history: --limit takes a positive whole number');
      const log = await shared.history(name, n === undefined ? {} : { limit: n });
      ctx.print(log, log.map((c) => `${c.commit.slice(0, 7)} ${c.subject} (${c.author})`).join('\n'));
    } else
      throw new MemoryError('UNKNOWN_COMMAND', `shared: unknown sub-command ${JSON.stringify(sub ?? '')}\n${USAGE}`);
    return 0;
  },
};
