/**
 * What a handle was wired with (its git runner, configuration and git dirs), kept on the handle under a
 * symbol rather than as public fields: the stable `Memory` shape offers operations, not its runner. gitmem's
 * own code that builds on the building blocks (the palace, an adapter's batched object read, tests) reaches
 * them through `gitmem/internals`.
 */
import type { GitmemConfig } from '../config.js';
import type { GitDirs } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
import { MemoryError } from '../errors.js';

/** What memory.ts wired a handle with. */
export interface HandleWiring {
  readonly git: GitRunner;
  readonly config: GitmemConfig;
  readonly gitDirs: GitDirs;
}

// Symbol.for: one key for every copy of this module in the process (the CLI ships more than one bundle).
const WIRING = Symbol.for('gitmem.handle-wiring');

/**
 * Puts `wiring` on `handle` under the symbol. Enumerable, so a copy of the handle (`{ ...memory, applyPatch }`)
 * keeps it; `Object.keys` and JSON never show it.
 * @example return withWiring(handle, { git, config, gitDirs })
 */
export function withWiring<T extends object>(handle: T, wiring: HandleWiring): T {
  Object.defineProperty(handle, WIRING, { value: wiring, enumerable: true });
  return handle;
}

/**
 * What `handle` was wired with, or undefined for an object createMemory did not build.
 * @example handleWiring(memory)?.config.home
 */
export function handleWiring(handle: object): HandleWiring | undefined {
  return (handle as { [WIRING]?: HandleWiring })[WIRING];
}

/**
 * The git runner `handle` was wired with; INVALID_ARGUMENT for an object createMemory did not build.
 * @example await listKeptBranches({ git: handleGit(memory), memoryDir: memory.memoryDir })
 */
export function handleGit(handle: object): GitRunner {
  const wiring = handleWiring(handle);
  if (!wiring)
    throw new MemoryError('INVALID_ARGUMENT', 'not a Memory handle opened by createMemory (it carries no git runner)');
  return wiring.git;
}
