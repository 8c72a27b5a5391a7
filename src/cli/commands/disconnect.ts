/** `gitmem disconnect <harness>`: takes out exactly what `gitmem connect` added. */
import { catalogueUsage } from '../../harness/catalogue.js';
import { disconnect } from '../../harness/disconnect.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'disconnect',
  usage: `Usage: gitmem disconnect <harness> [--scope user|project] [--dry-run] [--json]
Harnesses:
${catalogueUsage()}
A file still as connect left it gets its earlier bytes back (or is deleted, if connect created it); one
edited since loses only gitmem's entries.
Global: --home DIR, --json.`,
  async run(ctx) {
    const r = disconnect({
      home: ctx.home,
      harness: ctx.args[0],
      scope: ctx.option('scope'),
      dryRun: ctx.values['dry-run'] === true,
      env: ctx.env,
      cwd: ctx.cwd,
    });
    const where = r.scope === 'project' ? ` (project ${r.projectRoot})` : '';
    let text: string;
    if (!r.changed) text = `${r.harness} is not connected${where}; nothing written.`;
    else if (r.dryRun) text = `Would disconnect ${r.harness}${where}:\n${r.diff.trimEnd()}`;
    else
      text = [
        `Disconnected ${r.harness}${where}:`,
        ...r.files.filter((f) => f.action !== 'unchanged').map((f) => `  ${f.action.padEnd(9)} ${f.path}`),
      ].join('\n');
    ctx.print(r, text);
  },
};
