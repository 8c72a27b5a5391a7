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

/** What --auto-memory adds to the report: where the memory lives now and what was imported. */
function autoMemoryLines(r: {
  imported: string[];
  importedFrom: string;
  memoryDir: string;
  dryRun: boolean;
}): string[] {
  const verb = r.dryRun ? 'would import' : 'imported';
  return [
    `  Claude Code's auto memory: ${r.memoryDir}`,
    r.imported.length === 0
      ? `  nothing new to import from ${r.importedFrom}`
      : `  ${verb} ${r.imported.length} file(s) from ${r.importedFrom} (one commit; the folder is left as it was)`,
  ];
}

async function run(ctx: CliContext): Promise<void> {
  if (ctx.values['status'] === true) {
    const s = connectStatus({ home: ctx.home, env: ctx.env, cwd: ctx.cwd });
    return ctx.print(s, renderStatus(s));
  }
  const options = {
    home: ctx.home,
    harness: ctx.args[0],
    scope: ctx.option('scope'),
    agent: ctx.agent,
    dryRun: ctx.values['dry-run'] === true,
    // A home named by --home or GITMEM_HOME travels in the command lines: the harness's environment may lack it.
    env: ctx.env,
    cwd: ctx.cwd,
    launch: { ...launchOf(), ...(ctx.config.homeSource === 'default' ? {} : { home: ctx.home }) },
  };
  const auto =
    ctx.values['auto-memory'] === true
      ? await (
          await import('../../harness/auto-memory-connect.js')
        ).connectAutoMemory({ ...options, config: ctx.config })
      : undefined;
  const r = auto ?? connect(options);
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
  if (auto) lines.push(...autoMemoryLines(auto));
  if (!r.dryRun) lines.push(...r.notices);
  ctx.print(r, lines.join('\n'));
}

export const command: CliCommand = {
  name: 'connect',
  usage: `Usage:
  gitmem connect <harness> [--scope user|project] [--agent ID] [--dry-run] [--json]
  gitmem connect claude-code --auto-memory [--agent ID] [--dry-run] [--json]
  gitmem connect --status [--json]
Harnesses:
${catalogueUsage()}
  --scope user      the harness's per-user settings (default)
  --scope project   the settings files in the current git repository's root
  --agent ID        the agent these sessions use (also mapped to the current project in $GITMEM_HOME/config)
  --auto-memory     Claude Code's own auto memory kept in the agent's checkout: its folder imported (one commit),
                    autoMemoryDirectory set to the checkout, Write/Edit/MultiEdit into it validated and committed
  --dry-run         show the changes, write nothing
  --status          what each harness's files hold of gitmem's, and the project mappings
Every changed file keeps its previous bytes in <file>.gitmem-backup; gitmem disconnect undoes it.
Global: --home DIR, --json.`,
  run: (ctx) => run(ctx),
};
