/**
 * Shared memory repositories: memory several agents of a home attach. `create` makes the hub, a bare
 * repository at `$GITMEM_HOME/shared/<name>.git` with one commit (and pushes it to `--remote` when given, which
 * then is where every attachment syncs); `attach` checks it out beside the agent's own memory, at
 * `agents/<id>/shared/<name>` (its own hooks: its validator and protected list judge its commits), and records
 * the attachment, read-only or read-write, in `agents/<id>/shared.json`; `detach` drops the record and leaves
 * the checkout (a detached repository is ignored even though it stays on disk). What the hub's main holds is
 * validated by its own rules before a checkout is made, and `sync` goes through `syncMemory`, which validates
 * what it fetches before the checkout moves.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDotGitLike } from '../blocks/path-rules.js';
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { ensureHooks } from '../hooks/install.js';
import { agentPaths } from '../memfs/layout.js';
import { listHomeAgents } from '../memfs/scope.js';
import { findIncomingProblems } from './incoming.js';

/** One attachment of an agent. */
export interface SharedAttachment {
  name: string;
  readOnly: boolean;
}

/** A shared repository as `list` shows it to an agent. */
export interface SharedRepoInfo {
  name: string;
  /** The hub (bare, in the home). */
  hub: string;
  /** Where attachments sync: the remote given at create, else the hub. */
  remote: string;
  attached: boolean;
  readOnly: boolean;
  /** The agent's checkout (present even when detached, if it stayed on disk); '' when listed for the home. */
  checkout: string;
  /** Every agent of the home it is attached to, and how. */
  attachments: SharedAttachedAgent[];
}

/** One agent's attachment of a repository, as `list` shows it. */
export interface SharedAttachedAgent {
  agentId: string;
  readOnly: boolean;
}

const RESERVED = new Set(['con', 'prn', 'aux', 'nul', 'shared', 'memory', 'system', 'skills', 'head']);

/**
 * The name as given, or a MemoryError: letters, digits, `.`, `_`, `-` (1–64, starting with a letter or digit),
 * never `..`, a `.git` look-alike, a `.lock`/`.git` suffix, a Windows device name or a reserved name.
 * @example assertSharedName('team-notes') // ok; assertSharedName('../x') throws
 */
export function assertSharedName(name: unknown): string {
  const bad = (why: string): MemoryError =>
    new MemoryError('INVALID_ARGUMENT', `shared repository name ${JSON.stringify(name)}: ${why}`);
  if (typeof name !== 'string' || name === '') throw bad('it is empty');
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name))
    throw bad('use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');
  const lower = name.toLowerCase();
  if (name.includes('..') || isDotGitLike(name) || /\.(lock|git)$/.test(lower)) throw bad('it looks like a git path');
  if (RESERVED.has(lower) || /^(com|lpt)[0-9]$/.test(lower.split('.')[0] ?? '')) throw bad('it is a reserved name');
  return name;
}

export const sharedHub = (home: string, name: string): string => join(home, 'shared', `${assertSharedName(name)}.git`);
export const sharedCheckout = (home: string, agentId: string, name: string): string =>
  join(agentPaths(home, agentId).agentDir, 'shared', assertSharedName(name));
const attachmentsFile = (home: string, agentId: string): string =>
  join(agentPaths(home, agentId).agentDir, 'shared.json');

/** The agent's attachments (a missing or unreadable file: none; entries with unsafe names dropped). */
export function readAttachments(home: string, agentId: string): SharedAttachment[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(attachmentsFile(home, agentId), 'utf8'));
  } catch {
    return [];
  }
  const list = (parsed as { attached?: unknown })?.attached;
  if (!Array.isArray(list)) return [];
  const out: SharedAttachment[] = [];
  for (const e of list as Array<Partial<SharedAttachment>>) {
    try {
      out.push({ name: assertSharedName(e?.name), readOnly: e?.readOnly === true });
    } catch {
      // an entry planted with an unsafe name is ignored, never followed
    }
  }
  return out;
}

