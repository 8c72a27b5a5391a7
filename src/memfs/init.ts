/**
 * Creates an agent's memory repository (branch main, identity, hooks, first commit with the starter
 * blocks) or, when it exists, repairs its hooks and says so. The repository's object format is git's choice
 * (`GIT_DEFAULT_HASH`, SHA-1 otherwise); the first commit is written in it. A repository without a commit (an
 * init that failed half-way, or a bare `git init`) is reported as broken, never as "already exists".
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LAYOUT, LAYOUTS, type LayoutName } from '../blocks/layouts.js';
import { validateChanges } from '../blocks/validate.js';
import { readRepoLayout } from '../hooks/layout-config.js';
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { ensureHooks } from '../hooks/install.js';
import { commitEdits } from './edits.js';
import type { Identity } from '../identity.js';
import { agentPaths, type AgentPaths } from './layout.js';

export interface InitRequest {
  home: string;
  agentId: string;
  author: Identity;
  /** Starter files (repo-relative path → content). */
  files: Array<{ path: string; content: string }>;
  date?: Date;
  /** The layout recorded for the repository (`gitmem.layout`); default `system`. */
  layout?: LayoutName;
  /** The caller named the layout: an existing repository of another layout is refused, not silently kept. */
  explicitLayout?: boolean;
}

/** What `initMemory` did: the agent's paths, whether it created the repository (and its first commit), the hooks it rewrote. */
export interface InitResult extends AgentPaths {
  created: boolean;
  commit: string | null;
  /** Hooks (re)written on this call. */
  repairedHooks: string[];
}

/**
 * Initialises (or repairs) the memory repo of `agentId` under `home`.
 * @example await initMemoryRepo(git, { home, agentId: 'a1', author, files: defaultMemoryFiles() })
 */
export async function initMemoryRepo(git: GitRunner, req: InitRequest): Promise<InitResult> {
  const paths = agentPaths(req.home, req.agentId);
  const cwd = paths.memoryDir;
  if (existsSync(join(cwd, '.git'))) {
    const head = await git.run(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { cwd, okExitCodes: [1, 128] });
    if (head.exitCode !== 0) {
      throw new MemoryError(
        'REPO_BROKEN',
        `the memory repository at ${cwd} has no commit on its branch (an init that did not finish?); remove ${cwd} and run init again`,
        {
          data: { memoryDir: cwd },
        },
      );
    }
    const existing = readRepoLayout(cwd).name;
    if (req.explicitLayout === true && existing !== (req.layout ?? DEFAULT_LAYOUT))
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `agent ${req.agentId} already exists with the ${existing} layout; change it with \`gitmem migrate --layout ${req.layout ?? DEFAULT_LAYOUT}\``,
        { data: { memoryDir: cwd, layout: existing } },
      );
    const { repaired } = await ensureHooks(git, cwd);
    return { ...paths, created: false, commit: null, repairedHooks: repaired };
  }
  const problems = validateChanges(
    req.files.map((f) => ({ status: 'added', path: f.path, content: f.content, headContent: null })),
    { layout: LAYOUTS[req.layout ?? DEFAULT_LAYOUT] },
  );
  if (problems.length > 0) {
    throw new MemoryError('VALIDATION_FAILED', `starter files are invalid:\n  ${problems.join('\n  ')}`, {
      data: { errors: problems },
    });
  }
  const fresh = !existsSync(cwd);
  mkdirSync(cwd, { recursive: true });
  mkdirSync(paths.worktreesDir, { recursive: true });
  try {
    return await createRepo(git, req, paths);
  } catch (err) {
    // Leave no commit-less repository behind (the next init would have to call it broken).
    if (fresh) rmSync(cwd, { recursive: true, force: true });
    else rmSync(join(cwd, '.git'), { recursive: true, force: true });
    throw err;
  }
}

async function createRepo(git: GitRunner, req: InitRequest, paths: AgentPaths): Promise<InitResult> {
  const cwd = paths.memoryDir;
  await git.run(['init', '-q', '-b', 'main'], { cwd });
  const settings: Array<[string, string]> = [
    ['user.name', req.author.name],
    ['user.email', req.author.email],
    ['gitmem.agentId', req.agentId],
    // Before the hooks and the first commit: both judge by it.
    ['gitmem.layout', req.layout ?? DEFAULT_LAYOUT],
    ['commit.gpgsign', 'false'],
    // Large-repo settings: cached untracked scans, and a split index so re-staging one path rewrites a
    // small file instead of the whole index.
    ['core.untrackedCache', 'true'],
    ['core.splitIndex', 'true'],
  ];
  for (const [key, value] of settings) await git.run(['config', key, value], { cwd });
  const { repaired } = await ensureHooks(git, cwd);
  const commit = await commitEdits(git, {
    memoryDir: cwd,
    edits: req.files.map((f) => ({ file: f.path, before: null, after: f.content })),
    message: 'chore: initialize memory',
    author: req.author,
    base: { head: null, trees: new Map() },
    operation: 'init',
    date: req.date,
  });
  return { ...paths, created: true, commit, repairedHooks: repaired };
}
