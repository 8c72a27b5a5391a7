/**
 * What the model sees of a stored file, and what is stored for the text it wrote. Pure.
 *
 * Anthropic's memory tool is a plain file system: the model writes any text to any name and computes its next
 * `insert_line` from that text. gitmem's memory markdown needs frontmatter with a description. So a `.md` text
 * (or a skill's SKILL.md) that is not a valid memory file as it stands is stored under a frontmatter block of
 * gitmem's own, marked by a comment line ({@link HIDDEN_MARK}), and that block is hidden from the model: it
 * views, edits and counts lines of exactly its own text. A text that is a valid memory file as it stands
 * (the model wrote frontmatter the validator accepts) is stored as it is, and shown whole: the frontmatter is
 * the model's. Plain files (`.txt`, `.json`, any other extension) are stored exactly as written.
 *
 * The mapping round-trips: `visibleText(storedText(file, text, previous)) === text` for every text, a text
 * that itself opens with a marked block included (it gets one more, so exactly one is hidden).
 */
import {
  descriptionOf,
  parseFrontmatterYaml,
  renderFrontmatter,
  singleLine,
  splitFrontmatter,
} from '../../blocks/frontmatter.js';
import { classifyPath, findProblems, frontmatterKeysFor } from '../../blocks/validate.js';
import { describeText } from './semantics.js';

/**
 * The comment line that marks a frontmatter block as gitmem's, not the model's (YAML ignores it; every
 * frontmatter edit of gitmem's keeps comment lines where they are).
 */
export const HIDDEN_MARK =
  "# gitmem: not part of the file as Anthropic's memory tool wrote it, which starts after the closing ---";

/**
 * The length of the hidden block a stored text opens with, 0 for none: LF lines from `---` to the first
 * closing `---` (where gitmem's parser closes it too), one of them exactly {@link HIDDEN_MARK}.
 * @example hiddenLength(`---\ndescription: d\n${HIDDEN_MARK}\n---\nhi`) // the index of 'hi'
 */
export function hiddenLength(stored: string): number {
  if (!stored.startsWith('---\n')) return 0;
  let marked = false;
  for (let pos = 4; ;) {
    const end = stored.indexOf('\n', pos);
    if (end === -1) return 0; // unclosed, or closed without a line end: not a block gitmem wrote
    const line = stored.slice(pos, end);
    if (line.includes('\r')) return 0; // gitmem writes its block with LF only; anything else is someone's text
    if (line.trimEnd() === '---') return marked && line === '---' ? end + 1 : 0;
    if (line === HIDDEN_MARK) marked = true;
    pos = end + 1;
  }
}

/**
 * The text the model sees of a stored file: all of it, less a hidden block.
 * @example visibleText(`---\ndescription: d\n${HIDDEN_MARK}\n---\nhi`) // 'hi'
 */
export function visibleText(stored: string): string {
  return stored.slice(hiddenLength(stored));
}

/** True when `text` may be committed at `file` as it stands (format and read_only rules; secrets are the commit's). */
function acceptedAsIs(file: string, text: string, previous: string | null): boolean {
  const status = previous === null ? 'added' : 'modified';
  return findProblems([{ status, path: file, content: text, headContent: previous }], { secrets: false }).length === 0;
}

/** The description a hidden block gives: the text's own frontmatter description, else its first heading or line. */
function describe(text: string, file: string): string {
  const split = splitFrontmatter(text);
  if (split.kind !== 'ok') return describeText(text, file);
  try {
    const own = singleLine(descriptionOf(parseFrontmatterYaml(split.yamlText)));
    if (own !== '') return describeText(own, file);
  } catch {
    // not YAML: the body describes it
  }
  return describeText(split.body, file);
}

/**
 * A new hidden block for `text` at `file`: its description (a SKILL.md's `name` too), and the mark.
 * @example hiddenBlock('notes/a.md', '# Alpha\n') // `---\ndescription: Alpha\n${HIDDEN_MARK}\n---\n`
 */
export function hiddenBlock(file: string, text: string): string {
  const skill = classifyPath(file) === 'skill';
  const folder = file.split('/').at(-2) ?? '';
  const rendered = renderFrontmatter(
    skill ? { name: folder, description: describe(text, file) } : { description: describe(text, file) },
    '',
  );
  return `${rendered.slice(0, -'---\n'.length)}${HIDDEN_MARK}\n---\n`;
}

/**
 * What is stored at `file` for the text the model wrote there. `previous` is what the file (or, for a move,
 * its source) held; a hidden block it had is kept when it still fits, so an edit changes only the model's lines.
 * @example storedText('notes/a.md', '# Alpha\n', null) // `---\ndescription: Alpha\n${HIDDEN_MARK}\n---\n# Alpha\n`
 * @example storedText('notes/a.txt', 'x', null) // 'x'
 */
export function storedText(file: string, text: string, previous: string | null): string {
  if (frontmatterKeysFor(file) === null) return text;
  if (hiddenLength(text) === 0 && acceptedAsIs(file, text, previous)) return text;
  const kept = previous === null ? '' : previous.slice(0, hiddenLength(previous));
  if (kept !== '' && acceptedAsIs(file, kept + text, previous)) return kept + text;
  return hiddenBlock(file, text) + text;
}
