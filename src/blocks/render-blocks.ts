/**
 * How the parsed `system/` blocks are written into a prompt: `<self>`, the nested `<memory>` blocks with each
 * one's projection, description and read-only mark, and how paths are written for a surface. Shared by the
 * system prompt (compile-prompt.ts) and a harness's session context (compile-context.ts).
 */
import { singleLine } from './frontmatter.js';
import { surfaceWording, type PromptSurface } from './prompt-surfaces.js';

/** Paths in byte order (the same on every machine and locale). */
export const BYTE_ORDER = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A parsed memory file; `error` is set (and `body` is the raw text) when its frontmatter is broken. */
export interface Block {
  path: string;
  description: string;
  body: string;
  readOnly: boolean;
  error?: string;
}

export interface Context {
  /** Written before a memory path (projections, skills). */
  prefix: string;
  /** The tree's root line. */
  root: string;
  /** What the intro says a projection path is. */
  intro: string;
  filesystem: boolean;
}

/**
 * A safe XML-ish tag for a path segment: letters, digits, `_`, `.`, `-`; starts with a letter or `_`.
 * @example tagName('my notes') === 'my_notes'; tagName('2024') === '_2024'
 */
export function tagName(segment: string): string {
  const safe = segment.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}

/** Lines describing one block, each prefixed with `indent`; the body follows verbatim (see renderBlockNode). */
function blockHeader(block: Block, indent: string, ctx: Context): string[] {
  const lines: string[] = [];
  if (ctx.filesystem) lines.push(`${indent}<projection>${ctx.prefix}${block.path}</projection>`);
  if (block.description !== '') lines.push(`${indent}<description>${block.description}</description>`);
  if (block.readOnly) lines.push(`${indent}<read_only>true — do not edit this block</read_only>`);
  if (block.error !== undefined) {
    lines.push(
      `${indent}<error>This file's frontmatter is broken (${singleLine(block.error)}); its raw text follows. Fix it.</error>`,
    );
  }
  return lines;
}

interface BlockNode {
  block?: Block;
  children: Map<string, BlockNode>;
}

function buildBlockTree(blocks: readonly Block[]): BlockNode {
  const root: BlockNode = { children: new Map() };
  for (const block of blocks) {
    // A block's tag path is its path under the core: system/ in the system layout, the root in the index layout.
    const rel = block.path.startsWith('system/') ? block.path.slice('system/'.length) : block.path;
    const segments = rel.slice(0, -'.md'.length).split('/');
    let node = root;
    for (const segment of segments) {
      let next = node.children.get(segment);
      if (next === undefined) node.children.set(segment, (next = { children: new Map() }));
      node = next;
    }
    node.block = block;
  }
  return root;
}

// Bodies are NOT indented: the agent copies text from here into str_replace, so it must match the file.
function renderBlockNode(name: string, node: BlockNode, depth: number, ctx: Context): string[] {
  const indent = '  '.repeat(depth);
  const lines = [`${indent}<${tagName(name)}>`];
  if (node.block !== undefined) {
    lines.push(...blockHeader(node.block, `${indent}  `, ctx));
    if (node.block.body !== '') lines.push(node.block.body);
  }
  for (const key of [...node.children.keys()].sort(BYTE_ORDER)) {
    lines.push(...renderBlockNode(key, node.children.get(key) as BlockNode, depth + 1, ctx));
  }
  lines.push(`${indent}</${tagName(name)}>`);
  return lines;
}

export function selfSection(persona: Block | undefined, ctx: Context): string | undefined {
  if (persona === undefined) return undefined;
  const lines = ['<self>', ...blockHeader(persona, '', ctx)];
  if (persona.body !== '') lines.push(persona.body);
  lines.push('</self>');
  return lines.join('\n');
}

export function memorySection(blocks: readonly Block[], ctx: Context): string {
  const root = buildBlockTree(blocks);
  const keys = [...root.children.keys()].sort(BYTE_ORDER);
  if (keys.length === 0)
    return '<memory>\n(no other memory blocks yet: files you add under system/ appear here)\n</memory>';
  const inner = keys.flatMap((key) => renderBlockNode(key, root.children.get(key) as BlockNode, 1, ctx));
  return ['<memory>', ...inner, '</memory>'].join('\n');
}

/** How paths are written for a surface (a label given for the memory directory wins). */
export function contextFor(surface: PromptSurface, label: string | undefined, filesystem: boolean): Context {
  const wording = surfaceWording(surface);
  const dir = label ?? wording.dir;
  // Memory-relative paths (dir null) are written bare; the tree's root line is then `./`.
  return {
    prefix: dir === null ? '' : `${dir}/`,
    root: dir === null ? './' : `${dir}/`,
    intro: wording.intro(dir),
    filesystem,
  };
}
