/**
 * The text of a new file, shared by `create` and apply-patch's Add File. A plain file is exactly its text. A
 * memory markdown file or a SKILL.md gets one frontmatter block: a text that starts with its own frontmatter
 * is merged with the tool's (its keys kept in place, the tool's `description` added when it has none and
 * required to agree when it has one, a skill's `name` filled from its folder), never wrapped in a second one.
 * Keys the file may not carry are kept, so the validator refuses them by name.
 */
import {
  descriptionOf,
  normalizeText,
  parseFrontmatterYaml,
  renderMemoryFile,
  setFrontmatterKeys,
  singleLine,
  splitFrontmatter,
} from '../../blocks/frontmatter.js';
import { isMemoryError, MemoryError } from '../../errors.js';
import { restyle } from '../line-style.js';
import type { LayoutRow } from '../../blocks/layouts.js';
import { toolFileKind } from './context.js';

export interface NewFileRequest {
  /** Prefix of messages, e.g. `memory create`. */
  operation: string;
  /** Repo-relative path of the new file. */
  file: string;
  /** The tool's description; blank counts as none. */
  description?: string | undefined;
  /** Used when neither the call nor the text gives a description (apply-patch: `Memory block <label>`). */
  fallbackDescription?: string;
  text: string;
  /** Give a markdown file's text a final newline when it lacks one. */
  finalNewline: boolean;
  /** The repository's layout: which files carry frontmatter, and whether a memory file needs a `name`. */
  layout?: LayoutRow;
}

/** A memory file's `name` when its layout requires one and the text gives none: its file name. */
const nameFor = (file: string): string => (file.split('/').at(-1) ?? file).replace(/\.md$/, '');

function refuse(operation: string, message: string, field = 'description'): never {
  throw new MemoryError('INVALID_ARGUMENT', `${operation}: ${message}`, { data: { field } });
}

/** The frontmatter a text opens with, or null when it opens with none (an unclosed `---` is body text). */
function ownFrontmatter(operation: string, text: string): Record<string, unknown> | null {
  const split = splitFrontmatter(text);
  if (split.kind !== 'ok') return null;
  try {
    return parseFrontmatterYaml(split.yamlText);
  } catch (err) {
    if (!isMemoryError(err)) throw err;
    throw new MemoryError(
      'FRONTMATTER_INVALID',
      `${operation}: the frontmatter at the start of the text is invalid: ${err.message}`,
      { cause: err },
    );
  }
}

/**
 * The content of a new file at `req.file`. Throws INVALID_ARGUMENT (no description, two that differ, a
 * description for a plain file) or FRONTMATTER_INVALID (the text's own frontmatter is not YAML).
 * @example newFileText({ operation: 'memory create', file: 'notes/a.md', description: 'A', text: 'hi', finalNewline: true })
 *   // '---\ndescription: A\n---\nhi\n'
 */
export function newFileText(req: NewFileRequest): string {
  const kind = toolFileKind(req.file, req.layout);
  const needsName = kind === 'memory' && (req.layout?.requiredKeys.includes('name') ?? false);
  const given =
    req.description !== undefined && req.description.trim() !== '' ? singleLine(req.description) : undefined;
  if (kind === 'plain') {
    if (given !== undefined)
      refuse(
        req.operation,
        `${req.file} is a plain file (not markdown memory): it has no frontmatter, so leave out 'description'`,
      );
    return req.text;
  }
  const text = req.finalNewline && req.text !== '' && !req.text.endsWith('\n') ? `${req.text}\n` : req.text;
  const folder = req.file.split('/').at(-2) ?? '';
  const own = ownFrontmatter(req.operation, text);
  if (own === null) {
    const description = given ?? req.fallbackDescription;
    if (description === undefined)
      refuse(req.operation, "'description' must be a non-empty string (or the text's own frontmatter gives one)");
    return renderMemoryFile(
      kind === 'skill'
        ? { name: folder, description }
        : needsName
          ? { name: nameFor(req.file), description }
          : { description },
      text,
    );
  }
  const updates: Array<[string, unknown]> = [];
  if (kind === 'skill' && !Object.hasOwn(own, 'name')) updates.push(['name', folder]);
  if (needsName && !Object.hasOwn(own, 'name')) updates.push(['name', nameFor(req.file)]);
  if (Object.hasOwn(own, 'description')) {
    const theirs = singleLine(descriptionOf(own));
    if (given !== undefined && theirs !== given) {
      refuse(
        req.operation,
        `'description' (${JSON.stringify(given)}) and the text's frontmatter description (${JSON.stringify(theirs)}) differ; give one of them`,
      );
    }
  } else {
    const description = given ?? req.fallbackDescription;
    if (description === undefined)
      refuse(req.operation, "'description' must be a non-empty string (or the text's own frontmatter gives one)");
    updates.push(['description', description]);
  }
  if (updates.length === 0) return text;
  return restyle(text, setFrontmatterKeys(normalizeText(text), updates));
}
