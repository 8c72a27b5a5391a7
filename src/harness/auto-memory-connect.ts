/**
 * `gitmem connect claude-code --auto-memory`: Claude Code's auto memory becomes the agent's gitmem checkout.
 * The existing auto-memory folder is imported first (one commit; a refusal stops here with nothing written),
 * then connect writes the hooks (the write hooks included) and `autoMemoryDirectory` into the user settings,
 * with `--agent` in every hook so they judge the same checkout the setting names.
 */
import { dirname } from 'node:path';
import { createMemory, MemoryError } from '../index.js';
import { readRepoLayout, type GitmemConfig } from '../internals.js';
import { importAutoMemory, autoMemorySource } from './auto-memory-import.js';
import { HARNESSES } from './catalogue.js';
import { connect, locations, type ConnectOptions, type ConnectResult } from './connect.js';
import { harnessNamed, scopeNamed } from './names.js';
import { agentForProject } from './projects.js';

export interface AutoMemoryConnectResult extends ConnectResult {
  /** The folder imported from, and the files it brought (a dry run: would bring). */
  importedFrom: string;
  imported: string[];
  memoryDir: string;
}

/**
 * Imports, then connects (see the file comment).
 * @example await connectAutoMemory({ home, config, harness: 'claude-code', agent: 'a1', env, cwd, launch })
 */
export async function connectAutoMemory(
  o: ConnectOptions & { config: GitmemConfig },
): Promise<AutoMemoryConnectResult> {
  const harness = harnessNamed(o.harness);
  if (!HARNESSES[harness].autoMemory)
    throw new MemoryError('INVALID_ARGUMENT', `--auto-memory: ${harness} has no memory folder gitmem can keep`);
  // Claude Code ignores autoMemoryDirectory in a project's checked-in settings (a cloned repository must not
  // redirect where memory is written): only the user settings can name the checkout.
  if (scopeNamed(o.scope) !== 'user')
    throw new MemoryError(
      'INVALID_ARGUMENT',
      '--auto-memory works with --scope user only (Claude Code ignores the setting in project settings)',
    );
  const where = locations(o.env, o.cwd);
  const agentId = o.agent ?? agentForProject(o.home, o.cwd);
  const memory = await createMemory({ config: o.config, agentId });
  // Claude Code writes MEMORY.md and topic files with name/description: only the index layout accepts them.
  if (readRepoLayout(memory.memoryDir).name !== 'index')
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `--auto-memory needs a checkout with the index layout; ${memory.memoryDir} has another (gitmem migrate --layout index, or a new agent made with gitmem init --layout index)`,
    );
  const settingsPath = HARNESSES[harness].files('user', where)[0]?.path ?? '';
  const source = autoMemorySource({
    settingsPath,
    configDir: dirname(settingsPath),
    userHome: where.userHome,
    projectRoot: where.projectRoot,
    memoryDir: memory.memoryDir,
  });
  const imported = await importAutoMemory(memory, source, o.dryRun === true);
  const result = connect({
    ...o,
    ...(memory.agentId === undefined ? {} : { agent: memory.agentId }),
    autoMemory: { memoryDir: memory.memoryDir },
  });
  return { ...result, importedFrom: source, imported, memoryDir: memory.memoryDir };
}
