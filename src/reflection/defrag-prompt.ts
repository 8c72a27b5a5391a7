/**
 * The task message of a defragmentation run: what to restructure, the budgets the merge holds it to, the
 * content-preservation rule it is checked against, the commit trailer, then the memory snapshot (the tree
 * with descriptions, `system/` inlined). Like reflection's, it names no absolute path and never says "worktree".
 */
import type { TreeLimits } from '../blocks/tree-limits.js';
import type { CommittedSnapshot } from '../read/read-revision.js';
import { buildParentSnapshot, shrinkSnapshot, type ParentSnapshot } from './snapshot.js';

/** The trailer every defrag commit ends with (how `gitmem log` readers tell a defrag apart). */
export const DEFRAG_TRAILER = 'Memory-Defrag: gitmem defrag';
/** System prompt + task message are capped together at ~16k estimated tokens, as for reflection. */
const PROMPT_CHAR_CAP = 64_000;

export interface DefragPromptInput {
  snap: CommittedSnapshot;
  /** Estimated-token budget of `system/`, which the merge enforces. */
  systemBudget: number;
  systemChars: number;
  instruction?: string;
  treeLimits: TreeLimits;
}

function header(i: DefragPromptInput): string[] {
  const parts = [
    'Defragment the memory: restructure it into a focused, well-named hierarchy following your rules.',
    '',
    '## Memory',
    'The memory directory is $MEMORY_DIR (the shell starts there; file-tool paths are relative to it). The',
    "`system/` files are in the primary agent's context and are shown below inside <memory> tags; read the other",
    'files with the file tools. Commit with `git add -A` and `git commit`; the harness merges your commits',
    'afterwards. Stop and report if a commit fails.',
    '',
    '## Budgets',
    `\`system/\` may hold at most ~${i.systemBudget} estimated tokens (4 characters each; now about ` +
      `${Math.ceil(i.systemChars / 4)}), and a file with a \`limit\` in its frontmatter may not grow past it. A merge that`,
    'breaks a budget or any memory rule (frontmatter with a non-empty `description` on every memory file) is refused.',
    '',
    '## Nothing is lost',
    'After your run every non-blank line of the memory (frontmatter and headings aside) must still be found',
    'somewhere in it: in its old file, in a new one, or inside a longer line. Move text; do not delete it. Exact',
    'duplicates may go (the other copy remains); content that is no longer load-bearing goes to `ARCHIVE.md`.',
    'A run that deletes a line without moving it is not merged.',
    '',
    '## Commit messages',
    'First line: the reason for the change. End every message with this trailer line, exactly:',
    DEFRAG_TRAILER,
  ];
  if (i.instruction && i.instruction.trim() !== '')
    parts.push('', '## Additional instruction from the user', i.instruction.trim());
  return parts;
}

/**
 * The task message, its snapshot shrunk when the whole prompt would pass the cap.
 * @example buildDefragPrompt({ snap, systemBudget: 8000, systemChars: 900, treeLimits }, system.length).prompt
 */
export function buildDefragPrompt(
  i: DefragPromptInput,
  systemChars: number,
): { prompt: string; snapshot: ParentSnapshot['stats'] } {
  const files = i.snap.paths
    .filter((p) => i.snap.markdown.has(p))
    .map((p) => ({ path: p, content: i.snap.markdown.get(p) ?? '' }));
  const parent = buildParentSnapshot(files, { treeLimits: i.treeLimits });
  const head = header(i).join('\n');
  const fixed = systemChars + head.length + 2;
  return { prompt: `${head}\n\n${shrinkSnapshot(parent, fixed, PROMPT_CHAR_CAP)}`, snapshot: parent.stats };
}
