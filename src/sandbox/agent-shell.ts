/**
 * The primary agent's own shell, confined (opt-in, SPEC §9.6): a command sees the whole host as usual and
 * may write anywhere this user can, but every agent's memory under the gitmem home is hidden except the
 * calling agent's own directory. Unlike a background writer's sandbox (writer-policy.ts buildMemoryWriterPolicy,
 * an allow-list), this one is a deny-list: it guards the other agents' memory, not the host.
 */
import { isAbsolute, join } from 'node:path';
import { MemoryError } from '../errors.js';
import { renderBwrapArgv } from './bwrap.js';
import { detectSandboxBackend, type SandboxBackend } from './detect.js';
import { SANDBOX_SENTINEL } from './env.js';
import { isWithin, normalizePolicy, type SandboxPolicy } from './policy.js';
import { canonicalPath, preparePolicy } from './prepare.js';
import type { ConfinedCommand } from './launch.js';

/** Inputs of {@link buildAgentShellPolicy}; paths absolute. */
export interface AgentShellPolicyOptions {
  gitmemHome: string;
  /** The calling agent, whose directory stays visible; none when its memory lives outside the home. */
  agentId: string | undefined;
}

/** Inputs of {@link confineAgentShell}. */
export interface AgentShellOptions extends AgentShellPolicyOptions {
  command: string[];
  /** The caller's environment: passed whole (it is the agent's own shell), plus the sandbox marker. */
  env: Record<string, string | undefined>;
  /** GITMEM_SHELL_SANDBOX (or the setting): false ⇒ SANDBOX_OFF, never an unconfined run. */
  enabled: boolean;
  /** Where the command runs; refused inside another agent's directory. */
  cwd: string;
  platform?: NodeJS.Platform;
  /** Skip detection (tests, or a caller that already detected). */
  backend?: SandboxBackend;
}

/** What {@link confineAgentShell} decided: a wrapped command, or the command as is inside an outer sandbox. */
export type AgentShellCommand = Omit<ConfinedCommand, 'backend'> & { backend: 'bwrap' | 'outer' };

const SAFE_ID = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,128}$/;

/**
 * Hides `<home>/agents` and carves the agent's own directory back, writable; `/` stays writable (bind
 * mounted whole, so the host is as it was), the network stays on.
 * @example buildAgentShellPolicy({ gitmemHome: '/h', agentId: 'a1' }).reopenedRoots // [{ path: '/h/agents/a1', writable: true }]
 */
export function buildAgentShellPolicy(o: AgentShellPolicyOptions): SandboxPolicy {
  if (o.agentId !== undefined && (typeof o.agentId !== 'string' || !SAFE_ID.test(o.agentId))) {
    throw new MemoryError('INVALID_AGENT_ID', `invalid agent id ${JSON.stringify(o.agentId)} for the shell sandbox`, {
      data: { agentId: o.agentId },
    });
  }
  if (typeof o.gitmemHome !== 'string' || !isAbsolute(o.gitmemHome)) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `the gitmem home must be an absolute path, got ${JSON.stringify(o.gitmemHome)}`,
    );
  }
  const agentsRoot = join(o.gitmemHome, 'agents');
  return normalizePolicy({
    readonlyRoots: [],
    writableRoots: ['/'],
    deniedRoots: [agentsRoot],
    reopenedRoots: o.agentId === undefined ? [] : [{ path: join(agentsRoot, o.agentId), writable: true }],
    allowNetwork: true,
  });
}

function offError(): MemoryError {
  return new MemoryError(
    'SANDBOX_OFF',
    'the agent shell sandbox is switched off: set GITMEM_SHELL_SANDBOX=1 to run commands confined',
    { data: { hint: 'GITMEM_SHELL_SANDBOX=1' } },
  );
}

function unavailable(reason: string): MemoryError {
  return new MemoryError('SANDBOX_UNAVAILABLE', `no kernel sandbox for the agent shell, refusing to run: ${reason}`, {
    data: { reason, hint: 'install bubblewrap (Linux)' },
  });
}

function checkCommand(command: unknown): asserts command is string[] {
  if (
    !Array.isArray(command) ||
    command.length === 0 ||
    command.some((a) => typeof a !== 'string' || a.includes('\0'))
  ) {
    throw new MemoryError('INVALID_ARGUMENT', 'the command to run must be a non-empty list of strings without NUL', {
      data: {},
    });
  }
}

/** The cwd as the kernel sees it; refused inside the hidden tree unless it is the agent's own directory. */
function checkCwd(cwd: string, policy: SandboxPolicy): string {
  const real = canonicalPath(cwd);
  const [agentsRoot] = policy.deniedRoots;
  const own = policy.reopenedRoots[0]?.path;
  if (!isAbsolute(real)) throw new MemoryError('INVALID_ARGUMENT', `working directory ${cwd} is not absolute`);
  if (agentsRoot !== undefined && isWithin(agentsRoot, real) && !(own !== undefined && isWithin(own, real))) {
    throw new MemoryError('INVALID_ARGUMENT', `working directory ${cwd} lies in memory the agent shell hides`, {
      data: { cwd },
    });
  }
  return real;
}

/**
 * The agent's command, confined. Switched off ⇒ SANDBOX_OFF; inside a gitmem sandbox already ⇒ the command
 * as is (`backend: 'outer'`: the outer sandbox confines it more, as the reference does); no backend ⇒
 * SANDBOX_UNAVAILABLE (fail-closed); a cwd in another agent's memory ⇒ INVALID_ARGUMENT.
 * @example confineAgentShell({ gitmemHome: '/h', agentId: 'a1', command: ['ls'], env: process.env, enabled: true, cwd: '/w' }).argv[0] // '/usr/bin/bwrap'
 */
export function confineAgentShell(o: AgentShellOptions): AgentShellCommand {
  if (!o.enabled) throw offError();
  checkCommand(o.command);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.env)) if (v !== undefined) env[k] = v;
  const outer = o.env[SANDBOX_SENTINEL];
  if (outer !== undefined && outer !== '') return { argv: [...o.command], env, backend: 'outer' };
  const policy = buildAgentShellPolicy(o);
  const backend = o.backend ?? detectSandboxBackend({ env: o.env, platform: o.platform });
  if (backend.name === 'none') throw unavailable(backend.reason);
  if (backend.name !== 'bwrap') throw unavailable(`the ${backend.name} backend does not confine the agent shell yet`);
  // Kernel rules match real paths: a home reached through a link is hidden at its real place.
  const prepared = preparePolicy(policy);
  const cwd = checkCwd(o.cwd, prepared.policy);
  const argv = renderBwrapArgv(prepared.policy, o.command, {
    bwrapPath: backend.path,
    absentReadonly: prepared.absentReadonly,
    deniedFiles: prepared.deniedFiles,
    cwd,
    hostDev: true,
  });
  return { argv, env: { ...env, [SANDBOX_SENTINEL]: 'bwrap' }, backend: 'bwrap' };
}
