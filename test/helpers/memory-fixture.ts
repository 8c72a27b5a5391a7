/**
 * A fresh gitmem home with one initialised agent, for integration tests (real git on /dev/shm).
 */
import { join } from 'node:path';
import { createMemory, initMemory, type Memory } from '../../src/memory.js';
import { hermeticGitEnv, makeTmpDir } from './tmp.js';

export interface MemoryFixture {
  home: string;
  env: Record<string, string>;
  memory: Memory;
  dir: string;
}

/** Initialises agent `agentId` in a new temp home and opens it. */
export async function memoryFixture(agentId = 'agent-1'): Promise<MemoryFixture> {
  const home = makeTmpDir('gitmem-home-');
  const env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
  await initMemory({ home, agentId, env });
  const memory = await createMemory({ home, agentId, env });
  return { home, env, memory, dir: join(home, 'agents', agentId, 'memory') };
}

/** A memory tool call that creates `path` with its own path as description and text. */
export const createNote = (path: string) => ({
  command: 'create' as const,
  reason: `write ${path}`,
  file_path: path,
  description: path,
  file_text: `${path}\n`,
});