function writeAttachments(home: string, agentId: string, list: readonly SharedAttachment[]): void {
  const file = attachmentsFile(home, agentId);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ attached: list }, null, 2)}\n`);
  renameSync(tmp, file);
}

const ABOUT = (name: string): string =>
  `---\ndescription: what the shared memory repository ${name} is for\n---\nShared memory repository ${name}.\n`;

/**
 * Creates the hub with its first commit (`system/about.md`); with `remote`, pushes main there and records it.
 * @example await createShared(git, home, 'team', { remote: 'https://git.example.com/org/team.git' })
 */
export async function createShared(
  git: GitRunner,
  home: string,
  name: string,
  o: { remote?: string } = {},
): Promise<SharedRepoInfo> {
  const hub = sharedHub(home, name);
  if (existsSync(hub)) throw new MemoryError('FILE_EXISTS', `shared repository ${name} already exists at ${hub}`);
  mkdirSync(join(home, 'shared'), { recursive: true });
  const tmp = `${hub}.new-${randomBytes(4).toString('hex')}`;
  try {
    await git.run(['init', '-q', '--bare', '-b', 'main', tmp], { cwd: home });
    const blob = (await git.run(['hash-object', '-w', '--stdin'], { cwd: tmp, input: ABOUT(name) })).stdout.trim();
    const sys = (await git.run(['mktree'], { cwd: tmp, input: `100644 blob ${blob}\tabout.md\n` })).stdout.trim();
    const root = (await git.run(['mktree'], { cwd: tmp, input: `040000 tree ${sys}\tsystem\n` })).stdout.trim();
    const env = { GIT_AUTHOR_NAME: 'gitmem', GIT_AUTHOR_EMAIL: 'gitmem@gitmem.local' };
    const identity = { ...env, GIT_COMMITTER_NAME: env.GIT_AUTHOR_NAME, GIT_COMMITTER_EMAIL: env.GIT_AUTHOR_EMAIL };
    const commit = await git.run(['commit-tree', root, '-m', `chore: create shared memory ${name}`], {
      cwd: tmp,
      env: identity,
    });
    await git.run(['update-ref', 'refs/heads/main', commit.stdout.trim()], { cwd: tmp });
    if (o.remote !== undefined) {
      await git.run(['remote', 'add', 'origin', o.remote], { cwd: tmp });
      await git.run(['push', '--quiet', 'origin', 'refs/heads/main:refs/heads/main'], { cwd: tmp });
    }
    renameSync(tmp, hub);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  return { name, hub, remote: o.remote ?? hub, attached: false, readOnly: false, checkout: '', attachments: [] };
}

async function remoteOf(git: GitRunner, hub: string): Promise<string> {
  const r = await git.run(['config', '--get', 'remote.origin.url'], { cwd: hub, okExitCodes: [1] });
  return r.exitCode === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : hub;
}

/**
 * Attaches `name` to the agent: checks the hub's main out beside its memory (once; validated by the
 * repository's own rules first) and records the attachment (read-only or read-write).
 * @example await attachShared(git, home, 'ada', 'team', { readOnly: true })
 */
export async function attachShared(
  git: GitRunner,
  home: string,
  agentId: string,
  name: string,
  o: { readOnly?: boolean } = {},
): Promise<SharedRepoInfo> {
  const hub = sharedHub(home, name);
  if (!existsSync(hub))
    throw new MemoryError('INVALID_ARGUMENT', `no shared repository named ${name} (gitmem shared create ${name})`);
  if (!existsSync(agentPaths(home, agentId).memoryDir))
    throw new MemoryError('MEMORY_DIR_MISSING', `agent ${agentId} has no memory in this home`);
  const remote = await remoteOf(git, hub);
  const checkout = sharedCheckout(home, agentId, name);
  if (!existsSync(checkout)) await cloneChecked(git, home, remote, checkout);
  const list = readAttachments(home, agentId).filter((a) => a.name !== name);
  writeAttachments(home, agentId, [...list, { name, readOnly: o.readOnly === true }]);
  const attachments = homeAttachments(home).filter((a) => a.name === name);
  const agents = attachments.map((a) => ({ agentId: a.agentId, readOnly: a.readOnly }));
  return { name, hub, remote, attached: true, readOnly: o.readOnly === true, checkout, attachments: agents };
}

/** A checkout of `remote`'s main made in a temporary sibling, placed only once it passed the rules. */
async function cloneChecked(git: GitRunner, home: string, remote: string, checkout: string): Promise<void> {
  mkdirSync(join(checkout, '..'), { recursive: true });
  const tmp = `${checkout}.clone-${randomBytes(4).toString('hex')}`;
  try {
    await git.run(['clone', '--quiet', '--no-tags', '--no-checkout', remote, tmp], { cwd: home });
    const tip = (await git.run(['rev-parse', 'refs/remotes/origin/main'], { cwd: tmp })).stdout.trim();
    const problems = await findIncomingProblems({ git, memoryDir: tmp, home, signal: undefined }, tip, null);
    if (problems.length > 0)
      throw new MemoryError('REMOTE_REJECTED', `the shared repository's main breaks its rules: ${problems[0]}`, {
        data: { problems },
      });
    await git.run(['checkout', '-q', '-B', 'main', 'refs/remotes/origin/main'], { cwd: tmp });
    await git.run(['branch', '-q', '--set-upstream-to=origin/main', 'main'], { cwd: tmp });
    for (const [k, v] of [
      ['commit.gpgsign', 'false'],
      ['gitmem.shared', 'true'],
    ] as const)
      await git.run(['config', k, v], { cwd: tmp });
    renameSync(tmp, checkout);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  await ensureHooks(git, checkout);
}

