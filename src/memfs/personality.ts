/**
 * Applies a personality preset: replaces the bodies of system/persona.md and system/human.md (keeping
 * their frontmatter) as one commit; refuses on a dirty repo like every automated write.
 */
import { getPersonality } from '../blocks/personalities.js';
import { composeMemoryFile, replaceBodyPreservingFrontmatter } from '../blocks/replace-body.js';
import type { CommandContext } from './commands/context.js';
import { readFile } from './commands/context.js';
import type { FileEdit } from './edits.js';
import { writeUnderLease, type WriteDeps, type WriteResult } from './tool.js';

/** Plans the persona/human edits for a personality (pure over the current files). */
export function planPersonality(ctx: CommandContext, personalityId: string): FileEdit[] {
  const p = getPersonality(personalityId);
  return (['persona', 'human'] as const).map((name) => {
    const file = `system/${name}.md`;
    const text = p[name];
    const before = readFile(ctx, file);
    const after =
      before === null
        ? composeMemoryFile({ description: text.description }, text.body)
        : replaceBodyPreservingFrontmatter(before, text.body, { description: text.description });
    return { file, before, after: before !== null && after.replace(/\s+$/, '') === before.replace(/\r\n?/g, '\n').replace(/\s+$/, '') ? before : after };
  });
}

/**
 * Switches the agent's personality in one commit (message defaults to `chore(personality): switch to <id>`).
 * @example await applyPersonality(deps, 'stern')
 */
export async function applyPersonality(deps: WriteDeps, personalityId: string, reason?: string): Promise<WriteResult> {
  const p = getPersonality(personalityId);
  const message = reason?.trim() || `chore(personality): switch to ${p.id}`;
  return writeUnderLease(deps, `personality ${p.id}`, message, (fs) => planPersonality({ memoryDir: deps.memoryDir, tool: 'personality', fs }, personalityId));
}
