/**
 * The user's own git identity (`user.name`, `user.email`) as a value, read the way git reads it for a commit
 * but without the repository's own config: `init` records the agent's name there, and an operator's commit
 * must not borrow it (identity.ts operatorIdentity).
 */
import type { Identity } from '../../identity.js';
import type { GitOp } from '../runner.js';

/** Scopes that belong to the repository, not to the user. */
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);

/**
 * Parses `git config -z --show-scope --get-regexp` output (`scope NUL key LF value NUL`…): the last value of
 * each key outside the repository's scopes wins, as in git. Pure.
 * @example parseUserIdentity('global\0user.name\nAda\0local\0user.name\nagent\0') // { name: 'Ada' }
 */
export function parseUserIdentity(stdout: string): Partial<Identity> {
  const out: Partial<Identity> = {};
  const records = stdout.split('\0');
  for (let i = 0; i + 1 < records.length; i += 2) {
    const scope = records[i] as string;
    const entry = records[i + 1] as string;
    const cut = entry.indexOf('\n');
    const key = (cut < 0 ? entry : entry.slice(0, cut)).toLowerCase();
    if (REPOSITORY_SCOPES.has(scope) || cut < 0) continue;
    if (key === 'user.name') out.name = entry.slice(cut + 1);
    else if (key === 'user.email') out.email = entry.slice(cut + 1);
  }
  return out;
}

/**
 * `git config --show-scope --get-regexp ^user\.(name|email)$` (exit 1 when neither is set).
 * @example const mine = await git.exec(userIdentityOp(), { cwd: memoryDir })
 */
export function userIdentityOp(): GitOp<Partial<Identity>> {
  return {
    args: ['config', '-z', '--show-scope', '--get-regexp', '^user\\.(name|email)$'],
    okExitCodes: [1],
    parse: (r) => (r.exitCode === 0 ? parseUserIdentity(r.stdout) : {}),
  };
}
