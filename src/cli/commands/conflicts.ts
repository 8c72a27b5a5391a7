/**
 * `gitmem conflicts`: local commits kept aside after a conflict, and what ends them — resolve (ours, theirs,
 * a file's text, or a model's proposal on its own branch), accept a proposal, drop.
 */
import { MemoryError, type Memory } from '../../index.js';
import type { Resolution } from '../../internals.js';
import type { CliCommand, CliContext } from '../types.js';

const USAGE = `Usage:
  gitmem conflicts [list]             branches kept after a conflict (sync keep-branch, background writers), and proposals
  gitmem conflicts show <branch>      its commits, the diff it brings, what conflicts with main now (a proposal: its diff)
  gitmem conflicts resolve <branch> --ours|--theirs --reason R
                                      one merge commit: conflicting hunks go main's (--ours) or the branch's (--theirs) way
  gitmem conflicts resolve <branch> --file PATH [--path MEMORY_PATH] --reason R
                                      the conflicted file's resolved text from PATH (- = stdin); --path when several conflict
  gitmem conflicts resolve <branch> --propose [-m MODEL] [--reason R]
                                      a model writes a resolution on a branch gitmem/proposal/<time>; main is not touched
  gitmem conflicts accept <proposal> [--reason R]   land a proposal (made on the current main)
  gitmem conflicts drop <branch>      delete a kept branch or proposal (its commits stay under refs/gitmem/backup/)
Global: --agent ID, --home DIR, --json.`;

async function list(ctx: CliContext, memory: Memory): Promise<number> {
  const kept = await memory.conflicts.list();
  const proposals = await memory.conflicts.proposals();
  const keptText = kept.map(
    (b) => `${b.branch}  (${b.commits} commit(s), ${b.date})\n  ${b.files.join('\n  ') || '(no file changes)'}`,
  );
  const propText = proposals.map(
    (p) => `${p.proposal}  proposed resolution of ${p.branch} (gitmem conflicts show ${p.proposal})`,
  );
  const text = [...keptText, ...propText].join('\n');
  ctx.print({ kept, proposals }, text || 'No kept branches: nothing is waiting to be reconciled.');
  return 0;
}

async function show(ctx: CliContext, memory: Memory, name: string): Promise<number> {
  const proposal = (await memory.conflicts.proposals()).find((p) => p.proposal === name.replace(/^refs\/heads\//, ''));
  if (proposal) {
    const d = await memory.diff({ from: proposal.base, to: proposal.commit });
    ctx.print(
      { ...proposal, diff: d.text },
      `${proposal.proposal}: proposed resolution of ${proposal.branch}\naccept: gitmem conflicts accept ${proposal.proposal}\n\n${d.text}`,
    );
    return 0;
  }
  const d = await memory.conflicts.show(name);
  const log = d.log.map((c) => `  ${c.sha.slice(0, 7)} ${c.subject}`).join('\n');
  const conflicts =
    d.conflicted.length === 0 ? 'merges cleanly into main now' : `conflicts with main in: ${d.conflicted.join(', ')}`;
  const main = d.mainDiff === '' ? '' : `\nwhat main changed in those files meanwhile:\n${d.mainDiff}`;
  ctx.print(
    d,
    `${d.branch} (${d.kind}) head ${d.head.slice(0, 7)}\ncommits not on main:\n${log}\n${conflicts}\n\nwhat the branch changes:\n${d.diff}${main}`,
  );
  return 0;
}

async function resolutionFrom(ctx: CliContext, memory: Memory, branch: string): Promise<Resolution> {
  const ours = ctx.values['ours'] === true;
  const theirs = ctx.values['theirs'] === true;
  const file = ctx.option('file');
  if ([ours, theirs, file !== undefined].filter(Boolean).length !== 1) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      'conflicts resolve: give exactly one of --ours, --theirs, --file PATH or --propose',
    );
  }
  if (ours || theirs) return { take: ours ? 'ours' : 'theirs' };
  let path = ctx.option('path');
  if (path === undefined) {
    const conflicted = (await memory.conflicts.show(branch)).conflicted;
    if (conflicted.length !== 1)
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `conflicts resolve --file: ${conflicted.length === 0 ? 'nothing conflicts' : `${conflicted.length} files conflict (${conflicted.join(', ')})`}; name the file with --path`,
      );
    path = conflicted[0] as string;
  }
  return { files: { [path]: await ctx.readText(file as string) } };
}

async function resolve(ctx: CliContext, memory: Memory, branch: string): Promise<number> {
  if (ctx.values['propose'] === true) {
    const model = ctx.option('model');
    const reason = ctx.option('reason');
    const p = await memory.conflicts.propose(branch, { ...(model ? { model } : {}), ...(reason ? { reason } : {}) });
    ctx.print(
      p,
      `Proposed ${p.proposal} for ${p.branch} (main is unchanged). Accept it with: gitmem conflicts accept ${p.proposal}\n\n${p.diff}`,
    );
    return 0;
  }
  const reason = ctx.option('reason');
  if (reason === undefined)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      'conflicts resolve: --reason is required (it becomes the commit message)',
      { data: { field: 'reason' } },
    );
  const r = await memory.conflicts.resolve(branch, { ...(await resolutionFrom(ctx, memory, branch)), reason });
  ctx.print(
    r,
    `Resolved ${r.branch} in ${r.commit.slice(0, 7)} (${r.changedPaths.length} file(s) changed in main)${r.branchRemoved ? '' : `; ${r.branch} moved meanwhile and was kept`}.`,
  );
  return 0;
}

export const command: CliCommand = {
  name: 'conflicts',
  usage: USAGE,
  async run(ctx) {
    const [sub = 'list', name = ''] = ctx.args;
    const memory = await ctx.openMemory();
    if (sub === 'list') return list(ctx, memory);
    if (sub === 'show') return show(ctx, memory, name);
    if (sub === 'resolve') return resolve(ctx, memory, name);
    if (sub === 'accept') {
      const reason = ctx.option('reason');
      const r = await memory.conflicts.accept(name, reason ? { reason } : {});
      ctx.print(r, `Accepted ${r.proposal}: ${r.branch} resolved in ${r.commit.slice(0, 7)}.`);
      return 0;
    }
    if (sub === 'drop') {
      const r = await memory.conflicts.drop(name);
      ctx.print(r, `Dropped ${r.branch}; its commits stay reachable at ${r.backupRef}.`);
      return 0;
    }
    throw new MemoryError('UNKNOWN_COMMAND', `unknown sub-command '${sub}' (use list, show, resolve, accept or drop)`);
  },
};
