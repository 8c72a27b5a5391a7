/**
 * Partial clones (`gitmem clone --partial`): which objects a promisor repository lacks, and fetching a set of
 * them in one round trip. git fetches a missing blob by itself whenever something reads it, one fetch per
 * object; a reader that needs many at once (the protection scan's first look at history) asks here first.
 */
import { resolve, sep } from 'node:path';
import { gitmemConfigValue, readGitConfigText, configValue } from './config-text.js';
import type { GitAuth, GitRunner, GitRunOptions } from './runner.js';

/** True when the repository at `commonDir` is a partial clone (objects may be missing, fetched on demand). */
export function isPartialClone(commonDir: string): boolean {
  const text = readGitConfigText(commonDir);
  if (text === undefined) return false;
  // Newer git records `extensions.partialclone`; 2.39 only `remote.origin.promisor`.
  return (
    (configValue(text, 'extensions', 'partialclone') ?? '') !== '' ||
    configValue(text, 'remote', 'promisor', 'origin') === 'true'
  );
}

/** The scope a scoped clone checked out (`gitmem.scope`), or undefined. */
export function cloneScope(commonDir: string): string | undefined {
  const text = readGitConfigText(commonDir);
  const scope = text === undefined ? undefined : gitmemConfigValue(text, 'scope');
  return scope === '' ? undefined : scope;
}

/**
 * The objects reachable from `revs` (rev-list arguments) that are not here; fetches nothing.
 * @example await missingObjects(git, dir, [head, '--not', scanned])
 */
export async function missingObjects(git: GitRunner, cwd: string, revs: readonly string[]): Promise<Set<string>> {
  const r = await git.run(['rev-list', '--objects', '--missing=print', ...revs, '--'], { cwd });
  const out = new Set<string>();
  for (const line of r.stdout.split('\n')) if (line.startsWith('?')) out.add(line.slice(1).trim());
  return out;
}

/**
 * Fetches `ids` from `origin` in one round trip (what git's own lazy fetch runs, batched).
 * @example await fetchObjects(git, dir, [...missing])
 */
export async function fetchObjects(
  git: GitRunner,
  cwd: string,
  ids: readonly string[],
  call: Omit<Parameters<GitRunner['run']>[1], 'cwd' | 'input'> = {},
): Promise<void> {
  if (ids.length === 0) return;
  const argv = ['-c', 'fetch.negotiationAlgorithm=noop', 'fetch', '--quiet', 'origin', '--no-tags'];
  argv.push('--no-write-fetch-head', '--recurse-submodules=no', '--filter=blob:none', '--stdin');
  await git.run(argv, { ...call, cwd, input: `${ids.join('\n')}\n` });
}

/**
 * `git` with `auth` on every command run inside `dirs` (the memory, its git dir, its background writers'
 * worktrees) that carries none of its own. A partial clone's missing blob is fetched by git itself, from inside
 * whatever command reads it (`cat-file`, `diff`, `checkout`, a merge), so the credentials the clone used must
 * travel with those commands too: as the runner sends them (environment config scoped to the remote's origin,
 * redirects off; never argv, never .git/config). Commands elsewhere (a shared repository's checkout, another
 * remote) are left as they are.
 * @example const reader = withPromisorAuth(git, authForRemote(cred, url), [memoryDir, commonDir])
 */
export function withPromisorAuth(git: GitRunner, auth: GitAuth, dirs: readonly string[]): GitRunner {
  const roots = dirs.map((d) => resolve(d));
  const inside = (cwd: string): boolean => {
    const at = resolve(cwd);
    return roots.some((r) => at === r || at.startsWith(`${r}${sep}`));
  };
  const add = (o: GitRunOptions): GitRunOptions => (o.auth !== undefined || !inside(o.cwd) ? o : { ...o, auth });
  return {
    run: (args, o) => git.run(args, add(o)),
    exec: (op, o) => git.exec(op, add(o)),
    secrets: [...git.secrets, ...auth.secrets, auth.authorization],
    detach: (args, o) => git.detach(args, o),
  };
}