/** Drops the attachment; the checkout stays on disk (and is ignored). */
export function detachShared(home: string, agentId: string, name: string): { detached: boolean } {
  assertSharedName(name);
  const list = readAttachments(home, agentId);
  const kept = list.filter((a) => a.name !== name);
  if (kept.length !== list.length) writeAttachments(home, agentId, kept);
  return { detached: kept.length !== list.length };
}

/** Every attachment of every agent of the home (agents whose id is not a safe one are skipped). */
function homeAttachments(home: string): Array<SharedAttachment & { agentId: string }> {
  const out: Array<SharedAttachment & { agentId: string }> = [];
  for (const { agentId } of listHomeAgents(home)) {
    let list: SharedAttachment[];
    try {
      list = readAttachments(home, agentId);
    } catch {
      continue; // a directory whose name is not an agent id
    }
    for (const a of list) out.push({ ...a, agentId });
  }
  return out;
}

/**
 * The home's shared repositories, each with the agents it is attached to; with `agentId`, also whether that
 * agent has it attached and where its checkout is. Needs no agent.
 * @example (await listShared(git, home, undefined))[0]?.attachments // [{ agentId: 'ada', readOnly: false }]
 */
export async function listShared(git: GitRunner, home: string, agentId: string | undefined): Promise<SharedRepoInfo[]> {
  const dir = join(home, 'shared');
  const names = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.git')) : [];
  const attached = agentId === undefined ? [] : readAttachments(home, agentId);
  const everyone = names.length === 0 ? [] : homeAttachments(home);
  const out: SharedRepoInfo[] = [];
  for (const file of names.sort()) {
    const name = file.slice(0, -'.git'.length);
    try {
      assertSharedName(name);
    } catch {
      continue;
    }
    const a = attached.find((x) => x.name === name);
    const hub = join(dir, file);
    out.push({
      name,
      hub,
      remote: await remoteOf(git, hub),
      attached: a !== undefined,
      readOnly: a?.readOnly ?? false,
      checkout: agentId === undefined ? '' : sharedCheckout(home, agentId, name),
      attachments: everyone.filter((e) => e.name === name).map((e) => ({ agentId: e.agentId, readOnly: e.readOnly })),
    });
  }
  return out;
}
