/**
 * Compiles the agent's system prompt from the files of ONE committed revision: base preset text,
 * `<self>`, nested `<memory>` blocks, the read-only `memory_filesystem` tree and the skills list. Pure and
 * deterministic — no clock, no counters — so the same commit always yields byte-identical text.
 */
import { MemoryError } from '../errors.js';
import { applyPromptTemplate } from './prompt-template.js';
import { summarizeMarkdown, type MarkdownSummary } from './file-summary.js';
import { skillRootLines, type SkillRoot } from './skill-roots.js';
import { descriptionOf, isReadOnlyValue, normalizeText, parseMemoryFile, singleLine } from './frontmatter.js';
import { assertMemoryMode, buildPresetPrompt, DEFAULT_PRESET_ID, type MemoryMode } from './presets.js';
import { DEFAULT_PROMPT_SURFACE, type PromptSurface } from './prompt-surfaces.js';
import { clipDescription, renderTree, type TreeEntry } from './tree.js';
import { BYTE_ORDER, contextFor, memorySection, selfSection, type Block, type Context } from './render-blocks.js';
import { DEFAULT_TREE_LIMITS, type TreeLimits } from './tree-limits.js';
import { deferredDirectories, deferredSection, indexBlock, type DeferredDirectory } from './compile-index.js';
import { LAYOUTS, type LayoutRow } from './layouts.js';

export { tagName, type Block } from './render-blocks.js';

/**
 * One committed file (repo-relative path, UTF-8 text) at the revision being compiled. A file outside
 * `system/` may come as its summary instead of its text (what a read cache keeps per blob): the prompt shows
 * no more of it. A `system/` file given as a summary is shown with an empty body.
 */
export type CommittedFile = { path: string; content: string } | { path: string; summary: MarkdownSummary };

/** A file's text ('' when it came as a summary). */
export const contentOf = (file: CommittedFile): string => ('content' in file ? file.content : '');
/** A file's summary (parsed from its text when it came as text). */
export const summaryOf = (file: CommittedFile): MarkdownSummary =>
  'summary' in file ? file.summary : summarizeMarkdown(file.content);

export interface CompileOptions {
  /** Default `local-memfs`. `standard` renders the blocks without filesystem/git material. */
  mode?: MemoryMode;
  /** Default `default`. */
  preset?: string;
  /**
   * The tools the model has, which the prompt's wording speaks of (blocks/prompt-surfaces.ts): default `shell`
   * (`$MEMORY_DIR`, file tools, git); `tools` (gitmem's memory tools only); `anthropic` (`/memories`).
   */
  surface?: PromptSurface;
  /** How the memory directory is written in projections and the tree root; default the surface's (`$MEMORY_DIR`). */
  memoryDirLabel?: string;
  treeLimits?: TreeLimits;
  agentId?: string;
  /** The commit the files come from, shown so the agent knows which state it sees. */
  revision?: string;
  /**
   * A harness's context cap in characters: read through compileContext (blocks/compile-context.ts), the
   * memory as facts, the `system/` blocks that fit plus the tree, never longer than this; no preset text.
   */
  maxChars?: number;
  /** With maxChars: a line that must be in the text (it is kept within the cap). */
  notice?: string;
  /** Skills from outside memory (blocks/skill-roots.ts), listed after memory's own, grouped by root. */
  skillRoots?: readonly SkillRoot[];
  /**
   * The caller's own raw prompt, in place of the preset's: every `{CORE_MEMORY}` becomes the compiled memory,
   * else the memory is appended after a blank line (blocks/prompt-template.ts). Not with `preset`.
   */
  template?: string;
}

export interface Skill {
  folder: string;
  name: string;
  description: string;
}

interface Classified {
  persona?: Block;
  blocks: Block[];
  tree: TreeEntry[];
  skills: Skill[];
}

/**
 * What the prompt is assembled from: the parsed blocks, the skills in path order and the tree's text (given
 * its caps and root line). compilePrompt makes them from a file list; blocks/prompt-model.ts keeps them
 * between commits.
 */
export interface PromptParts {
  persona?: Block;
  blocks: readonly Block[];
  skills: readonly Skill[];
  tree: (limits: TreeLimits, rootLine: string) => string;
  /** A layout with routing indexes: its deferred directories (layouts.ts); absent for the system layout. */
  deferred?: readonly DeferredDirectory[];
  /** What the core is called (`system/` when absent). */
  coreLabel?: string;
  /** The layout the parts were made in (layouts.ts; the system layout when absent): the session context asks it. */
  layout?: LayoutRow;
}

