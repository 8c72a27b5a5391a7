/**
 * The memory as a harness's session context (`gitmem hook … session-start`): facts, not instructions (a
 * harness's prompt-injection defences distrust imperative text in injected context), within the harness's
 * cap on hook output. What is core, and what the context says about it, is the layout's (layouts.ts, through
 * the parts): in the index layout the root `MEMORY.md` comes first — as Claude Code loads it, within its
 * session-start budget (compile-index.ts), cut further at a line when even it would break the cap — then the
 * persona, the deferred directories, the other core files that fit in path order; the tree takes what is
 * left; core files that do not fit are named, with where to read them. Deterministic: the same parts and
 * options give the same bytes (the harness's prompt cache keys on them).
 */
import type { CompileOptions, PromptParts } from './compile-prompt.js';
import { deferredSection } from './compile-index.js';
import { contextFor, memorySection, selfSection, type Block, type Context } from './render-blocks.js';
import { singleLine } from './frontmatter.js';
import { LAYOUTS, type LayoutRow } from './layouts.js';
import { DEFAULT_TREE_LIMITS } from './tree-limits.js';

/** The tree is shown only when at least this many characters are left for it (the tree's own minimum cap). */
const MIN_TREE_CHARS = 128;
/** At most this many names of blocks left out are listed. */
const OMITTED_LISTED = 20;

function header(options: CompileOptions, layout: LayoutRow): string {
  const agent = options.agentId === undefined ? '' : ` of agent "${singleLine(options.agentId)}"`;
  const at = options.revision === undefined ? '' : `, commit ${options.revision.slice(0, 12)}`;
  return [
    `# Memory (gitmem${agent}${at})`,
    '',
    'This is the saved memory of this project: a git repository of markdown files kept by gitmem.',
    layout.context.shown,
    'Each change made with the gitmem `memory` tool is one commit whose message is its reason.',
  ].join('\n');
}

function omittedLine(layout: LayoutRow, omitted: readonly Block[]): string | undefined {
  if (omitted.length === 0) return undefined;
  const names = omitted.slice(0, OMITTED_LISTED).map((b) => b.path);
  const more = omitted.length > names.length ? ` and ${omitted.length - names.length} more` : '';
  return (
    `${omitted.length} ${layout.context.omitted} are not shown here because the session context has a size cap; ` +
    `they are available through the memory tools (memory_view): ${names.join(', ')}${more}.`
  );
}

const joined = (sections: ReadonlyArray<string | undefined>): string =>
  sections.filter((s): s is string => s !== undefined).join('\n\n');

/**
 * The root index cut at a line so that `fits` holds, with a line saying the rest is left out; the block
 * whole when it fits, undefined when not even its first line does.
 */
function indexWithin(block: Block, fits: (b: Block) => boolean): Block | undefined {
  if (fits(block)) return block;
  const lines = block.body.split('\n');
  const note = `> The rest of ${block.path} is not shown here because the session context has a size cap; it is available through the memory tools (memory_view).`;
  const cut = (k: number): Block => ({ ...block, body: `${lines.slice(0, k).join('\n').trimEnd()}\n\n${note}` });
  let lo = 0; // the most lines known to fit
  if (!fits(cut(0))) return undefined;
  let hi = lines.length; // known not to fit (the whole body did not)
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(cut(mid))) lo = mid;
    else hi = mid;
  }
  return cut(lo);
}

interface Chosen {
  self?: string;
  blocks: Block[];
  omitted: Block[];
  deferred?: string;
}

/** What goes in, by priority: the root index, the persona, the deferred directories, the other core files. */
function choose(parts: PromptParts, layout: LayoutRow, ctx: Context, fixed: string, maxChars: number): Chosen {
  // What the omitted line may cost at most: reserved up front, so adding it never breaks the cap.
  const all = parts.persona === undefined ? parts.blocks : [parts.persona, ...parts.blocks];
  const reserve = (omittedLine(layout, all)?.length ?? 0) + 2;
  const fits = (sections: ReadonlyArray<string | undefined>): boolean =>
    joined([fixed, ...sections]).length + reserve <= maxChars;
  const out: Chosen = { blocks: [], omitted: [] };
  const rootIndex = parts.blocks.find((b) => b.path === layout.indexFile);
  if (rootIndex !== undefined) {
    const kept = indexWithin(rootIndex, (b) => fits([memorySection([b], ctx)]));
    if (kept === undefined) out.omitted.push(rootIndex);
    else out.blocks.push(kept);
  }
  const memory = (): string | undefined => (out.blocks.length > 0 ? memorySection(out.blocks, ctx) : undefined);
  if (parts.persona !== undefined) {
    const self = selfSection(parts.persona, ctx);
    if (fits([self, memory()])) out.self = self;
    else out.omitted.push(parts.persona);
  }
  const deferred = parts.deferred === undefined ? undefined : deferredSection(parts.deferred, ctx);
  if (deferred !== undefined && fits([out.self, memory(), deferred])) out.deferred = deferred;
  for (const block of parts.blocks) {
    if (block === rootIndex) continue;
    if (fits([out.self, memorySection([...out.blocks, block], ctx), out.deferred])) out.blocks.push(block);
    else out.omitted.push(block);
  }
  return out;
}

/**
 * The budgeted context: never longer than `maxChars` characters (UTF-16 units, as harnesses count).
 * @example compileContext(promptParts(files), { agentId: 'a1', revision: head }, 10_000).length <= 10_000
 */
export function compileContext(parts: PromptParts, options: CompileOptions, maxChars: number): string {
  const layout = parts.layout ?? LAYOUTS.system;
  const ctx = contextFor('tools', undefined, true);
  const head = header(options, layout);
  const notice = options.notice;
  const c = choose(parts, layout, ctx, joined([head, notice]), maxChars);
  const memory = c.blocks.length > 0 || c.omitted.length === 0 ? memorySection(c.blocks, ctx) : undefined;
  const lead = joined([head, c.self, memory, c.deferred]);
  const tail = omittedLine(layout, c.omitted);
  const wrap = ['<memory_filesystem read_only="true">', '</memory_filesystem>'];
  const left = maxChars - joined([lead, tail, notice]).length - wrap.join('\n\n').length - 6;
  const tree =
    left >= MIN_TREE_CHARS ? parts.tree({ ...DEFAULT_TREE_LIMITS, maxChars: left }, `${ctx.root}`) : undefined;
  const text = joined([lead, tree === undefined ? undefined : `${wrap[0]}\n${tree}\n${wrap[1]}`, tail, notice]);
  return text.length <= maxChars ? text : joined([head, tail, notice]).slice(0, maxChars);
}
