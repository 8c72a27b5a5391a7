/**
 * Validation of a dream's inputs, in a fixed order (so the first problem reported is stable): `--to`,
 * `--from`, `--timeout`, the agent id, then the memory repository. Every failure is a MemoryError thrown
 * before anything is created.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MemoryError } from '../errors.js';
import { agentPaths } from '../memfs/layout.js';
import { resolveScope } from '../memfs/scope.js';
import { parseDreamTarget, type DreamTarget } from './dream-target.js';
import { DREAM_TIMEOUT_SECONDS, type DreamOptions } from './dream-types.js';
import { checkSelection } from './multi-selection.js';
import { parseFromSpec } from './sources/index.js';

/** Checked inputs. */
export interface ValidDream {
  agentId: string;
  agentDir: string;
  memoryDir: string;
  from: string;
  /** A multi-conversation dream's selection (absent: one conversation). */
  selection?: NonNullable<ReturnType<typeof checkSelection>>;
  target?: DreamTarget;
  timeoutSeconds: number;
}

/**
 * Parses `--timeout` like the reference: a base-10 integer prefix that must be positive.
 * @example parseTimeoutSeconds('90s') === 90
 */
function parseTimeoutSeconds(value: string | number | undefined): number {
  if (value === undefined) return DREAM_TIMEOUT_SECONDS;
  const n = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  if (!Number.isFinite(n) || n <= 0)
    throw new MemoryError('INVALID_ARGUMENT', `Invalid --timeout "${value}"`, { data: { timeout: value } });
  return n;
}

/**
 * The agent by the one default-agent rule (memfs/scope.ts: --memory/--agent → context → GITMEM_MEMORY_DIR →
 * GITMEM_AGENT_ID → the home's only agent). A dream keeps its transcripts beside the agent's memory, so a
 * memory directory must be an agent of the home (`<home>/agents/<id>/memory`).
 */
function agentFrom(o: DreamOptions): string {
  const scope = resolveScope({ home: o.home, agentId: o.agentId, configured: o.configuredAgent });
  if (scope.source !== 'env-dir') return scope.agentId as string;
  const agents = resolve(o.home, 'agents');
  const rel = resolve(scope.memoryDir)
    .slice(agents.length + 1)
    .split('/');
  const id =
    resolve(scope.memoryDir).startsWith(`${agents}/`) && rel.length === 2 && rel[1] === 'memory' ? rel[0] : undefined;
  if (id === undefined || (scope.agentId !== undefined && scope.agentId !== id)) {
    throw new MemoryError(
      'NO_MEMORY_DIR',
      `the memory directory ${scope.memoryDir} (GITMEM_MEMORY_DIR / MEMORY_DIR) is not an agent of the home ${o.home}; pass --memory <agent-id>`,
      {
        data: { memoryDir: scope.memoryDir, home: o.home },
      },
    );
  }
  return id;
}

/**
 * Checks a dream's options and resolves paths.
 * @example validateDream({ home, agentId: 'a1', env, cwd }).memoryDir
 */
export function validateDream(o: DreamOptions): ValidDream {
  const target = o.to === undefined ? undefined : parseDreamTarget(o.to, o.cwd);
  const selection = checkSelection(o);
  const from = o.from ?? 'default';
  parseFromSpec(from);
  const timeoutSeconds = parseTimeoutSeconds(o.timeoutSeconds);
  const agentId = agentFrom(o);
  const { agentDir, memoryDir } = agentPaths(o.home, agentId);
  if (!existsSync(join(memoryDir, '.git'))) {
    throw new MemoryError(
      'MEMORY_DIR_MISSING',
      `No memory repository for ${agentId} at ${memoryDir}; nothing to do (run \`gitmem init\`).`,
      { data: { memoryDir } },
    );
  }
  return {
    agentId,
    agentDir,
    memoryDir,
    from,
    timeoutSeconds,
    selection,
    target,
  };
}
