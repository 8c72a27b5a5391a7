/**
 * What the prompt and the tree need of a markdown file outside `system/`: its one-line description, a
 * skill's name, or why its frontmatter is broken. Small and derived from the text alone, so a reader may keep
 * it per blob id and never parse the same content twice.
 */
import { descriptionOf, parseMemoryFile, singleLine } from './frontmatter.js';

/** A markdown file reduced to what its listing shows. */
export interface MarkdownSummary {
  /** The description on one line ('' when absent or when the frontmatter is broken). */
  description: string;
  /** The frontmatter's `name` on one line, when it is a non-blank string (a skill's display name). */
  name?: string;
  /** Why the frontmatter could not be read, on one line; unset when it parsed. */
  error?: string;
}

/**
 * Parses a markdown file's frontmatter down to its summary. Pure; never throws.
 * @example summarizeMarkdown('---\ndescription: Ideas\n---\nbody') // { description: 'Ideas' }
 */
export function summarizeMarkdown(content: string): MarkdownSummary {
  try {
    const { data } = parseMemoryFile(content);
    const summary: MarkdownSummary = { description: singleLine(descriptionOf(data)) };
    const name = data['name'];
    if (typeof name === 'string' && name.trim() !== '') summary.name = singleLine(name);
    return summary;
  } catch (err) {
    return { description: '', error: singleLine(err instanceof Error ? err.message : String(err)) };
  }
}
