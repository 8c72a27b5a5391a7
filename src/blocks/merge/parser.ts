/**
 * The markdown parser (markdown-it, CommonMark, block level only: inline parsing is switched off, the merge
 * needs only where blocks begin and end). Loaded synchronously on first use — it costs tens of milliseconds,
 * and only a merge that git's line merge could not finish needs it, never gitmem's import or a write.
 * markdown-it rather than mdast's parser (micromark): micromark's time grows with the square of the number of
 * lists and quotes in a file (a 60 kB file of sections with nested lists took 15 s here, 64 kB of `- - x`
 * lines 50 s), markdown-it's linearly (30–60 ms for the same files).
 */
import { createRequire } from 'node:module';
import type { BlockToken, ParseMarkdown } from './structure.js';

interface MarkdownIt {
  parse(src: string, env: object): BlockToken[];
  core: { ruler: { disable(names: string[]): void } };
}

let parser: ParseMarkdown | undefined;

/**
 * The parser, loaded once per process. Throws when markdown-it cannot be loaded.
 * @example loadMarkdownParser()('- a\n') // [{ type: 'bullet_list_open', map: [0, 1], … }, …]
 */
export function loadMarkdownParser(): ParseMarkdown {
  if (parser) return parser;
  const create = createRequire(import.meta.url)('markdown-it') as (preset: string) => MarkdownIt;
  const md = create('commonmark');
  md.core.ruler.disable(['inline', 'text_join']);
  parser = (text: string) => md.parse(text, {});
  return parser;
}
