/**
 * The reminder a harness shows the agent while kept branches or proposals wait: what they are and the commands
 * that look at them. Kept out of the compiled prompt, which depends only on the committed HEAD.
 */
import type { KeptBranch } from '../sync/conflicts.js';
import type { ProposalInfo } from './proposals.js';

const SHOWN = 5;

/**
 * The reminder text, or null when nothing waits. Pure.
 * @example conflictsReminder([{ branch: 'gitmem/worker/w1', files: ['notes/a.md'], commits: 1 } as KeptBranch], [])
 */
export function conflictsReminder(kept: readonly KeptBranch[], proposals: readonly ProposalInfo[]): string | null {
  if (kept.length === 0 && proposals.length === 0) return null;
  const lines = [
    `<system-reminder>Memory: ${kept.length} kept branch(es) and ${proposals.length} proposed resolution(s) wait; nothing in them is lost, and none of it is in your memory yet.`,
  ];
  for (const b of kept.slice(0, SHOWN))
    lines.push(
      `- ${b.branch}: ${b.commits} commit(s) touching ${b.files.slice(0, 3).join(', ') || 'no files'}${b.files.length > 3 ? ', …' : ''}`,
    );
  for (const p of proposals.slice(0, SHOWN))
    lines.push(
      `- ${p.proposal}: a proposed resolution of ${p.branch} (gitmem conflicts show ${p.proposal}; gitmem conflicts accept ${p.proposal})`,
    );
  const more = kept.length + proposals.length - Math.min(kept.length, SHOWN) - Math.min(proposals.length, SHOWN);
  if (more > 0) lines.push(`- … and ${more} more (gitmem conflicts list)`);
  lines.push(
    "Look: `gitmem conflicts show <branch>` (or `git diff main...<branch>` in $MEMORY_DIR). Settle: `gitmem conflicts resolve <branch> --ours|--theirs|--file PATH --reason R`, or `--propose` for a model's proposal.</system-reminder>",
  );
  return lines.join('\n');
}
