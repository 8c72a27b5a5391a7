/**
 * What the prompt says about the tools a model has: one wording per harness surface, as a table. The base
 * texts (prompts/gitmem_*memfs.md) hold `{{piece}}` slots that a surface fills; the compiled part takes its
 * paths and its intro from here. Pure data plus one fill function, so a surface is one entry to read.
 */
import { MemoryError } from '../errors.js';
import { ANTHROPIC_COMMANDS, spokenList, WRITE_COMMANDS, writeCommandList } from './memory-commands.js';

/**
 * Who reads the prompt: `shell` — a model with a shell and file tools in the memory directory (`$MEMORY_DIR`,
 * git); `tools` — a model with gitmem's memory tools only (MCP server, AI SDK `memoryTools`); `anthropic` —
 * a model with Anthropic's memory tool, its files under `/memories`.
 */
export type PromptSurface = 'shell' | 'tools' | 'anthropic';

/** The surfaces, in display order. */
export const PROMPT_SURFACES: readonly PromptSurface[] = ['shell', 'tools', 'anthropic'];

/** The surface of the library's and the CLI's prompt when none is named. */
export const DEFAULT_PROMPT_SURFACE: PromptSurface = 'shell';

/** The slots of a base text, filled per surface (`synced`: the memory has a remote). */
export interface BasePieces {
  /** After the list of what the context holds: what a `<projection>` path is and how to read files. */
  paths: string;
  /** "How to change your memory", before its last bullet (edits take effect at the next compile). */
  change: string;
  /** "Continuity": how to find what memory holds, and helpers' changes. */
  continuity: string;
  /** The local text's closing paragraph (no remote). */
  no_remote: string;
  /** The synced text's "Synchronisation" section. */
  remote: string;
}

export interface SurfaceWording {
  /** One line for `gitmem prompt --help`. */
  summary: string;
  /** The memory directory before a path (projections, skills; `<dir>/` is the tree's root line); null: paths are memory-relative. */
  dir: string | null;
  /** The compiled intro's sentence about `<projection>` lines; `dir` is the directory shown. */
  intro: (dir: string | null) => string;
  /** The base text's slots. */
  pieces: (synced: boolean) => BasePieces;
}

/**
 * The tools the shell and tools wordings name, by role: tools/catalogue.ts checks that each is one of its
 * tools, so renaming or dropping one there fails to compile until the wording follows.
 */
export const WORDING_TOOLS = {
  memory: 'memory',
  patch: 'memory_apply_patch',
  view: 'memory_view',
  search: 'memory_search',
} as const;
const T = WORDING_TOOLS;

// The memory tool (its commands listed by memory-commands.ts) and apply-patch, as the shell and the tools surfaces both have them.
const MEMORY_TOOL_BULLETS = `- The \`${T.memory}\` tool makes one change and commits it: ${writeCommandList('`')}.
  Its \`reason\` argument is required: one line saying *why* you are making the change.
  It becomes the commit message, so write it for a future reader ("note: user prefers pnpm over npm").
- \`${T.patch}\` applies several edits, across one or more files, as a single commit — use it for
  reorganisations. It also takes a \`reason\`.`;

const HELPERS = `Background helpers may also update memory between
your turns — for example a reflection pass that consolidates what a conversation taught you. Their changes
arrive as ordinary commits; if a file looks different from what you remember,`;

const KEPT_FOR_USER = `When a helper's change conflicts with yours, nothing is lost: its commits wait on a kept branch until the
user settles them, and the harness reminds you while one waits.`;

const SHELL: SurfaceWording = {
  summary: 'a model with a shell in the memory directory: $MEMORY_DIR, file tools, git (default)',
  dir: '$MEMORY_DIR',
  intro: (dir) => `${dir ?? '.'} is your memory directory.`,
  pieces: (synced) => ({
    paths: `Every block carries a \`<projection>\` line: the path of the file it came from. \`$MEMORY_DIR\` is your memory
directory. It expands in a shell; when a file tool needs a path, use the full path or the memory tools below.`,
    change: `A change to memory **counts only once it is committed**. An edit left uncommitted is invisible to the next
compile, ${synced ? 'is never synchronised, ' : ''}blocks the memory tools and background writers, and may be lost.

${MEMORY_TOOL_BULLETS}
- You may also edit files under \`$MEMORY_DIR\` with ordinary tools and commit yourself with git
  (\`git add\` + \`git commit -m "<type>: <what changed and why>"\`). Commit before your turn ends.`,
    continuity: `Your memory is your past. Before you say you don't know something about the user or the project, search for
it (\`grep -ri\` in \`$MEMORY_DIR\`, then open what matches). ${HELPERS} re-read it before editing.
When a helper's change conflicts with yours, nothing is lost: its commits wait on a kept branch
(\`gitmem/<kind>/<id>\`, listed by \`git branch --list 'gitmem/*'\`; \`git diff main...<branch>\` shows what it
holds). The harness reminds you while one waits; \`gitmem conflicts show <branch>\` and \`gitmem conflicts
resolve <branch> --ours|--theirs|--file PATH --reason R\` settle it.`,
    no_remote: `Your memory stays on this machine; it has no remote, so there is nothing to push or pull. \`git log\` and
\`git show\` in \`$MEMORY_DIR\` show how your memory came to be what it is.`,
    remote: `Your memory repository has a remote. The harness synchronises your commits after each turn — you never push,
pull or change remotes yourself. If the harness reminds you that memory has uncommitted changes, commit them
(or discard them if they were a mistake). If it reports a conflict between your memory and the remote copy,
resolve it in the files the reminder names, keeping the information from both sides, and commit. \`git log\`
and \`git show\` in \`$MEMORY_DIR\` show how your memory came to be what it is.`,
  }),
};

