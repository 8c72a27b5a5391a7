/**
 * The handle's protection API, wired once: the protected list (list, add, remove) and an operator's write of a
 * protected file, committed as the operator — the person's own git identity, never the agent's (identity.ts).
 */
import type { GitmemConfig } from '../config.js';
import { userIdentityOp } from '../git/commands/user-identity.js';
import { listProtectedPaths, protectPaths, recordProtection, unprotectPaths } from '../hooks/protected.js';
import { operatorIdentity, type Identity } from '../identity.js';
import type { WriteDeps } from '../memfs/tool.js';
import type { Memory } from './types.js';

/**
 * Who an operator's write says made it: as given, else GIT_AUTHOR_* of the handle's environment, else the
 * user's git configuration outside the repository, else gitmem's operator identity.
 */
async function operatorOf(
  deps: WriteDeps,
  env: GitmemConfig['env'],
  given: Partial<Identity> | undefined,
): Promise<Identity> {
  const environment = { name: env['GIT_AUTHOR_NAME'], email: env['GIT_AUTHOR_EMAIL'] };
  const gitConfig = await deps.git.exec(userIdentityOp(), { cwd: deps.memoryDir });
  return operatorIdentity({ given, environment, gitConfig });
}

/**
 * The `protection` entry of a handle (the write's module loads on first use).
 * @example Object.assign(handle, protectionParts(deps, config))
 */
export function protectionParts(deps: WriteDeps, config: GitmemConfig): Pick<Memory, 'protection'> {
  const { git, memoryDir } = deps;
  return {
    protection: {
      list: async () => {
        await recordProtection(git, memoryDir); // first record the read_only files committed since the last look
        return listProtectedPaths(memoryDir);
      },
      add: (paths) => protectPaths(memoryDir, paths),
      remove: (paths) => unprotectPaths(memoryDir, paths),
      write: async (path, text, options) => {
        const author = await operatorOf(deps, config.env, options.author);
        return (await import('../memfs/operator-write.js')).runOperatorWrite(deps, {
          path,
          text,
          reason: options.reason,
          author,
        });
      },
    },
  };
}
