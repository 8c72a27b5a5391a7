/**
 * The prompt and the tree of HEAD, read through the read cache (memfs/read-snapshot.ts): at a new commit
 * only changed blobs are read, and only changed paths are rendered again — the tree and the prompt's parts
 * are kept per repository as models (blocks/tree-model.ts, blocks/prompt-model.ts) that catch up by the paths
 * the snapshot moved by, or are rebuilt from its files when they are further behind (the prompt's in the
 * repository's layout). The text rendered for a
 * commit is kept in the process too (a commit id names its content, so the same commit and options always
 * give the same text).
 */
import { MemoryError } from '../errors.js';
import { compileContext } from '../blocks/compile-context.js';
import {
  compileParts,
  promptParts,
  treeEntry,
  type CommittedFile,
  type CompileOptions,
  type PromptParts,
} from '../blocks/compile-prompt.js';
import { PromptModel } from '../blocks/prompt-model.js';
import { LAYOUTS, type LayoutRow } from '../blocks/layouts.js';
import { readRepoLayout } from '../hooks/layout-config.js';
import { renderTree } from '../blocks/tree.js';
import { TreeModel } from '../blocks/tree-model.js';
import type { TreeLimits } from '../blocks/tree-limits.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
import { headCommit, withSnapshotAt, type ReadSnapshot } from './read-snapshot.js';

const rendered = new Map<string, string>();
const RENDERED_KEPT = 16;

function remember(key: string, make: () => string): string {
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  const text = make();
  rendered.set(key, text);
  if (rendered.size > RENDERED_KEPT) rendered.delete(rendered.keys().next().value ?? '');
  return text;
}

/** A model and the commit whose files it holds. */
interface View<M> {
  commit: string;
  model: M;
}

/** How a kind of view is made and moved: a fresh model, and one path set to a blob id or removed. */
interface ViewKind<M> {
  views: Map<string, View<M>>;
  make: () => M;
  apply: (model: M, snap: ReadSnapshot, path: string, id: string | undefined) => void;
}

// Views of this many repositories are kept (each holds a node per file).
const VIEWS_KEPT = 4;

/** The model of `kind` at the snapshot's commit: moved by the snapshot's moves when it is on their chain. */
function viewAt<M>(kind: ViewKind<M>, repo: string, snap: ReadSnapshot): M {
  const view = kind.views.get(repo);
  kind.views.delete(repo);
  let model: M;
  const moves = snap.moves ?? [];
  const since = view === undefined ? -1 : moves.findIndex((m) => m.from === view.commit);
  if (view !== undefined && view.commit === snap.commit) model = view.model;
  else if (view !== undefined && since >= 0) {
    model = view.model;
    // A path's state is the snapshot's, whatever steps it took in between.
    const touched = new Set(moves.slice(since).flatMap((m) => m.paths));
    for (const path of touched) kind.apply(model, snap, path, snap.files.get(path));
  } else {
    model = kind.make();
    for (const [path, id] of snap.files) kind.apply(model, snap, path, id);
  }
  kind.views.set(repo, { commit: snap.commit, model });
  if (kind.views.size > VIEWS_KEPT) kind.views.delete(kind.views.keys().next().value ?? '');
  return model;
}

/** A file as the prompt takes it: `system/` texts in full, other markdown as its summary. */
function committedFile(
  snap: ReadSnapshot,
  path: string,
  id: string,
  layout: LayoutRow = LAYOUTS.system,
): CommittedFile {
  const text = snap.texts.get(id);
  const summary = snap.summaries.get(id);
  if (text !== undefined && layout.isCore(path)) return { path, content: text };
  if (summary !== undefined && path.endsWith('.md')) return { path, summary };
  return { path, content: '' };
}

const promptViews = new Map<string, View<PromptModel>>();

/** The prompt models of one layout (a repository's views are keyed by its layout too: a migration starts afresh). */
const promptsIn = (layout: LayoutRow): ViewKind<PromptModel> => ({
  views: promptViews,
  make: () => new PromptModel(layout),
  apply: (model, snap, path, id) =>
    id === undefined ? model.delete(path) : model.set(committedFile(snap, path, id, layout)),
});

const treeDescription = (snap: ReadSnapshot, path: string, id: string): string | undefined =>
  path.endsWith('.md') ? snap.summaries.get(id)?.description : undefined;

const trees: ViewKind<TreeModel> = {
  views: new Map(),
  make: () => new TreeModel(['system']),
  apply: (model, snap, path, id) =>
    id === undefined ? model.delete(path) : model.set(path, treeDescription(snap, path, id)),
};

/**
 * HEAD's system prompt (see blocks/compile-prompt.ts); the revision shown is HEAD's commit.
 * @example await readPrompt(git, memoryDir, { mode: 'local-memfs' })
 */
export async function readPrompt(
  git: GitRunner,
  memoryDir: string,
  options: Omit<CompileOptions, 'revision'>,
): Promise<string> {
  const commit = await headCommit(git, memoryDir);
  const layout = readRepoLayout(memoryDir);
  if (commit === null) return compiled(promptParts([], layout), options);
  const repo = resolveGitCommonDir(memoryDir);
  const key = `prompt\0${repo}\0${commit}\0${JSON.stringify(options)}\0${JSON.stringify(layout)}`;
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  const view = `${repo}\0${JSON.stringify(layout)}`;
  return withSnapshotAt(git, memoryDir, commit, (snap) =>
    remember(key, () => {
      const parts = viewAt(promptsIn(layout), view, snap).parts();
      if (parts !== undefined) return compiled(parts, { ...options, revision: commit });
      const files = [...snap.files].map(([path, id]) => committedFile(snap, path, id, layout));
      return compiled(promptParts(files, layout), { ...options, revision: commit });
    }),
  );
}

/** The system prompt, or with `maxChars` a harness's budgeted context (blocks/compile-context.ts). */
function compiled(parts: PromptParts, options: CompileOptions): string {
  if (options.template !== undefined && options.maxChars !== undefined) {
    throw new MemoryError('INVALID_ARGUMENT', 'a template wraps the full prompt: pass one of template and maxChars');
  }
  return options.maxChars === undefined
    ? compileParts(parts, options)
    : compileContext(parts, options, options.maxChars);
}

/**
 * HEAD's files as a tree, each markdown file with its description (see blocks/tree.ts).
 * @example await readTree(git, memoryDir, DEFAULT_TREE_LIMITS) // '/memory/\n├── system/…'
 */
export async function readTree(git: GitRunner, memoryDir: string, limits: TreeLimits): Promise<string> {
  const commit = await headCommit(git, memoryDir);
  const layout = readRepoLayout(memoryDir);
  const alwaysShow = layout.prompt === 'blocks' ? ['system'] : [];
  if (commit === null) return renderTree([], limits, { alwaysShow });
  const repo = resolveGitCommonDir(memoryDir);
  const key = `tree\0${repo}\0${commit}\0${JSON.stringify(limits)}\0${layout.name}`;
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  if (layout.prompt !== 'blocks')
    return withSnapshotAt(git, memoryDir, commit, (snap) =>
      remember(key, () => {
        const entries = [...snap.files].map(([path, id]) => treeEntry(committedFile(snap, path, id, layout), layout));
        return renderTree(entries, limits, { alwaysShow });
      }),
    );
  return withSnapshotAt(git, memoryDir, commit, (snap) =>
    remember(key, () => viewAt(trees, repo, snap).render(limits)),
  );
}
