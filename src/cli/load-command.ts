/**
 * Each command's module, imported only when that command runs (or its usage is asked for) so start-up
 * stays fast. Typed by the registry's names: a command without a loader here, or a loader for no command,
 * does not compile. Kept apart from registry.ts so the daemon's client, which reads the registry on every
 * call, never bundles a command.
 */
import { MemoryError } from '../errors.js';
import { isCommandName, type CommandName } from './registry.js';
import type { CliCommand } from './types.js';

type Loaders = { readonly [N in CommandName]: () => Promise<{ command: CliCommand }> };

const LOADERS: Loaders = {
  remote: () => import('./commands/remote.js'),
  clone: () => import('./commands/clone.js'),
  sync: () => import('./commands/sync.js'),
  integrate: () => import('./commands/integrate.js'),
  mirror: () => import('./commands/mirror.js'),
  shared: () => import('./commands/shared.js'),
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
  defrag: () => import('./commands/defrag.js'),
  migrate: () => import('./commands/migrate.js'),
  daemon: () => import('./commands/daemon.js'),
  palace: () => import('./commands/palace.js'),
  connect: () => import('./commands/connect.js'),
  disconnect: () => import('./commands/disconnect.js'),
  config: () => import('./commands/config.js'),
  sandbox: () => import('./commands/sandbox.js'),
};

/**
 * The module of command `name`; UNKNOWN_COMMAND when there is none.
 * @example (await loadCommand('log')).usage
 */
export async function loadCommand(name: string): Promise<CliCommand> {
  if (!isCommandName(name)) throw new MemoryError('UNKNOWN_COMMAND', `unknown command '${name}' (run gitmem help)`);
  return (await LOADERS[name]()).command;
}
