/**
 * `memory.defrag`, wired: the configured model (resolved on first use), the runner, the launcher, the
 * environment the sub-agent's sandbox is built from, the sync credentials for the parent's refresh and
 * the tree caps. The run itself is reflection/defrag.ts, loaded on first call.
 */
import type { GitmemConfig } from '../config.js';
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import type { Launcher } from '../process/run.js';
import { modelResolver } from './reflection.js';
import type { MemoryDefragOptions } from './operation-types.js';
import type { Memory } from './types.js';

/**
 * The defrag entry of a handle.
 * @example const r = await memory.defrag({ dryRun: true }); console.log(r.diff)
 */
export function defragPart(w: {
  config: GitmemConfig;
  git: GitRunner;
  launch: Launcher;
  agentId: string | undefined;
  memoryDir: string;
}): Pick<Memory, 'defrag'> {
  return {
    defrag: async (o: MemoryDefragOptions = {}) => {
      if (w.agentId === undefined)
        throw new MemoryError(
          'NO_MEMORY_DIR',
          `${w.memoryDir} is not an agent of a gitmem home: defrag needs an agent id (open it with agentId)`,
          { data: { memoryDir: w.memoryDir } },
        );
      const { model: spec, ...rest } = o;
      const model = spec !== undefined && typeof spec !== 'string' ? spec : await modelResolver(w.config)(spec);
      const { runDefrag } = await import('../reflection/defrag.js');
      return runDefrag({
        ...rest,
        home: w.config.home,
        agentId: w.agentId,
        model,
        env: w.config.env,
        git: w.git,
        launch: w.launch,
        credentials: () => w.config.credentials(),
        treeLimits: w.config.treeLimits,
      });
    },
  };
}
