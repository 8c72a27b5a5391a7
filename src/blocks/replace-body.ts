/**
 * Swaps the body of a memory file while keeping its frontmatter, for personality switches and
 * seeded defaults: one place decides how such a file is laid out, so re-applying the same text is a no-op.
 */
import { MemoryError } from '../errors.js';
import {
  parseFrontmatterYaml,
  renderFrontmatter,
  singleLine,
  splitFrontmatter,
  type FrontmatterData,
} from './frontmatter.js';

const LEADING_KEYS = ['description', 'limit', 'read_only'] as const;

function renderKey(key: string, value: unknown): string {
  if (value === null) return `${key}:`; // keep an empty key empty (the renderer would quote "null")
  return renderFrontmatter({ [key]: value }, '').split('\n')[1] as string;
}

/**
 * Lays out a memory file: frontmatter (`description`, `limit`, `read_only` first, then the other keys in
 * their given order), a blank line, then the trimmed body with exactly one trailing newline.
 * @example composeMemoryFile({ description: 'Notes' }, 'hello\n\n') === '---\ndescription: Notes\n---\n\nhello\n'
 */
export function composeMemoryFile(data: FrontmatterData, body: string): string {
  const keys = [
    ...LEADING_KEYS.filter((k) => Object.hasOwn(data, k)),
    ...Object.keys(data).filter((k) => !(LEADING_KEYS as readonly string[]).includes(k)),
  ];
  const lines = ['---'];
  for (const key of keys) {
    if (data[key] !== undefined) lines.push(renderKey(key, data[key]));
  }
  lines.push('---');
  return `${lines.join('\n')}\n\n${body.trim()}\n`;
}

/**
 * Replaces the body of `existing`, keeping every frontmatter key (the description replaced when
 * `opts.description` is given and not blank). The file must open with a closed `---` block ⇒ else
 * FRONTMATTER_INVALID; a blank `newBody` ⇒ INVALID_ARGUMENT. Output layout: see {@link composeMemoryFile}.
 * @example replaceBodyPreservingFrontmatter('---\ndescription: Me\nlimit: 500\n---\nold\n', 'new')
 *   // '---\ndescription: Me\nlimit: 500\n---\n\nnew\n'
 */
export function replaceBodyPreservingFrontmatter(
  existing: string,
  newBody: string,
  opts: { description?: string } = {},
): string {
  const split = splitFrontmatter(existing);
  if (split.kind !== 'ok') {
    throw new MemoryError(
      'FRONTMATTER_INVALID',
      'Memory file is missing valid frontmatter; cannot safely replace its body.',
      { data: { problem: split.kind === 'none' ? 'missing' : 'unclosed' } },
    );
  }
  const body = newBody.trim();
  if (body === '') throw new MemoryError('INVALID_ARGUMENT', 'Personality content cannot be empty');
  const data = parseFrontmatterYaml(split.yamlText);
  const description = opts.description === undefined ? '' : singleLine(opts.description);
  if (description !== '') data['description'] = description;
  return composeMemoryFile(data, body);
}
