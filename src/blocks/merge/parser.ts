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

/** The part of a markdown-it instance the merge uses. */
export interface MarkdownIt {
  parse(src: string, env: object): BlockToken[];
  core: { ruler: { disable(names: string[]): void } };
}

/** markdown-it's factory (its default export). */
export type CreateMarkdownIt = (preset: string) => MarkdownIt;

let parser: ParseMarkdown | undefined;

/**
 * A block-level CommonMark parser from markdown-it's factory (for a caller that imported markdown-it itself,
 * such as the bundled merge driver).
 * @example const parse = blockParser(markdownIt); parse('# A\n')
 */
export function blockParser(create: CreateMarkdownIt): ParseMarkdown {
  const md = create('commonmark');
  md.core.ruler.disable(['inline', 'text_join']);
  return (text: string) => md.parse(text, {});
}

/**
 * The parser, loaded once per process. Throws when markdown-it cannot be loaded.
 * @example loadMarkdownParser()('- a\n') // [{ type: 'bullet_list_open', map: [0, 1], … }, …]
 */
export function loadMarkdownParser(): ParseMarkdown {
  parser ??= blockParser(createRequire(import.meta.url)('markdown-it') as CreateMarkdownIt);
  return parser;
}
