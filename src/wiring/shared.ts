/**
 * `memory.shared` and what attached shared repositories (sync/shared.ts) change in a handle: a memory-tool
 * call whose path starts `shared/<name>/` for an attached `<name>` runs in that repository's checkout (one
 * commit there, with the reason, judged by its own hooks, validator and protected list; refused with READ_ONLY
 * on a read-only attachment), and the prompt gets their `system/` files and skills after the agent's own. A
 * repository not attached (detached, even with its checkout still on disk) changes nothing.
 */
import { DEFAULT_PROMPT_SURFACE, type PromptSurface } from '../blocks/prompt-surfaces.js';
import { contextFor } from '../blocks/render-blocks.js';
import { sharedPromptText, type SharedPromptRepo } from '../blocks/shared-prompt.js';
import { MemoryError } from '../errors.js';
import { withMemoryOperation } from '../git/lease.js';
import type { GitRunner } from '../git/runner.js';
import { normalizeMemoryPath } from '../memfs/paths.js';
import { runMemoryTool, type WriteDeps, type WriteResult } from '../memfs/tool.js';
import { readApi } from '../read/handle.js';
import {
  attachShared,
  createShared,
  detachShared,
  listShared,
  readAttachments,
  sharedCheckout,
  type SharedRepoInfo,
} from '../sync/shared.js';
import type { SyncResult } from '../sync/types.js';

/** `memory.shared`: shared memory repositories of the home, and this agent's attachments. */
export interface SharedApi {
  create(name: string, options?: { remote?: string }): Promise<SharedRepoInfo>;
  attach(name: string, options?: { readOnly?: boolean }): Promise<SharedRepoInfo>;
  detach(name: string): Promise<{ detached: boolean }>;
  list(): Promise<SharedRepoInfo[]>;
  /** Syncs every attached repository (fetched commits validated by its own rules before its checkout moves). */
  sync(): Promise<Array<{ name: string; result?: SyncResult; error?: string }>>;
  history(
    name: string,
    options?: { limit?: number },
  ): Promise<Array<{ commit: string; author: string; subject: string }>>;
}

interface SharedWiring {
  git: GitRunner;
  home: string;
  agentId: string | undefined;
}

function needAgent(agentId: string | undefined): string {
  if (agentId === undefined) throw new MemoryError('NO_MEMORY_DIR', 'shared: this handle has no agent id');
  return agentId;
}

/** The handle's `shared` part. */
export function sharedApi(o: SharedWiring): SharedApi {
  const attachedCheckout = (name: string): string => {
    const id = needAgent(o.agentId);
    if (!readAttachments(o.home, id).some((a) => a.name === name))
      throw new MemoryError('INVALID_ARGUMENT', `shared repository ${name} is not attached to agent ${id}`);
    return sharedCheckout(o.home, id, name);
  };
  return {
    create: (name, opts = {}) => createShared(o.git, o.home, name, opts),
    attach: (name, opts = {}) => attachShared(o.git, o.home, needAgent(o.agentId), name, opts),
    detach: async (name) => detachShared(o.home, needAgent(o.agentId), name),
    list: () => listShared(o.git, o.home, o.agentId),
    sync: async () => {
      const { syncMemory } = await import('../sync/sync.js');
      const out: Array<{ name: string; result?: SyncResult; error?: string }> = [];
      const id = o.agentId;
      for (const a of id === undefined ? [] : readAttachments(o.home, id)) {
        const memoryDir = sharedCheckout(o.home, id as string, a.name);
        try {
          out.push({ name: a.name, result: await syncMemory({ git: o.git, memoryDir, home: o.home }) });
        } catch (err) {
          out.push({ name: a.name, error: err instanceof Error ? err.message : String(err) });
        }
      }
      return out;
    },
    history: async (name, opts = {}) => {
      const limit = Math.max(1, Math.min(opts.limit ?? 20, 1000));
      const r = await o.git.run(['log', `-n${limit}`, '-z', '--format=%H%x00%an <%ae>%x00%s', 'HEAD', '--'], {
        cwd: attachedCheckout(name),
      });
      const f = r.stdout.split('\0');
      const out: Array<{ commit: string; author: string; subject: string }> = [];
      for (let i = 0; i + 2 < f.length; i += 3)
        out.push({ commit: (f[i] ?? '').trim(), author: f[i + 1] ?? '', subject: f[i + 2] ?? '' });
      return out;
    },
  };
}

const PATH_ARGS = ['file_path', 'old_path', 'new_path'] as const;

/**
 * The write deps of a shared repository's checkout: the agent's runner, author, clock and durability, the
 * checkout's own lease (its hooks judge the commit); no afterCommit or sync note of the agent's memory.
 * @example await runMemoryTool(sharedWriteDeps(deps, sharedCheckout(home, id, 'team')), call)
 */
export function sharedWriteDeps(deps: WriteDeps, memoryDir: string): WriteDeps {
  return {
    git: deps.git,
    memoryDir,
    author: deps.author,
    lease: (fn) => withMemoryOperation(memoryDir, fn, { purpose: 'memory tool write (shared)' }),
    clock: deps.clock,
    durable: deps.durable,
  };
}

