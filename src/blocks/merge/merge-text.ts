/**
 * The markdown- and frontmatter-aware three-way merge of one memory file. Frontmatter merges field by field
 * (frontmatter-merge.ts), the body by structure: sections, blocks and bullet items (sequence.ts). Work is on
 * normalised text (LF, no BOM); the result takes ours' line endings and BOM. It must parse back into exactly
 * the structure the merge meant and pass the memory rules (blocks/validate.ts) against ours, else it is a
 * conflict. Pure apart from the parser it is given.
 */
import { normalizeText, splitFrontmatter } from '../frontmatter.js';
import { restyle } from '../line-style.js';
import { isProtectedText } from '../validate-protection.js';
import { findProblems, shownPath } from '../validate.js';
import { mergeFrontmatter, type FrontmatterBlock } from './frontmatter-merge.js';
import { MAX_MERGE_CHARS } from './limits.js';
import { describe, mergeChildren } from './sequence.js';
import { buildDoc, outline, renderDoc, tally, type MdDoc, type MdNode, type ParseMarkdown } from './structure.js';
import {
  MergeConflictSignal,
  conflictOf,
  refuse,
  type MarkdownMergeInput,
  type MarkdownMergeResult,
  type MergeConflict,
} from './types.js';

interface Parts {
  fm: FrontmatterBlock | null;
  body: string;
}

function partsOf(text: string | null, side: string): Parts {
  if (text === null) return { fm: null, body: '' };
  const split = splitFrontmatter(text);
  if (split.kind === 'unclosed') refuse('frontmatter_invalid', `frontmatter (${side})`, 'opened but never closed');
  if (split.kind === 'none') return { fm: null, body: text };
  return { fm: { block: text.slice(0, text.length - split.body.length), yaml: split.yamlText }, body: split.body };
}

/** A plain value changed on at most one side (or the same way on both); else a conflict at `where`. */
function pick3(b: string, o: string, t: string, where: string): string {
  if (o === t || t === b) return o;
  if (o === b) return t;
  return refuse('whitespace', where);
}

/** A tallied key as a conflict location (the first line of its text). */
function describeKey(key: string): string {
  const kind = key.slice(0, key.indexOf(':')) as MdNode['kind'];
  return describe({ kind, key, text: key.slice(key.indexOf(':') + 1), gap: null, sep: '' });
}

function mergeBodies(parse: ParseMarkdown, b: string, o: string, t: string): string {
  if (o === t || t === b) return o;
  if (o === b) return t;
  const [db, dO, dT] = [buildDoc(b, parse), buildDoc(o, parse), buildDoc(t, parse)];
  const merged: MdDoc = {
    lead: pick3(db.lead, dO.lead, dT.lead, 'the start of the body'),
    children: mergeChildren(db.children, dO.children, dT.children, ''),
    tail: pick3(db.tail, dO.tail, dT.tail, 'the end of the file'),
  };
  const [co, ct] = [tally(dO.children), tally(dT.children)];
  for (const [key, n] of tally(merged.children)) {
    if (n > Math.max(co.get(key) ?? 0, ct.get(key) ?? 0)) refuse('duplicate', describeKey(key));
  }
  const text = renderDoc(merged);
  const again = buildDoc(text, parse);
  if (
    again.lead !== merged.lead ||
    again.tail !== merged.tail ||
    outline(again.children).join('\0') !== outline(merged.children).join('\0')
  )
    refuse('structure', '');
  return text;
}

/** Runs one part of the merge, collecting its conflict instead of throwing. */
function attempt<T>(conflicts: MergeConflict[], run: () => T): T | undefined {
  try {
    return run();
  } catch (err) {
    if (!(err instanceof MergeConflictSignal)) throw err;
    conflicts.push(err.conflict);
    return undefined;
  }
}

function preconditions(input: MarkdownMergeInput): void {
  const sides = [input.base, input.ours, input.theirs];
  if (sides.some((s) => s !== null && s.length > MAX_MERGE_CHARS))
    refuse('too_large', '', `over ${MAX_MERGE_CHARS} characters`);
  if (sides.some((s) => s?.includes('\0'))) refuse('unsupported', '', 'a NUL character');
  if (input.protectedPaths?.has(input.path) || sides.some((s) => isProtectedText(s))) refuse('read_only', '');
}

function merge(parse: ParseMarkdown, input: MarkdownMergeInput): MarkdownMergeResult {
  const conflicts: MergeConflict[] = [];
  const parts = attempt(conflicts, () => {
    preconditions(input);
    const [b, o, t] = [
      input.base === null ? null : normalizeText(input.base),
      normalizeText(input.ours),
      normalizeText(input.theirs),
    ];
    return [partsOf(b, 'base'), partsOf(o, 'ours'), partsOf(t, 'theirs')] as const;
  });
  if (parts === undefined) return { status: 'conflict', conflicts };
  const [pb, po, pt] = parts;
  const fm = attempt(conflicts, () => mergeFrontmatter(pb.fm, po.fm, pt.fm));
  const body = attempt(conflicts, () => mergeBodies(parse, pb.body, po.body, pt.body));
  if (fm === undefined || body === undefined) return { status: 'conflict', conflicts };
  const normalized = `${fm?.block ?? ''}${body}`;
  const split = splitFrontmatter(normalized);
  if ((fm === null) !== (split.kind === 'none') || (split.kind === 'ok' && split.body !== body)) {
    return { status: 'conflict', conflicts: [conflictOf('structure', '', 'the body would read as frontmatter')] };
  }
  const text = restyle(input.ours, normalized);
  if (text === input.ours) return { status: 'clean', text };
  const problems = findProblems([{ status: 'modified', path: input.path, content: text, headContent: input.ours }], {
    protectedPaths: input.protectedPaths ?? new Set(),
    layout: input.layout,
  });
  if (problems.length === 0) return { status: 'clean', text };
  const detail = problems.map((p) => `${shownPath(p.path)}: ${p.message}`).join('; ');
  return { status: 'conflict', conflicts: [conflictOf('invalid_result', '', detail)] };
}

/**
 * The merge with a given parser (tests, and callers that already loaded it).
 * @example mergeMarkdownWith(loadMarkdownParser(), { base, ours, theirs, path: 'notes/work.md' })
 */
export function mergeMarkdownWith(parse: ParseMarkdown, input: MarkdownMergeInput): MarkdownMergeResult {
  return merge(parse, input);
}
