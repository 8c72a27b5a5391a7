/**
 * The two starter memory files every new memory repository gets: a persona that is a blank slate
 * with curiosity, and an empty-but-curious profile of the human. Texts live in prompts/persona.md and human.md.
 */
import { descriptionOf, parseMemoryFile } from './frontmatter.js';
import { loadPromptAsset } from './prompt-assets.js';
import { LAYOUTS, type LayoutRow } from './layouts.js';
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

/**
 * The starter files of a new repository in a layout: each block (persona, human) as a core file with the
 * frontmatter the layout requires, then the layout's root index when it has one.
 * @example starterFilesFor(LAYOUTS.index, blocks).map((f) => f.path) // ['persona.md', 'human.md', 'MEMORY.md']
 */
export function starterFilesFor(
  layout: LayoutRow,
  blocks: ReadonlyArray<BlockText & { name: string }>,
): Array<{ path: string; content: string }> {
  const files = blocks.map((b) => ({
    path: layout.corePath(b.name),
    content: composeMemoryFile(
      layout.requiredKeys.includes('name')
        ? { name: b.name, description: b.description }
        : { description: b.description },
      b.body,
    ),
  }));
  if (layout.starterIndex !== null && layout.indexFile !== null)
    files.push({ path: layout.indexFile, content: layout.starterIndex });
  return files;
}

/**
 * The default starter files of a layout (the shipped persona and human texts).
 * @example defaultFilesFor(LAYOUTS.system) // the same as defaultMemoryFiles()
 */
export function defaultFilesFor(layout: LayoutRow = LAYOUTS.system): Array<{ path: string; content: string }> {
  return starterFilesFor(
    layout,
    (['persona', 'human'] as const).map((name) => ({ name, ...blockTextFromAsset(`${name}.md`) })),
  );
}
