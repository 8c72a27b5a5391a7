/** `gitmem clone <url> [--agent ID]`: brings an existing agent's memory to this machine, ready to use. */
import { cloneMemory, MemoryError } from '../../index.js';
import type { CliCommand } from '../types.js';

export const command: CliCommand = {
  name: 'clone',
  usage:
    'Usage: gitmem clone <url> [--agent ID] [--partial] [--scope DIR] [--home DIR] [--json]\n  The agent id defaults to the URL name without .git. --partial: blob-less (blobs fetched on first read);\n  --scope DIR: only DIR, system/ and the root files checked out.',
  async run(ctx) {
    const url = (ctx.args[0] ?? '').trim();
    if (!url)
      throw new MemoryError('INVALID_ARGUMENT', 'clone: the <url> is empty (usage: gitmem clone <url> [--agent ID])');
    const r = await cloneMemory({
      config: ctx.config,
      url,
      baseDir: ctx.cwd,
      launch: ctx.launch,
      agentId: ctx.agent,
      ...(ctx.values['partial'] === true ? { partial: true } : {}),
      ...(typeof ctx.values['scope'] === 'string' ? { scope: ctx.values['scope'] } : {}),
    });
    const what = r.initialized
      ? 'an empty remote: initialised the agent and pushed its first commit'
      : `${r.commits} commit(s), head ${r.head?.slice(0, 7)}`;
    ctx.print(r, `Cloned ${r.url} as agent ${r.agentId} (${what})\nmemory: ${r.memoryDir}`);
  },
};
