/**
 * The two starter memory files every new memory repository gets: a persona that is a blank slate
 * with curiosity, and an empty-but-curious profile of the human. Texts live in prompts/persona.md and human.md.
 */
import { descriptionOf, parseMemoryFile } from './frontmatter.js';
import { loadPromptAsset } from './prompt-assets.js';
import { composeMemoryFile } from './replace-body.js';

/** A description + body pair read from a shipped markdown text. */
export interface BlockText {
  description: string;
  body: string;
}

/**
 * Reads a shipped block text (frontmatter `description` + body) from prompts/.
 * @example blockTextFromAsset('persona.md').description !== ''
 */
export function blockTextFromAsset(asset: string): BlockText {
  const parsed = parseMemoryFile(loadPromptAsset(asset));
  return { description: descriptionOf(parsed.data), body: parsed.body.trim() };
}

/**
 * The default files created by init, in order: `system/persona.md`, then `system/human.md`. Each carries
 * frontmatter with a non-empty description and passes the commit rules.
 * @example defaultMemoryFiles().map((f) => f.path) // ['system/persona.md', 'system/human.md']
 */
export function defaultMemoryFiles(): Array<{ path: string; content: string }> {
  return (['persona', 'human'] as const).map((name) => {
    const text = blockTextFromAsset(`${name}.md`);
    return { path: `system/${name}.md`, content: composeMemoryFile({ description: text.description }, text.body) };
  });
}
