/**
 * The memory as a harness's session context (`gitmem hook … session-start`): facts, not instructions (a
 * harness's prompt-injection defences distrust imperative text in injected context), within the harness's
 * cap on hook output. The persona and the `system/` blocks that fit come first, in path order; the tree takes
 * what is left; blocks that do not fit are named, with where to read them. Deterministic: the same parts and
 * options give the same bytes (the harness's prompt cache keys on them).
 */
import type { CompileOptions, PromptParts } from './compile-prompt.js';
import { contextFor, memorySection, selfSection, type Block } from './render-blocks.js';
import { singleLine } from './frontmatter.js';
import { DEFAULT_TREE_LIMITS } from './tree-limits.js';

/** The tree is shown only when at least this many characters are left for it (the tree's own minimum cap). */
const MIN_TREE_CHARS = 128;
/** At most this many names of blocks left out are listed. */
const OMITTED_LISTED = 20;

function header(options: CompileOptions): string {
  const agent = options.agentId === undefined ? '' : ` of agent "${singleLine(options.agentId)}"`;
  const at = options.revision === undefined ? '' : `, commit ${options.revision.slice(0, 12)}`;
  return [
    `# Memory (gitmem${agent}${at})`,
    '',
    'This is the saved memory of this project: a git repository of markdown files kept by gitmem. Files under',
    'system/ are shown in full below; the other files are listed with their descriptions and are read with the',
    'gitmem memory tools (memory_view). Each change made with the gitmem `memory` tool is one commit whose',
    'message is its reason.',
  ].join('\n');
}

function omittedLine(omitted: readonly Block[]): string | undefined {
  if (omitted.length === 0) return undefined;
  const names = omitted.slice(0, OMITTED_LISTED).map((b) => b.path);
  const more = omitted.length > names.length ? ` and ${omitted.length - names.length} more` : '';
  return (
    `${omitted.length} system/ file(s) are not shown here because the session context has a size cap; they are ` +
    `available through the memory tools (memory_view): ${names.join(', ')}${more}.`
  );
}

const joined = (sections: ReadonlyArray<string | undefined>): string =>
  sections.filter((s): s is string => s !== undefined).join('\n\n');

/**
 * The budgeted context: never longer than `maxChars` characters (UTF-16 units, as harnesses count).
 * @example compileContext(promptParts(files), { agentId: 'a1', revision: head }, 10_000).length <= 10_000
 */
export function compileContext(parts: PromptParts, options: CompileOptions, maxChars: number): string {
  const ctx = contextFor('tools', undefined, true);
  const head = header(options);
  const notice = options.notice;
  const fits = (text: string, reserve: number): boolean => text.length + reserve <= maxChars;
  // What the omitted line may cost at most: reserved up front, so adding it never breaks the cap.
  const omittedReserve = (omittedLine(parts.blocks)?.length ?? 0) + 2;
  const fixed = joined([head, notice]);
  const self =
    parts.persona !== undefined && fits(joined([fixed, selfSection(parts.persona, ctx)]), omittedReserve)
      ? selfSection(parts.persona, ctx)
      : undefined;
  const chosen: Block[] = [];
  const omitted: Block[] = parts.persona !== undefined && self === undefined ? [parts.persona] : [];
  for (const block of parts.blocks) {
    const next = joined([fixed, self, memorySection([...chosen, block], ctx)]);
    if (fits(next, omittedReserve)) chosen.push(block);
    else omitted.push(block);
  }
  const memory = chosen.length > 0 || omitted.length === 0 ? memorySection(chosen, ctx) : undefined;
  const lead = joined([head, self, memory]);
  const tail = omittedLine(omitted);
  const wrap = ['<memory_filesystem read_only="true">', '</memory_filesystem>'];
  const left = maxChars - joined([lead, tail, notice]).length - wrap.join('\n\n').length - 6;
  const tree =
    left >= MIN_TREE_CHARS ? parts.tree({ ...DEFAULT_TREE_LIMITS, maxChars: left }, `${ctx.root}`) : undefined;
  const text = joined([lead, tree === undefined ? undefined : `${wrap[0]}\n${tree}\n${wrap[1]}`, tail, notice]);
  return text.length <= maxChars ? text : joined([head, tail, notice]).slice(0, maxChars);
}
