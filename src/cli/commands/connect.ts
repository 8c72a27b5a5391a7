/** `gitmem connect <harness>` / `gitmem connect --status`: gitmem's hooks and MCP server in a harness's settings. */
import { realpathSync } from 'node:fs';
import { catalogueUsage } from '../../harness/catalogue.js';
import { connect } from '../../harness/connect.js';
import { connectStatus, renderStatus } from '../../harness/status.js';
import type { CliCommand, CliContext } from '../types.js';

/** How the hooks start this gitmem again: this Node and this CLI's real path (not a symlink that may move). */
export function launchOf(): { node: string; bin: string } {
  const bin = process.argv[1] ?? '';
  let real = bin;
  try {
    real = realpathSync(bin);
  } catch {
    // keep the path as given
  }
  return { node: process.execPath, bin: real };
}

function run(ctx: CliContext): void {
  if (ctx.values['status'] === true) {
    const s = connectStatus({ home: ctx.home, env: ctx.env, cwd: ctx.cwd });
    return ctx.print(s, renderStatus(s));
  }
  const r = connect({
    home: ctx.home,
    harness: ctx.args[0],
    scope: ctx.option('scope'),
    agent: ctx.agent,
    dryRun: ctx.values['dry-run'] === true,
    // A home named by --home or GITMEM_HOME travels in the command lines: the harness's environment may lack it.
    env: ctx.env,
    cwd: ctx.cwd,
    launch: { ...launchOf(), ...(ctx.config.homeSource === 'default' ? {} : { home: ctx.home }) },
  });
  const where = r.scope === 'project' ? ` (project ${r.projectRoot})` : '';
  const lines: string[] = [];
  if (!r.changed) lines.push(`${r.harness} is already connected${where}; nothing written.`);
  else if (r.dryRun) lines.push(`Would connect ${r.harness}${where}:`, r.diff.trimEnd());
  else {
    lines.push(`Connected ${r.harness}${where}${r.agent ? ` (agent ${r.agent})` : ''}:`);
    for (const f of r.files)
      lines.push(`  ${f.action.padEnd(9)} ${f.path}${f.action === 'updated' ? ` (was: ${f.path}.gitmem-backup)` : ''}`);
    if (r.mapped) lines.push(`  mapped ${r.projectRoot} → ${r.agent ?? ''} in the gitmem config`);
  }
  if (!r.dryRun) lines.push(...r.notices);
  ctx.print(r, lines.join('\n'));
}

export const command: CliCommand = {
  name: 'connect',
  usage: `Usage:
  gitmem connect <harness> [--scope user|project] [--agent ID] [--dry-run] [--json]
  gitmem connect --status [--json]
Harnesses:
${catalogueUsage()}
  --scope user      the harness's per-user settings (default)
  --scope project   the settings files in the current git repository's root
  --agent ID        the agent these sessions use (also mapped to the current project in $GITMEM_HOME/config)
  --dry-run         show the changes, write nothing
  --status          what each harness's files hold of gitmem's, and the project mappings
Every changed file keeps its previous bytes in <file>.gitmem-backup; gitmem disconnect undoes it.
Global: --home DIR, --json.`,
  run: async (ctx) => run(ctx),
};