/** The block shown as `<self>`. */
export const PERSONA_PATH = 'system/persona.md';

/** The path a file is listed under (backslashes turned, leading `./` and `/` dropped). */
export function cleanPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(?:\.\/|\/)+/, '');
}

function tidyBody(body: string): string {
  return body.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

/** A `system/` file as a block (never throws: broken frontmatter is shown, with the raw text). */
export function parseBlock(path: string, content: string): Block {
  try {
    const parsed = parseMemoryFile(content);
    return {
      path,
      description: singleLine(descriptionOf(parsed.data)),
      body: tidyBody(parsed.body),
      readOnly: isReadOnlyValue(parsed.data['read_only']),
    };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { path, description: '', body: tidyBody(normalizeText(content)), readOnly: false, error: reason };
  }
}

/** A skill folder's entry in the skills list, from its SKILL.md. */
export function parseSkill(folder: string, summary: MarkdownSummary): Skill {
  if (summary.error !== undefined)
    return { folder, name: folder, description: `(SKILL.md frontmatter is broken: ${summary.error})` };
  const description = summary.description === '' ? '(no description)' : clipDescription(summary.description);
  return { folder, name: summary.name ?? folder, description };
}

function sortedUnique(files: readonly CommittedFile[]): CommittedFile[] {
  const byPath = new Map<string, CommittedFile>();
  for (const f of files) {
    const path = cleanPath(f.path);
    if (!isMemoryPath(path)) continue;
    if (byPath.has(path)) {
      throw new MemoryError('INVALID_ARGUMENT', `compilePrompt: duplicate file path ${JSON.stringify(path)}`, {
        data: { path },
      });
    }
    byPath.set(path, { ...f, path });
  }
  return [...byPath.values()].sort((a, b) => BYTE_ORDER(a.path, b.path));
}

/** Whether a (cleaned) path is memory at all: `.git*` and dot-directories are not. */
export function isMemoryPath(path: string): boolean {
  return path !== '' && !path.startsWith('.') && !path.includes('/.');
}

/** The entry a (cleaned) file has in the prompt's tree. */
export function treeEntry(file: CommittedFile, layout: LayoutRow = LAYOUTS.system): TreeEntry {
  if (layout.isCore(file.path) || layout.classify(file.path) === 'index' || !file.path.endsWith('.md'))
    return { path: file.path };
  const summary = summaryOf(file);
  if (summary.error !== undefined) return { path: file.path, description: '(frontmatter invalid)' };
  return summary.description === '' ? { path: file.path } : { path: file.path, description: summary.description };
}

function classify(files: readonly CommittedFile[], layout: LayoutRow): Classified {
  const sorted = sortedUnique(files);
  const skillFolders = new Set(
    sorted.map((f) => /^skills\/([^/]+)\/SKILL\.md$/.exec(f.path)?.[1]).filter((f): f is string => f !== undefined),
  );
  const out: Classified = { blocks: [], tree: [], skills: [] };
  for (const file of sorted) {
    const skillFolder = /^skills\/([^/]+)\//.exec(file.path)?.[1];
    if (skillFolder !== undefined && skillFolders.has(skillFolder)) {
      if (file.path === `skills/${skillFolder}/SKILL.md`) out.skills.push(parseSkill(skillFolder, summaryOf(file)));
      continue; // a skill's files are reached through its SKILL.md
    }
    out.tree.push(treeEntry(file, layout));
    if (!layout.isCore(file.path)) continue;
    const block =
      layout.classify(file.path) === 'index'
        ? indexBlock(layout, file.path, contentOf(file))
        : parseBlock(file.path, contentOf(file));
    if (file.path === layout.corePath('persona')) out.persona = block;
    else out.blocks.push(block);
  }
  return out;
}

function filesystemSection(parts: PromptParts, limits: TreeLimits, ctx: Context): string {
  return [
    '<memory_filesystem read_only="true">',
    `Generated from the same commit; read-only (change the files, never this listing). Files outside ${parts.coreLabel ?? 'system/'}`,
    'are not loaded into context: open one when its description says it is relevant.',
    parts.tree(limits, ctx.root),
    '</memory_filesystem>',
  ].join('\n');
}

function skillsSection(skills: readonly Skill[], ctx: Context, roots: readonly SkillRoot[] = []): string | undefined {
  const own = skills.map((s) => `- ${s.name}: ${s.description} (${ctx.prefix}skills/${s.folder}/SKILL.md)`);
  const more = skillRootLines(
    skills.map((s) => s.name),
    roots,
  );
  if (own.length === 0 && more.length === 0) return undefined;
  const lines = more.length === 0 || own.length === 0 ? [...own, ...more] : ['From memory:', ...own, ...more];
  return [
    '<available_skills>',
    "Read a skill's SKILL.md before doing the task it covers.",
    ...lines,
    '</available_skills>',
  ].join('\n');
}

function introSection(options: CompileOptions, ctx: Context): string {
  if (!ctx.filesystem) {
    const at = options.revision === undefined ? '' : ` (revision ${options.revision})`;
    return `# Memory\n\nThe blocks below are your memory${at}, as last saved.`;
  }
  const from = options.revision === undefined ? 'the last commit' : `commit ${options.revision}`;
  return (
    `# Memory\n\nThe blocks below are compiled from ${from} of your memory repository. Each <projection> line ` +
    `gives the file a block comes from; ${ctx.intro}`
  );
}

function metadataSection(options: CompileOptions): string | undefined {
  const lines: string[] = [];
  if (options.agentId !== undefined) lines.push(`agent_id: ${singleLine(options.agentId)}`);
  if (options.revision !== undefined) lines.push(`memory_revision: ${singleLine(options.revision)}`);
  return lines.length === 0 ? undefined : ['<memory_metadata>', ...lines, '</memory_metadata>'].join('\n');
}

/**
 * Compiles the system prompt from every file of one committed revision. Deterministic: the same files and
 * options give byte-identical output whatever the input order (duplicate paths ⇒ INVALID_ARGUMENT). Files
 * whose frontmatter is broken are shown with a visible note, never dropped. Unknown preset ⇒ UNKNOWN_PRESET.
 * @example compilePrompt([{ path: 'system/persona.md', content: '---\ndescription: me\n---\nI help.\n' }], { revision: 'abc123' })
 *   // '<preset text>\n\n# Memory\n…\n\n<self>\n<projection>$MEMORY_DIR/system/persona.md</projection>…'
 */
export function compilePrompt(
  files: CommittedFile[],
  options: CompileOptions = {},
  layout: LayoutRow = LAYOUTS.system,
): string {
  return compileParts(promptParts(files, layout), options);
}

/**
 * The prompt's parts made from a file list (what PromptModel keeps between commits).
 * @example compileContext(promptParts(files), { maxChars: 10_000 })
 */
export function promptParts(files: CommittedFile[], layout: LayoutRow = LAYOUTS.system): PromptParts {
  const { tree, ...rest } = classify(files, layout);
  if (layout.prompt === 'blocks')
    return { ...rest, tree: (limits, root) => renderTree(tree, limits, { root, alwaysShow: ['system'] }) };
  return {
    ...rest,
    tree: (limits, root) => renderTree(tree, limits, { root }),
    deferred: deferredDirectories(
      layout,
      tree.map((e) => e.path),
    ),
    coreLabel: layout.coreLabel,
    layout,
  };
}

/**
 * The prompt assembled from its parts (see PromptParts): what compilePrompt gives for the files they come from.
 * @example compileParts(model.parts(), { revision: head })
 */
export function compileParts(parts: PromptParts, options: CompileOptions = {}): string {
  const mode = options.mode ?? 'local-memfs';
  assertMemoryMode(mode);
  const surface = options.surface ?? DEFAULT_PROMPT_SURFACE;
  if (options.template !== undefined && options.preset !== undefined) {
    throw new MemoryError('INVALID_ARGUMENT', 'a template replaces the preset: pass one of template and preset');
  }
  const base =
    options.template === undefined ? buildPresetPrompt(options.preset ?? DEFAULT_PRESET_ID, mode, surface) : undefined;
  const ctx = contextFor(surface, options.memoryDirLabel, mode !== 'standard');
  const sections = [
    base,
    introSection(options, ctx),
    selfSection(parts.persona, ctx),
    memorySection(parts.blocks, ctx),
  ];
  if (ctx.filesystem) {
    if (parts.deferred !== undefined) sections.push(deferredSection(parts.deferred, ctx));
    sections.push(filesystemSection(parts, options.treeLimits ?? DEFAULT_TREE_LIMITS, ctx));
    sections.push(skillsSection(parts.skills, ctx, options.skillRoots));
  }
  sections.push(metadataSection(options));
  const text = sections.filter((s): s is string => s !== undefined).join('\n\n');
  return options.template === undefined ? text : applyPromptTemplate(options.template, text);
}
