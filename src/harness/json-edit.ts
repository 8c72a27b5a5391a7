/**
 * Text edits of a JSON document that leave every other byte alone: insert a property or array element,
 * replace a value, remove one. jsonc-parser's `modify` re-formats the whole line around an edit (a
 * user's `[1,2]` became four lines), so the edits here are spliced by hand at parse-tree offsets, in the
 * document's own indentation and line ending.
 */
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { lineCol, settingsError } from './settings-error.js';

/** Options of every parse: plain JSON (a harness's settings with comments are not plain JSON). */
const STRICT = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

/**
 * The parse tree of `text`, whose top level must be an object; else a settings error naming file:line:col.
 * @example parseObject('/x.json', '{"a":1}').type === 'object'
 */
export function parseObject(path: string, text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, STRICT);
  const first = errors[0];
  if (first)
    throw settingsError(path, lineCol(text, first.offset), `not valid JSON (${printParseErrorCode(first.error)})`);
  if (!root || root.type !== 'object')
    throw settingsError(path, lineCol(text, root?.offset ?? 0), 'the top level must be a JSON object');
  return root;
}

/** The value node of property `key` of an object node, if present. */
export function child(node: Node | undefined, key: string): Node | undefined {
  const prop = node?.children?.find((p) => p.children?.[0]?.value === key);
  return prop?.children?.[1];
}

/** Refuses a node that is present but not of `type`, naming where and what it should be. */
export function expectType(
  path: string,
  text: string,
  node: Node | undefined,
  type: 'object' | 'array',
  name: string,
): void {
  if (node && node.type !== type)
    throw settingsError(path, lineCol(text, node.offset), `"${name}" must be a JSON ${type}`);
}

interface Style {
  unit: string;
  eol: string;
  /** A one-line document: edits stay on one line too. */
  compact: boolean;
}

function styleOf(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { unit: unit.startsWith('\t') ? '\t' : unit, eol, compact: !text.trim().includes('\n') };
}

/** Leading whitespace of the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

function render(value: unknown, indent: string, style: Style): string {
  if (style.compact) return JSON.stringify(value);
  return JSON.stringify(value, null, style.unit).split('\n').join(`${style.eol}${indent}`);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/**
 * Adds `"key": value` to an object node, or (`key` undefined) appends `value` to an array node.
 * @example insertInto('{}', parseTree('{}')!, 'a', 1) === '{\n  "a": 1\n}'
 */
export function insertInto(text: string, container: Node, key: string | undefined, value: unknown): string {
  const style = styleOf(text);
  const outer = indentAt(text, container.offset);
  const inner = style.compact ? '' : outer + style.unit;
  const nl = style.compact ? '' : style.eol;
  const item = `${key === undefined ? '' : `${JSON.stringify(key)}:${style.compact ? '' : ' '}`}${render(value, inner, style)}`;
  const last = container.children?.at(-1);
  if (last) return splice(text, last.offset + last.length, last.offset + last.length, `,${nl}${inner}${item}`);
  // An empty container (whatever whitespace is inside): open it onto its own lines.
  return splice(
    text,
    container.offset + 1,
    container.offset + container.length - 1,
    `${nl}${inner}${item}${nl}${outer}`,
  );
}

/** Replaces a value node with `value`, indented like the line it starts on. */
export function replaceNode(text: string, node: Node, value: unknown): string {
  return splice(
    text,
    node.offset,
    node.offset + node.length,
    render(value, indentAt(text, node.offset), styleOf(text)),
  );
}

/**
 * Removes an element of an array, or a property of an object (pass the property node: the value's parent),
 * with the comma and whitespace that joined it, so removing what {@link insertInto} added restores the text.
 */
export function removeNode(text: string, node: Node): string {
  const siblings = node.parent?.children ?? [];
  const i = siblings.indexOf(node);
  const prev = siblings[i - 1];
  const next = siblings[i + 1];
  if (prev) return splice(text, prev.offset + prev.length, node.offset + node.length, '');
  if (next) return splice(text, node.offset, next.offset, '');
  const parent = node.parent;
  if (!parent) return text;
  return splice(text, parent.offset + 1, parent.offset + parent.length - 1, '');
}
