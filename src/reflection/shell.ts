/**
 * The reflection sub-agent's shell: every command runs confined by the filesystem sandbox (fail-closed) in
 * the private worktree, with `MEMORY_DIR` and `TRANSCRIPT_PATH` set, a fixed commit identity and its git
 * objects going to the worktree's private object directory, under the same policy as any background memory
 * writer (own memory read-only; only its worktree and private git dir writable; work imported at finalize).
 */
import { identityEnv, type Identity } from '../identity.js';
import type { ShellRunner } from '../llm/tool-set.js';
import { withReadPaths, type SandboxPolicy } from '../sandbox/policy.js';
import { confineCommand } from '../sandbox/launch.js';
import { runConfined } from '../sandbox/run.js';
import type { Launcher } from '../process/run.js';
import { commandBodyPolicy } from '../worktree/command-body.js';
import { bodyGitEnv, worktreeGitDirs } from '../worktree/git-env.js';

/** Inputs of {@link createReflectionShell}. */
export interface ReflectionShellOptions {
  gitmemHome: string;
  agentId: string;
  memoryDir: string;
  worktreeDir: string;
  /** The branch its work is imported to (`gitmem/reflection/<id>`); informational: no ref is writable. */
  branchName?: string;
  /** The payload file it may read (a defragmentation has none). */
  transcriptPath?: string;
  /** The caller's environment (allow-listed into the sandbox; GITMEM_FS_SANDBOX read here). */
  env: Record<string, string | undefined>;
  identity: Identity;
  /** Starts each confined command (the handle's launcher, wired by the composition root). */
  launch: Launcher;
  onWarning?: (message: string) => void;
}

function confinedEnv(o: ReflectionShellOptions): Record<string, string> {
  return {
    // A user's global commit signing would need keys the sandbox hides; memory commits are never signed.
    ...bodyGitEnv(worktreeGitDirs({ parentMemoryDir: o.memoryDir, worktreeDir: o.worktreeDir }), [
      ['commit.gpgsign', 'false'],
    ]),
    MEMORY_DIR: o.worktreeDir,
    GITMEM_MEMORY_DIR: o.worktreeDir,
    ...(o.transcriptPath !== undefined ? { TRANSCRIPT_PATH: o.transcriptPath } : {}),
    ...identityEnv(o.identity),
  };
}

type WarningSink = (message: string) => void;
const delivered = new WeakMap<WarningSink, Set<string>>();

/**
 * The sink, but each distinct message reaches it once: a reflection run preflights the sandbox before
 * creating its worktree (assertReflectionSandbox) and again when its shell is made, and the
 * GITMEM_FS_SANDBOX=0 warning must still be printed once. Keyed by the caller's sink, so a process that
 * runs several reflections with the same sink (a dream over many conversations) warns once in all.
 */
function warnOnce(sink: WarningSink | undefined): WarningSink {
  if (sink === undefined) return () => undefined;
  return (message) => {
    const seen = delivered.get(sink) ?? new Set<string>();
    delivered.set(sink, seen);
    if (seen.has(message)) return;
    seen.add(message);
    sink(message);
  };
}

/**
 * The background-writer policy for this worktree: the common git dir and the other worktrees read-only, only
 * this worktree and its private git dir writable (see commandBodyPolicy).
 * @example reflectionPolicy({ gitmemHome, agentId: 'a1', memoryDir, worktreeDir })
 */
function reflectionPolicy(o: {
  gitmemHome: string;
  agentId: string;
  memoryDir: string;
  worktreeDir: string;
  branchName?: string;
}): SandboxPolicy {
  return commandBodyPolicy({ ...o, type: 'update' });
}

/**
 * Checks that confinement is possible, then returns the runner. Throws SANDBOX_UNAVAILABLE /
 * SANDBOX_NESTED up front (call it before creating anything you would have to clean up).
 * @example const shell = createReflectionShell({ gitmemHome, agentId, memoryDir, worktreeDir, transcriptPath, env, identity, launch })
 */
export function createReflectionShell(o: ReflectionShellOptions): ShellRunner {
  // The transcript payload lies beside the worktree: the one file outside it the shell may read.
  const base = reflectionPolicy(o);
  const policy = o.transcriptPath === undefined ? base : withReadPaths(base, [o.transcriptPath]);
  const extraEnv = confinedEnv(o);
  const onWarning = warnOnce(o.onWarning);
  const confine = (command: string, cwd: string) =>
    confineCommand({ command: ['/bin/sh', '-c', command], policy, env: o.env, cwd, extraEnv, onWarning });
  confine('true', o.worktreeDir); // fail-closed preflight
  return async (command, opts) => {
    const r = await runConfined(confine(command, opts.cwd), {
      cwd: opts.cwd,
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
      launch: o.launch,
    });
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr + (r.timedOut ? '\n[command timed out]' : '') };
  };
}

/**
 * The same preflight without a worktree (the worktree dir only has to lie in the worktrees directory).
 * @example assertReflectionSandbox({ gitmemHome, agentId, memoryDir, env })
 */
export function assertReflectionSandbox(
  o: Pick<ReflectionShellOptions, 'gitmemHome' | 'agentId' | 'memoryDir' | 'env' | 'onWarning'>,
): void {
  const policy = commandBodyPolicy({
    gitmemHome: o.gitmemHome,
    agentId: o.agentId,
    memoryDir: o.memoryDir,
    type: 'update',
  });
  confineCommand({ command: ['true'], policy, env: o.env, onWarning: warnOnce(o.onWarning) });
}
