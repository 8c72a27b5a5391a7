/**
 * Validation of a dream's inputs, in SPEC §11.2 order: `--to`, `--from`, `--timeout`, the agent id, then
 * the memory repository. Every failure is a MemoryError thrown before anything is created.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import { agentPaths } from '../memfs/layout.js';
import { parseDreamTarget, type DreamTarget } from './dream-target.js';
import { DREAM_TIMEOUT_SECONDS, type DreamOptions } from './dream-types.js';
import { parseFromSpec } from './sources/index.js';

/** Checked inputs. */
export interface ValidDream {
  agentId: string;
  agentDir: string;
  memoryDir: string;
  from: string;
  target?: DreamTarget;
  timeoutSeconds: number;
}

/**
 * Parses `--timeout` like the reference: a base-10 integer prefix that must be positive.
 * @example parseTimeoutSeconds('90s') === 90
 */
export function parseTimeoutSeconds(value: string | number | undefined): number {
  if (value === undefined) return DREAM_TIMEOUT_SECONDS;
  const n = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  if (!Number.isFinite(n) || n <= 0) throw new MemoryError('INVALID_ARGUMENT', `Invalid --timeout "${value}"`, { data: { timeout: value } });
  return n;
}

function agentFrom(o: DreamOptions): string {
  const id = [o.agentId, o.env['GITMEM_AGENT_ID'], o.env['AGENT_ID']].map((v) => v?.trim()).find((v) => v !== undefined && v !== '');
  if (id === undefined) {
    throw new MemoryError('NO_MEMORY_DIR', 'Missing agent id. Pass --memory <agent-id> (or --agent), or set GITMEM_AGENT_ID.');
  }
  return id;
}

/**
 * Checks a dream's options and resolves paths.
 * @example validateDream({ home, agentId: 'a1', env, cwd }).memoryDir
 */
export function validateDream(o: DreamOptions): ValidDream {
  const target = o.to === undefined ? undefined : parseDreamTarget(o.to, o.cwd);
  const from = o.from ?? 'default';
  parseFromSpec(from);
  const timeoutSeconds = parseTimeoutSeconds(o.timeoutSeconds);
  const agentId = agentFrom(o);
  const { agentDir, memoryDir } = agentPaths(o.home, agentId);
  if (!existsSync(join(memoryDir, '.git'))) {
    throw new MemoryError('MEMORY_DIR_MISSING', `No memory repository for ${agentId} at ${memoryDir}; nothing to do (run \`gitmem init\`).`, { data: { memoryDir } });
  }
  return { agentId, agentDir, memoryDir, from, timeoutSeconds, ...(target ? { target } : {}) };
}
