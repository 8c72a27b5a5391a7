/**
 * The adapter's changes as one `memory_apply_patch` input, so every command is one commit through gitmem's
 * write path (lease, validator, secret scan, rollback) and the files end up holding exactly the text planned.
 * Pure.
 *
 * How the grammar is made exact:
 * - paths are written `memory/<path>`: gitmem's path rule drops one leading `memory/` (models often write it), so
 *   a file that really lives under `memory/` keeps its name;
 * - lines are joined with CRLF: the parser splits on `\r?\n`, so a line's own final CR (a CRLF text) survives;
 * - a rewrite replaces every line of the text the adapter read (`-` lines), which the patch finds before it
 *   applies anything: lines another writer changed since make it fail (the command then plans again), lines it
 *   added around them stay. gitmem gives an updated file its old text's line endings in the lines that changed
 *   (blocks/line-style.ts), which is the new text's own unless the endings are mixed; only then is the file,
 *   once found unchanged the same way, deleted and added again (an Add is written exactly as given);
 * - no line is a context line (` ` prefix): ` *** End Patch` would end the patch there.
 */
import { normalizeText } from '../../blocks/frontmatter.js';
import { restyle } from '../../blocks/line-style.js';

/** One file's change: a new file, a rewrite of `before`, a removal, or a move (with a rewrite when needed). */
export type FileOp =
  | { kind: 'add'; file: string; text: string }
  | { kind: 'rewrite'; file: string; before: string; text: string }
  | { kind: 'delete'; file: string }
  | { kind: 'move'; from: string; to: string; before: string; text: string };

const at = (file: string): string => `memory/${file}`;
const plus = (text: string): string[] => text.split('\n').map((l) => `+${l}`);
/** The lines gitmem matches a hunk against: the text normalised (no BOM, LF), as its parser reads them. */
const minus = (text: string): string[] =>
  normalizeText(text)
    .split('\n')
    .map((l) => `-${l}`);

/**
 * The `+` lines that make gitmem's update of `before` exactly `text`, or null when its line-ending rule cannot.
 * Every line of `before` goes and the last new one has no line end of its own: the hunk then matches `before`
 * as the whole file and leaves a final newline or none, as `text` has it.
 */
function updateLines(before: string, text: string): string[] | null {
  const plain = !before.includes('\r') && before.charCodeAt(0) !== 0xfeff;
  const edited = plain ? text : normalizeText(text);
  return restyle(before, edited) === text ? plus(edited) : null;
}

function rewrite(file: string, before: string, text: string, moveTo?: string): string[] {
  const update = [
    `*** Update File: ${at(file)}`,
    ...(moveTo === undefined ? [] : [`*** Move to: ${at(moveTo)}`]),
    '@@',
    ...minus(before),
  ];
  const lines = updateLines(before, text);
  if (lines !== null) return [...update, ...lines];
  return [
    `*** Update File: ${at(file)}`,
    '@@',
    ...minus(before),
    ...plus(normalizeText(before)),
    `*** Delete File: ${at(file)}`,
    `*** Add File: ${at(moveTo ?? file)}`,
    ...plus(text),
  ];
}

function render(op: FileOp): string[] {
  switch (op.kind) {
    case 'add':
      return [`*** Add File: ${at(op.file)}`, ...plus(op.text)];
    case 'delete':
      return [`*** Delete File: ${at(op.file)}`];
    case 'rewrite':
      return rewrite(op.file, op.before, op.text);
    case 'move':
      if (op.text !== op.before) return rewrite(op.from, op.before, op.text, op.to);
      // The text moves as it is: its first line, replaced by itself, anchors the hunk.
      return [
        `*** Update File: ${at(op.from)}`,
        `*** Move to: ${at(op.to)}`,
        '@@',
        minus(op.before)[0] as string,
        `+${(minus(op.before)[0] as string).slice(1)}`,
      ];
  }
}

/**
 * The patch for a set of changes.
 * @example renderPatch([{ kind: 'add', file: 'a.txt', text: 'x\n' }]) // '*** Begin Patch\r\n*** Add File: memory/a.txt\r\n+x\r\n+\r\n*** End Patch'
 */
export function renderPatch(ops: readonly FileOp[]): string {
  return ['*** Begin Patch', ...ops.flatMap(render), '*** End Patch'].join('\r\n');
}
