/**
 * `sandboxExec`: the primary agent's own command run with every other agent's memory hidden (opt-in:
 * GITMEM_SHELL_SANDBOX, else the config file's `sandbox.shell`). The configuration picks the switch and the
 * agent; sandbox/agent-shell.ts builds the confinement; sandbox/run.ts runs it.
 */
import { join, relative, sep } from 'node:path';
import { loadConfig, type GitmemConfig } from '../config.js';
import { MemoryError } from '../errors.js';
import type { Launcher } from '../process/run.js';
import { confineAgentShell } from '../sandbox/agent-shell.js';
import { runConfined, type RunConfinedResult } from '../sandbox/run.js';
import { launcherFor, locateMemory } from './open.js';

/** Inputs of {@link sandboxExec}. */
export interface SandboxExecOptions {
  /** argv of the command (no shell: pass `['sh', '-c', text]` for one). */
  command: string[];
  /** The calling agent (default: the configured one, as `createMemory` picks it). */
  agentId?: string;
  /** Its memory, when already located (a handle's): then `agentId` is not looked up again. */
  memoryDir?: string;
  /** The configuration (default: loaded from `env`, `cwd` and `home`). */
  config?: GitmemConfig;
  env?: Record<string, string | undefined>;
  home?: string;
  /** Where the command runs (default: the process's directory). */
  cwd?: string;
  input?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  launch?: Launcher;
}

/** How the confined command ended, and how it was confined (`outer`: inside a gitmem sandbox already, run as is). */
export type SandboxExecResult = RunConfinedResult & { backend: 'bwrap' | 'outer' };

/** The switch: the variable when set, else the config file's `sandbox.shell` (a boolean), else off. */
function shellSwitch(config: GitmemConfig): boolean {
  if (config.sandbox.shell !== undefined) return config.sandbox.shell;
  const section = config.file()['sandbox'];
  const value =
    typeof section === 'object' && section !== null ? (section as Record<string, unknown>)['shell'] : undefined;
  if (value === undefined) return false;
  if (typeof value !== 'boolean') {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `config sandbox.shell must be true or false, got ${JSON.stringify(value)}`,
      {
        data: { key: 'sandbox.shell' },
      },
    );
  }
  return value;
}

/** The agent whose directory stays visible: the one the memory sits under in this home, if it does. */
function ownAgent(config: GitmemConfig, memoryDir: string): string | undefined {
  const rel = relative(join(config.home, 'agents'), memoryDir).split(sep);
  return rel.length === 2 && rel[1] === 'memory' && rel[0] !== '..' && rel[0] !== '' ? rel[0] : undefined;
}

/**
 * Runs `command` as the agent's own shell, confined: every agent's memory under the home is hidden but the
 * caller's own (readable and writable), the rest of the host is as usual. Errors: SANDBOX_OFF (not switched
 * on), SANDBOX_UNAVAILABLE (no backend: fail-closed), MEMORY_DIR_MISSING (no such agent), INVALID_ARGUMENT.
 * @example
 *   const r = await sandboxExec({ agentId: 'ada', command: ['ls', '-la'], env: { ...process.env, GITMEM_SHELL_SANDBOX: '1' } });
 *   console.log(r.exitCode, r.stdout);
 */
export async function sandboxExec(o: SandboxExecOptions): Promise<SandboxExecResult> {
  const config = o.config ?? loadConfig({ env: o.env ?? process.env, cwd: o.cwd ?? process.cwd(), home: o.home });
  const enabled = shellSwitch(config);
  const cwd = o.cwd ?? process.cwd();
  // The switch first: switched off, nothing is located, detected or run.
  if (!enabled)
    confineAgentShell({ gitmemHome: config.home, agentId: undefined, command: o.command, env: {}, enabled, cwd });
  const memoryDir = o.memoryDir ?? locateMemory(config, o.agentId).memoryDir;
  const confined = confineAgentShell({
    gitmemHome: config.home,
    agentId: ownAgent(config, memoryDir),
    command: o.command,
    env: { ...config.env },
    enabled,
    cwd,
  });
  const r = await runConfined(
    { ...confined, backend: confined.backend === 'outer' ? 'none' : confined.backend },
    {
      cwd,
      launch: launcherFor(o),
      input: o.input,
      timeoutMs: o.timeoutMs,
      signal: o.signal,
    },
  );
  return { ...r, backend: confined.backend === 'outer' ? 'outer' : 'bwrap' };
}