const TOOLS: SurfaceWording = {
  summary: `a model with the memory tools only: ${Object.values(T).join(', ')} (MCP, AI SDK)`,
  dir: null,
  intro: (dir) =>
    dir === null
      ? 'paths are relative to the root of your memory, as your memory tools take them.'
      : `${dir} is your memory directory.`,
  pieces: () => ({
    paths: `Every block carries a \`<projection>\` line: the path of the file it came from, relative to the root of your
memory — the path your memory tools take. The \`system/\` files are already in this prompt, their bodies
exactly as written, so \`str_replace\` can quote them without reading them first (view a file before an
\`insert\`: its line numbers count the frontmatter). Read any other file with \`${T.view}\` (a directory lists
its files with their descriptions, a file shows its numbered lines) and find things with \`${T.search}\`
(ranked hits with path, line and snippet).`,
    change: `A change to memory **counts only once it is committed**, and your memory tools commit each change at once:
a call that succeeds is saved, a refused call changes nothing (read the message, fix the call, try again).

${MEMORY_TOOL_BULLETS}`,
    continuity: `Your memory is your past. Before you say you don't know something about the user or the project, search for
it (\`${T.search}\`, then \`${T.view}\` what matches). ${HELPERS} view it again before editing.
${KEPT_FOR_USER}`,
    no_remote: `Your memory stays on this machine; it has no remote, so there is nothing to push or pull. \`${T.view}\`
with \`at\` (a commit, \`HEAD~3\` or a date) shows a file as it was.`,
    remote: `Your memory repository has a remote. The harness synchronises your commits after each turn — you never push,
pull or change remotes yourself. If it reports a conflict between your memory and the remote copy, view the
files it names and keep the information from both sides in your next change. \`${T.view}\` with \`at\` (a
commit, \`HEAD~3\` or a date) shows a file as it was.`,
  }),
};

// The writes Anthropic's memory tool has (the one list says which), as the prompt names them.
const ANTHROPIC_WRITES = spokenList(
  ANTHROPIC_COMMANDS.filter((c) => (WRITE_COMMANDS as readonly string[]).includes(c)),
  '`',
);

const ANTHROPIC: SurfaceWording = {
  summary: "a model with Anthropic's memory tool: one `memory` tool, files under /memories",
  dir: '/memories',
  intro: (dir) => `${dir ?? '.'} is the directory your \`memory\` tool works in.`,
  pieces: () => ({
    paths: `Every block carries a \`<projection>\` line: the path of the file it came from, under \`/memories\` — the
directory your \`memory\` tool works in. The \`system/\` files are already in this prompt, their bodies as
written, so \`str_replace\` can quote them without viewing them first (view a file before an \`insert\`). \`view\`
a directory (\`/memories\` for all of it) to list its files two levels deep, each markdown file with its
description; \`view\` a file to read it with numbered lines.`,
    change: `A change to memory **counts only once it is committed**, and your \`memory\` tool commits each change at once:
${ANTHROPIC_WRITES} are each saved as one commit when they succeed, and a
refused command changes nothing (read the message, fix the command, try again).

- A markdown file you \`create\` without frontmatter is given one: its description is the file's first heading,
  else its first line. So start a file with a heading that says what it holds: the description is what
  listings and this prompt show of it.
- Prefer small, precise edits (\`str_replace\`, \`insert\`) to deleting and re-creating a file: each change is
  kept in your memory's history as its own step.`,
    continuity: `Your memory is your past. Before you say you don't know something about the user or the project, \`view\`
\`/memories\` and open the files whose descriptions fit. ${HELPERS} view it again before editing.
${KEPT_FOR_USER}`,
    no_remote: 'Your memory stays on this machine; it has no remote, so there is nothing to push or pull.',
    remote: `Your memory repository has a remote. The harness synchronises your changes after each turn — you never push,
pull or change remotes yourself. If it reports a conflict between your memory and the remote copy, view the
files it names and keep the information from both sides in your next change.`,
  }),
};

const WORDINGS: Readonly<Record<PromptSurface, SurfaceWording>> = { shell: SHELL, tools: TOOLS, anthropic: ANTHROPIC };

/**
 * The wording for `surface`; anything else ⇒ INVALID_ARGUMENT naming the surfaces there are.
 * @example surfaceWording('anthropic').dir === '/memories'
 */
export function surfaceWording(surface: string): SurfaceWording {
  if (!Object.hasOwn(WORDINGS, surface)) {
    const shown = JSON.stringify(surface.slice(0, 80));
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `Unknown prompt surface ${shown} — expected one of: ${PROMPT_SURFACES.join(', ')}`,
      {
        data: { field: 'surface', surface: surface.slice(0, 80), known: [...PROMPT_SURFACES] },
      },
    );
  }
  return WORDINGS[surface as PromptSurface];
}

/**
 * A base text with its `{{piece}}` slots filled. A slot the pieces lack is a packaging bug (INTERNAL).
 * @example fillPieces('a\n{{paths}}\nb', surfaceWording('tools').pieces(false))
 */
export function fillPieces(text: string, pieces: BasePieces): string {
  return text.replace(/\{\{([a-z_]+)\}\}/g, (_, name: string) => {
    if (!Object.hasOwn(pieces, name))
      throw new MemoryError('INTERNAL', `prompt text has an unknown slot {{${name}}}`, { data: { slot: name } });
    return pieces[name as keyof BasePieces];
  });
}
