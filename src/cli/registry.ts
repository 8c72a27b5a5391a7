/**
 * Every CLI command, imported only when invoked so start-up stays fast. One line per command.
 */
import type { CliCommand } from './types.js';

type Loader = () => Promise<{ command: CliCommand }>;

export const COMMANDS: Record<string, Loader> = {
  remote: () => import('./commands/remote.js'),
  clone: () => import('./commands/clone.js'),
  sync: () => import('./commands/sync.js'),
  mirror: () => import('./commands/mirror.js'),
  conflicts: () => import('./commands/conflicts.js'),
  doctor: () => import('./commands/doctor.js'),
  init: () => import('./commands/init.js'),
  agents: () => import('./commands/agents.js'),
  prompt: () => import('./commands/prompt.js'),
  tree: () => import('./commands/tree.js'),
  status: () => import('./commands/status.js'),
  log: () => import('./commands/log.js'),
  show: () => import('./commands/show.js'),
  diff: () => import('./commands/diff.js'),
  revert: () => import('./commands/revert.js'),
  tokens: () => import('./commands/tokens.js'),
  search: () => import('./commands/search.js'),
  memory: () => import('./commands/memory.js'),
  hook: () => import('./commands/hook.js'),
  protect: () => import('./commands/protect.js'),
  secrets: () => import('./commands/secrets.js'),
  personality: () => import('./commands/personality.js'),
  mcp: () => import('./commands/mcp.js'),
  worker: () => import('./commands/worker.js'),
  dream: () => import('./commands/dream.js'),
  daemon: () => import('./commands/daemon.js'),
  palace: () => import('./commands/palace.js'),
  connect: () => import('./commands/connect.js'),
  disconnect: () => import('./commands/disconnect.js'),
  config: () => import('./commands/config.js'),
};
