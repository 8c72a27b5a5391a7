/**
 * The memory tool's JSON schema (what a harness hands to its model) and the apply-patch tool's.
 * Plain data, so adapters (MCP, AI SDK) can use it without importing anything heavy. The limits the tool
 * enforces (memfs/limits.ts, blocks/path-rules.ts) are stated here, in words and as maxLength.
 */
import { MEMORY_COMMANDS } from '../blocks/memory-commands.js';
import { PATH_LIMITS } from '../blocks/path-rules.js';
import { TOOL_LIMITS } from './limits.js';

const n = (v: number): string => v.toLocaleString('en-US');
const PATH_RULE =
  `At most ${n(PATH_LIMITS.maxPathBytes)} bytes, ${PATH_LIMITS.maxDepth} components and ${PATH_LIMITS.maxSegmentBytes} bytes per component; ` +
  'no "..", no control characters, no component that means .git (.GIT, .git., git~1, …); symbolic links are never followed.';
const TEXT_RULE = `At most ${n(TOOL_LIMITS.textChars)} characters; no NUL characters.`;
// No maxLength on paths: an absolute path inside the memory directory is accepted and may be longer.
const path = (what: string) => ({ type: 'string', description: `${what} ${PATH_RULE}` }) as const;
const text = (what: string) =>
  ({ type: 'string', maxLength: TOOL_LIMITS.textChars, description: `${what} ${TEXT_RULE}` }) as const;

/** JSON Schema of a memory-tool call. `command` is required, and `reason` for every command but `view`. */
export const memoryToolSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['command'],
  properties: {
    command: {
      type: 'string',
      enum: [...MEMORY_COMMANDS],
      description:
        'The edit to make (one commit each), or view: read the committed memory (no commit). view of a directory (the root when file_path is omitted) ' +
        'lists its files and folders two levels deep, one per line as "<size>\t<path>" with " — <description>" after markdown files; ' +
        'view of a file returns its text, each line prefixed by its number (6 wide, right-aligned) and a tab. Long output is cut and says so.',
    },
    reason: {
      type: 'string',
      maxLength: TOOL_LIMITS.reasonChars,
      description: `Required for every command but view: why this change is being made; it becomes the commit message. At most ${n(TOOL_LIMITS.reasonChars)} characters; no NUL characters.`,
    },
    file_path: path(
      'Memory-relative path, e.g. system/human.md (create, str_replace, insert, delete, update_description; view: a file or directory, default the memory root). ' +
        'A path ending in .md, or without an extension (.md is added), is a memory file with frontmatter; ' +
        'skills/<name>/SKILL.md is a skill (its name is the folder); any other extension (notes/progress.json) ' +
        'is a plain file kept exactly as written, with no frontmatter and no description.',
    ),
    old_path: path('rename: the current memory-relative path.'),
    new_path: path('rename: the new memory-relative path.'),
    old_string: text(
      'str_replace: exact text to find in the body, or in the whole text of a plain file (must match once unless replace_all; an ambiguous match names its lines, numbered like insert_line).',
    ),
    new_string: text(
      `str_replace: replacement text (empty deletes the match); the edited file may hold at most ${n(TOOL_LIMITS.fileChars)} characters.`,
    ),
    replace_all: { type: 'boolean', description: 'str_replace: replace every match.' },
    insert_line: {
      type: 'integer',
      minimum: 0,
      description:
        'insert: the line to insert AFTER, counting lines of the whole file from 1 (frontmatter included), as view numbers them; ' +
        '0 = the top, the line count = the end. In a memory file the frontmatter stays first: 0 and the line of its closing --- ' +
        'both insert at the top of the body, a line inside it is refused.',
    },
    insert_text: text('insert: the text to insert.'),
    description: {
      type: 'string',
      maxLength: TOOL_LIMITS.descriptionChars,
      description:
        `create / update_description: one-line summary shown in the memory tree. At most ${n(TOOL_LIMITS.descriptionChars)} characters; no NUL characters. ` +
        'create may leave it out when file_text starts with its own frontmatter giving one (the two must agree when both are given); a plain file takes none.',
    },
    file_text: text(
      'create: the body of the new file. It may start with its own frontmatter (---\n…\n---\n): the keys are merged with the description, ' +
        'never doubled. A plain file holds exactly this text.',
    ),
    view_range: {
      type: 'array',
      items: { type: 'integer' },
      minItems: 2,
      maxItems: 2,
      description:
        'view of a file: the lines to show, [start, end], 1-based and inclusive; end -1 = to the end of the file.',
    },
  },
} as const;

/** JSON Schema of a memory_apply_patch call. */
export const applyPatchToolSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason', 'input'],
  properties: {
    reason: {
      type: 'string',
      maxLength: TOOL_LIMITS.reasonChars,
      description: `Why; becomes the commit message. At most ${n(TOOL_LIMITS.reasonChars)} characters; no NUL characters.`,
    },
    input: {
      type: 'string',
      maxLength: TOOL_LIMITS.patchChars,
      description:
        `The patch, from "*** Begin Patch" to "*** End Patch". At most ${n(TOOL_LIMITS.patchChars)} characters; no NUL characters. ` +
        'Hunks match the whole file, frontmatter included; a mismatch shows the file with its lines numbered as the memory tool counts them. ' +
        "An added memory file keeps the frontmatter it brings (a skill's name is its folder); an added plain file is written as given. " +
        `Every file path follows the memory tool's path rule (at most ${n(PATH_LIMITS.maxPathBytes)} bytes, no "..", no .git look-alike, links never followed).`,
    },
  },
} as const;