/**
 * Runs a memory-tool call in an attached shared repository when its paths name one (`shared/<name>/…`);
 * undefined when they do not (the agent's own memory takes it).
 * @example (await routeSharedTool(deps, { home, agentId }, call)) ?? (await runMemoryTool(deps, call))
 */
export async function routeSharedTool(
  deps: WriteDeps,
  o: { home: string; agentId: string | undefined },
  call: unknown,
): Promise<WriteResult | undefined> {
  if (o.agentId === undefined || typeof call !== 'object' || call === null) return undefined;
  const attached = readAttachments(o.home, o.agentId);
  if (attached.length === 0) return undefined;
  const args = call as Record<string, unknown>;
  const hits = new Map<string, string>(); // arg → path inside the shared repository
  const repos = new Set<string>();
  for (const key of PATH_ARGS) {
    if (typeof args[key] !== 'string') continue;
    let file: string;
    try {
      file = normalizeMemoryPath(args[key], { memoryDir: deps.memoryDir, field: key }).file;
    } catch {
      continue; // the command refuses it in its own words
    }
    const m = /^shared\/([^/]+)\/(.+)$/.exec(file);
    const repo = m && attached.find((a) => a.name === m[1]);
    if (!m || !repo) continue;
    hits.set(key, m[2] ?? '');
    repos.add(repo.name);
  }
  if (repos.size === 0) return undefined;
  const name = [...repos][0] ?? '';
  if (repos.size > 1 || hits.size !== PATH_ARGS.filter((k) => typeof args[k] === 'string').length)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      'memory: a call cannot span two repositories (shared/<name>/ and another)',
    );
  const attachment = attached.find((a) => a.name === name);
  if (attachment?.readOnly === true && args['command'] !== 'view')
    throw new MemoryError('READ_ONLY', `memory: shared repository ${name} is attached read-only to this agent`);
  const shared = sharedWriteDeps(deps, sharedCheckout(o.home, o.agentId, name));
  const reads = readApi(shared, o.agentId);
  const view = async (a: Record<string, unknown>): Promise<WriteResult> => {
    const range = a['view_range'] === undefined ? {} : { range: a['view_range'] as [number, number] };
    const v = await reads.view(a['file_path'] as string | undefined, range);
    return { commit: v.commit, paths: [], message: v.text, view: v.text };
  };
  return runMemoryTool({ ...shared, view }, { ...args, ...Object.fromEntries(hits) });
}

/**
 * The prompt's text for the attached repositories (blocks/shared-prompt.ts): their committed `system/` files
 * and skills; '' when none is attached.
 */
export async function sharedPrompt(o: SharedWiring, prefix: string): Promise<string> {
  if (o.agentId === undefined) return '';
  const repos: SharedPromptRepo[] = [];
  for (const a of readAttachments(o.home, o.agentId)) {
    const cwd = sharedCheckout(o.home, o.agentId, a.name);
    const head = await o.git.run(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { cwd, okExitCodes: [1, 128] });
    if (head.exitCode !== 0) continue; // attached but not (yet) checked out: nothing to show
    const listed = await o.git.run(['ls-tree', '-r', '-z', '--name-only', 'HEAD', '--', 'system', 'skills'], { cwd });
    const paths = listed.stdout
      .split('\0')
      .filter((p) => (p.startsWith('system/') && p.endsWith('.md')) || /^skills\/[^/]+\/SKILL\.md$/.test(p));
    const files: Array<{ path: string; content: string }> = [];
    for (const path of paths)
      files.push({ path, content: (await o.git.run(['cat-file', 'blob', `HEAD:${path}`], { cwd })).stdout });
    repos.push({ name: a.name, readOnly: a.readOnly, revision: head.stdout.trim(), files });
  }
  return sharedPromptText(repos, prefix);
}

/** How the prompt writes a memory path for this surface (`$MEMORY_DIR/`, `/memories/`, or nothing). */
export function promptPrefix(surface: PromptSurface | undefined): string {
  return contextFor(surface ?? DEFAULT_PROMPT_SURFACE, undefined, true).prefix;
}

/**
 * The agent's own prompt followed by its attached shared repositories' text; a capped context (`maxChars`)
 * and the `standard` mode stay as they are.
 */
export async function withSharedPrompt(
  own: string,
  o: SharedWiring,
  opts: { mode: string; surface?: PromptSurface; maxChars?: number },
): Promise<string> {
  if (opts.maxChars !== undefined || opts.mode === 'standard') return own;
  const shared = await sharedPrompt(o, promptPrefix(opts.surface));
  return shared === '' ? own : `${own}\n\n${shared}`;
}

/**
 * The agent's tree followed by each attached repository's, rooted at `shared/<name>/` (its own tree's lines
 * under that root line); detached repositories are not shown.
 */
export async function withSharedTree(
  own: string,
  o: SharedWiring,
  treeOf: (checkout: string) => Promise<string>,
): Promise<string> {
  if (o.agentId === undefined) return own;
  const parts = [own];
  for (const a of readAttachments(o.home, o.agentId)) {
    const text = await treeOf(sharedCheckout(o.home, o.agentId, a.name)).catch(() => '');
    const body = text.split('\n').slice(1).join('\n'); // its own root line gives way to shared/<name>/
    parts.push(`shared/${a.name}/${a.readOnly ? ' (read-only)' : ''}\n${body}`);
  }
  return parts.join('\n');
}
