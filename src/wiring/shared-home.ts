/**
 * The shared repositories of a home without an agent's memory (`gitmem shared create|list` with no `--agent`):
 * creating a hub and listing the hubs with every agent's attachments need only the home; attaching, detaching,
 * syncing and history stay on a handle (`memory.shared`), since they act for one agent.
 */
import type { GitmemConfig } from '../config.js';
import { assertHomeUsable } from '../home.js';
import type { GitRunner } from '../git/runner.js';
import type { Launcher } from '../process/run.js';
import { createShared, listShared } from '../sync/shared.js';
import { runnerFor } from './open.js';
import type { SharedApi } from './shared.js';

/**
 * `create` and `list` of the home's shared repositories, wired from the configuration (its home and git).
 * @example await homeShared({ config: loadConfig({ home }) }).create('team')
 */
export function homeShared(o: {
  config: GitmemConfig;
  git?: GitRunner;
  launch?: Launcher;
}): Pick<SharedApi, 'create' | 'list'> {
  const { home } = o.config;
  const git = (): GitRunner => runnerFor(o.config, o);
  return {
    create: async (name, opts = {}) => {
      assertHomeUsable(home);
      return createShared(git(), home, name, opts);
    },
    list: async () => {
      assertHomeUsable(home);
      return listShared(git(), home, undefined);
    },
  };
}
