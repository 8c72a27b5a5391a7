/**
 * The sub-agent of a background writer that edits a private worktree (a reflection, a defragmentation): its
 * sandboxed shell, the model call with the writer's limits, and a model failure turned into an outcome (with
 * whatever the run had done) rather than a throw. What the writer does before and after is its own.
 */
import type { LanguageModel } from 'ai';
import { toMemoryError, type MemoryErrorCode } from '../errors.js';
import { reflectionIdentity } from '../identity.js';
import { runSubAgent, type SubAgentLimits, type SubAgentRun } from '../llm/sub-agent.js';
import type { Launcher } from '../process/run.js';
import type { MemoryWorktree } from '../worktree/create.js';
import { createReflectionShell } from './shell.js';

/** Limits of a writer's sub-agent unless the caller overrides them. */
export const DEFAULT_REFLECTION_LIMITS: Readonly<SubAgentLimits> = Object.freeze({
  maxSteps: 40,
  timeoutMs: 20 * 60_000,
});

/** What both writers pass through from their options. */
export interface WriterAgentOptions {
  home: string;
  agentId: string;
  model: LanguageModel;
  env: Record<string, string | undefined>;
  launch: Launcher;
  limits?: Partial<SubAgentLimits>;
  stream?: boolean;
  maxRetries?: number;
  signal?: AbortSignal;
  onWarning?: (message: string) => void;
}

/** Where it works and what it is told; `transcriptPath` is mounted read-only for a reflection. */
export interface WriterAgentTask {
  wt: MemoryWorktree;
  system: string;
  prompt: string;
  transcriptPath?: string;
  /** Told of each step, as `step N: tool, tool`. */
  onStep: (message: string) => void;
}

/** The run (partial when it failed), or the failure as a code and one line. */
export interface WriterAgentEnd {
  run?: SubAgentRun;
  error?: { code: MemoryErrorCode; message: string };
}

/**
 * Runs the sub-agent in `task.wt` with the confined file tools and the sandboxed shell.
 * @example const end = await runWriterAgent(o, { wt, system, prompt, onStep: (m) => log(m) })
 */
export async function runWriterAgent(o: WriterAgentOptions, task: WriterAgentTask): Promise<WriterAgentEnd> {
  const shell = createReflectionShell({
    gitmemHome: o.home,
    agentId: o.agentId,
    memoryDir: task.wt.parentMemoryDir,
    worktreeDir: task.wt.worktreeDir,
    branchName: task.wt.branchName,
    transcriptPath: task.transcriptPath,
    env: o.env,
    launch: o.launch,
    identity: reflectionIdentity(o.agentId),
    onWarning: o.onWarning,
  });
  try {
    const run = await runSubAgent({
      model: o.model,
      system: task.system,
      prompt: task.prompt,
      root: task.wt.worktreeDir,
      shell,
      limits: { ...DEFAULT_REFLECTION_LIMITS, ...o.limits },
      signal: o.signal,
      stream: o.stream,
      maxRetries: o.maxRetries,
      onStep: (s) => task.onStep(`step ${s.step}${s.toolCalls.length ? `: ${s.toolCalls.join(', ')}` : ''}`),
    });
    return { run };
  } catch (err) {
    const partial = (err as { data?: { partial?: SubAgentRun } }).data?.partial;
    const e = toMemoryError(err, 'MODEL_ERROR');
    return { run: partial, error: { code: e.code, message: e.message } };
  }
}
