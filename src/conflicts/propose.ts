/**
 * `gitmem conflicts resolve <branch> --propose -m <model>`: a model writes the resolved text of each
 * conflicted file; the result passes the validator and becomes a proposal branch (main is not touched). The
 * diff it would bring is returned for a person to read before `accept`.
 */
import type { LanguageModel } from 'ai';
import { MemoryError, toMemoryError } from '../errors.js';
import { readGitmemConfig } from '../llm/config.js';
import { createUniqueRef } from '../sync/refs.js';
import { assertResolutionValid, commitTree } from './land.js';
import { PROPOSAL_PREFIX, RESOLVES_TRAILER } from './proposals.js';
import { answerText, PROPOSE_SYSTEM, proposePrompt } from './propose-prompt.js';
import { checkReason, checkResolution, mainHead, requireKeptBranch } from './resolve.js';
import { mergeStages, resolvedTree } from './resolved-tree.js';
import type { ConflictedPath, StageEntry } from './merge-stages.js';
import type { ConflictDeps } from './types.js';

export interface ProposeOptions {
  /** A model spec (`openai-compatible:local:qwen3`) or a provider instance; default: the configured model. */
  model?: string | LanguageModel;
  /** Why (becomes part of the proposal's message); default names the model. */
  reason?: string;
  signal?: AbortSignal;
}

export interface ProposeResult {
  proposal: string;
  commit: string;
  branch: string;
  conflicted: string[];
  /** Unified diff from main to the proposal: what accepting it changes. */
  diff: string;
}

async function modelFor(deps: ConflictDeps, model: ProposeOptions['model']): Promise<LanguageModel> {
  if (model !== undefined && typeof model !== 'string') return model;
  const { resolveModel } = await import('../llm/provider.js');
  return resolveModel({ spec: model, env: deps.env, config: readGitmemConfig(deps.home) });
}

const MAX_SIDE_BYTES = 200_000;
const CONFLICT_MARKER = /^(?:<{7} |>{7} |={7}$)/m;

async function sideText(deps: ConflictDeps, path: string, side: StageEntry | undefined): Promise<string | null> {
  if (side === undefined) return null;
  if (!/^100[0-7]{3}$/.test(side.mode))
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${path} is not a regular file on one side; resolve it with --ours, --theirs or --file`,
      { data: { path } },
    );
  const data = (await deps.git.run(['cat-file', 'blob', side.oid], { cwd: deps.memoryDir })).stdoutBuffer;
  if (data.length > MAX_SIDE_BYTES || data.includes(0))
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${path} is too large or binary for a proposal; resolve it with --ours, --theirs or --file`,
      { data: { path } },
    );
  return data.toString('utf8');
}

async function askModel(
  deps: ConflictDeps,
  model: LanguageModel,
  c: ConflictedPath,
  signal?: AbortSignal,
): Promise<string | null> {
  const [base, ours, theirs] = [
    await sideText(deps, c.path, c.base),
    await sideText(deps, c.path, c.ours),
    await sideText(deps, c.path, c.theirs),
  ];
  const { generateText } = await import('ai');
  try {
    const r = await generateText({
      model,
      system: PROPOSE_SYSTEM,
      prompt: proposePrompt(c.path, base, ours, theirs),
      maxRetries: 1,
      ...(signal ? { abortSignal: signal } : {}),
    });
    return answerText(r.text);
  } catch (err) {
    const e = toMemoryError(err, 'MODEL_ERROR');
    throw e.code === 'MODEL_ERROR'
      ? new MemoryError('MODEL_ERROR', `the model could not propose ${c.path}: ${e.message.split('\n')[0] ?? ''}`, {
          cause: err,
        })
      : e;
  }
}

/**
 * Asks a model for a resolution of `branch` and stores it as a proposal branch.
 * @example const p = await proposeResolution(deps, 'gitmem/worker/w1', { model: 'openai-compatible:local:qwen3' }); console.log(p.diff)
 */
export async function proposeResolution(
  deps: ConflictDeps,
  branch: string,
  options: ProposeOptions = {},
): Promise<ProposeResult> {
  const reason = options.reason === undefined ? undefined : checkReason('conflicts propose', options.reason);
  const kept = await requireKeptBranch(deps, branch);
  const { git, memoryDir: cwd } = deps;
  const head = await mainHead(deps);
  const stages = await mergeStages(git, cwd, head, kept.head);
  const files: Record<string, string | null> = {};
  if (stages.conflicts.length > 0) {
    const model = await modelFor(deps, options.model);
    for (const c of stages.conflicts) files[c.path] = await askModel(deps, model, c, options.signal);
  }
  checkResolution('conflicts propose', { files });
  const marked = Object.keys(files).filter((p) => CONFLICT_MARKER.test(files[p] ?? ''));
  if (marked.length > 0)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `the model's answer for ${marked.join(', ')} still holds conflict markers; no proposal was made`,
      { data: { paths: marked } },
    );
  const { tree, conflicted } = await resolvedTree(git, cwd, head, kept.head, { files });
  const message = `Proposed resolution of ${kept.branch}\n\n${reason ?? 'Written by a model; accept it with `gitmem conflicts accept`.'}\n\n${RESOLVES_TRAILER}: ${kept.branch}`;
  await assertResolutionValid(git, cwd, head, tree, message, deps.home);
  const commit = await commitTree(git, cwd, tree, [head, kept.head], message, deps.author);
  const ref = await createUniqueRef(
    git,
    cwd,
    `refs/heads/${PROPOSAL_PREFIX}`,
    (deps.clock ?? (() => new Date()))(),
    commit,
  );
  const diff = (
    await git.run(['diff', '--no-color', '--no-ext-diff', '--no-textconv', '-M', '--end-of-options', head, commit], {
      cwd,
    })
  ).stdout;
  return { proposal: ref.slice('refs/heads/'.length), commit, branch: kept.branch, conflicted, diff };
}
