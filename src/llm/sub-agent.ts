/**
 * The sub-agent runtime: a model-driven tool loop over a root directory (a reflection worktree) with step,
 * token and wall-clock limits. The wall-clock limit is a race, so a run always returns even when a provider
 * ignores the abort signal.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type * as Ai from 'ai';
import type { LanguageModel, StepResult, ToolSet } from 'ai';
import { MemoryError } from '../errors.js';
import { DEFAULT_MODEL_RETRY, retryingModel, type ModelRetryPolicy } from './retry.js';
import { buildToolSet, type ShellRunner } from './tool-set.js';

/** Limits of one run. Token limits are budgets for the whole run (summed over steps). */
export interface SubAgentLimits {
  maxSteps: number;
  maxOutputTokens?: number;
  maxTotalTokens?: number;
  timeoutMs: number;
}

/** Outcome of one run. `stoppedBy` is set when a limit or the caller ended the loop early. */
export interface SubAgentRun {
  text: string;
  steps: number;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
  durationMs: number;
  finishReason: string;
  stoppedBy?: 'steps' | 'tokens' | 'timeout' | 'abort';
}

/** Reported after every model step. */
export interface SubAgentStepInfo {
  step: number;
  finishReason: string;
  toolCalls: string[];
  text: string;
  usage: { inputTokens: number; outputTokens: number };
}

/** Options of {@link runSubAgent}. */
export interface SubAgentOptions {
  model: LanguageModel;
  system: string;
  prompt: string;
  /** Directory the file tools are confined to. */
  root: string;
  /** Sandboxed shell runner; without it the agent has no shell tool. */
  shell?: ShellRunner;
  limits: SubAgentLimits;
  signal?: AbortSignal;
  /** Milliseconds clock for durations (default Date.now). */
  clock?: () => number;
  onStep?: (info: SubAgentStepInfo) => void;
  /** Use the streaming API (default false: one request per step). */
  stream?: boolean;
  /** Provider retries per step (default 2; only failures that can pass, after short waits: see retry.ts). */
  maxRetries?: number;
  /** The rest of the retry policy (waits, test seams). */
  retry?: Partial<Omit<ModelRetryPolicy, 'maxRetries'>>;
  /** Receives the SDK's warnings (unsupported settings…), one line each; default: standard error. */
  onWarning?: (message: string) => void;
}

type WarningLogger = (o: { warnings: unknown[]; provider: string; model: string }) => void;
const warningSink = new AsyncLocalStorage<(message: string) => void>();

/**
 * The AI SDK logs warnings with console.info/console.warn — standard output included, which would corrupt
 * a CLI's output. Unless the host set its own logger, route them to the running call's onWarning.
 */
function routeSdkWarnings(): void {
  const g = globalThis as { AI_SDK_LOG_WARNINGS?: WarningLogger | false };
  if (g.AI_SDK_LOG_WARNINGS !== undefined) return;
  g.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) => {
    const sink = warningSink.getStore() ?? ((m: string) => void process.stderr.write(`${m}\n`));
    for (const w of warnings) sink(`model warning (${provider} / ${model}): ${JSON.stringify(w)}`);
  };
}

interface Tally {
  steps: number;
  inputTokens: number;
  outputTokens: number;
  text: string;
  finishReason: string;
  stoppedBy?: SubAgentRun['stoppedBy'];
}

function overBudget(t: Tally, l: SubAgentLimits): boolean {
  const total = t.inputTokens + t.outputTokens;
  return (
    (l.maxOutputTokens !== undefined && t.outputTokens >= l.maxOutputTokens) ||
    (l.maxTotalTokens !== undefined && total >= l.maxTotalTokens)
  );
}

function recordStep(t: Tally, step: StepResult<ToolSet>, onStep: SubAgentOptions['onStep']): void {
  t.steps += 1;
  const input = step.usage.inputTokens ?? 0;
  const output = step.usage.outputTokens ?? 0;
  t.inputTokens += input;
  t.outputTokens += output;
  t.text = step.text;
  t.finishReason = step.finishReason;
  onStep?.({
    step: t.steps,
    finishReason: step.finishReason,
    toolCalls: step.toolCalls.map((c) => c.toolName),
    text: step.text,
    usage: { inputTokens: input, outputTokens: output },
  });
}

async function callModel(o: SubAgentOptions, tools: ToolSet, t: Tally, signal: AbortSignal): Promise<void> {
  const sdk = await import('ai');
  routeSdkWarnings();
  const sink = o.onWarning ?? ((m: string) => void process.stderr.write(`${m}\n`));
  return warningSink.run(sink, () => callWith(sdk, o, tools, t, signal));
}

async function callWith(
  sdk: Pick<typeof Ai, 'generateText' | 'streamText' | 'stepCountIs'>,
  o: SubAgentOptions,
  tools: ToolSet,
  t: Tally,
  signal: AbortSignal,
): Promise<void> {
  const { generateText, streamText, stepCountIs } = sdk;
  const policy: ModelRetryPolicy = {
    ...DEFAULT_MODEL_RETRY,
    ...o.retry,
    maxRetries: o.maxRetries ?? DEFAULT_MODEL_RETRY.maxRetries,
  };
  const common = {
    model: await retryingModel(o.model, policy),
    system: o.system,
    prompt: o.prompt,
    tools,
    abortSignal: signal,
    maxRetries: 0, // retried per call by retryingModel
    stopWhen: [stepCountIs(o.limits.maxSteps), () => overBudget(t, o.limits)],
    onStepFinish: (step: StepResult<ToolSet>) => recordStep(t, step, o.onStep),
  };
  if (!o.stream) {
    await generateText(common);
    return;
  }
  let failure: unknown;
  const result = streamText({ ...common, onError: ({ error }) => void (failure ??= error) });
  await result.consumeStream({ onError: (error) => void (failure ??= error) });
  if (failure !== undefined) throw failure;
  await result.finishReason;
}

function finish(t: Tally, o: SubAgentOptions, started: number, clock: () => number): SubAgentRun {
  let stoppedBy = t.stoppedBy;
  if (stoppedBy === undefined && t.finishReason === 'tool-calls') {
    if (overBudget(t, o.limits)) stoppedBy = 'tokens';
    else if (t.steps >= o.limits.maxSteps) stoppedBy = 'steps';
  }
  return {
    text: t.text,
    steps: t.steps,
    usage: { inputTokens: t.inputTokens, outputTokens: t.outputTokens, totalTokens: t.inputTokens + t.outputTokens },
    durationMs: Math.max(0, clock() - started),
    finishReason: stoppedBy === 'timeout' || stoppedBy === 'abort' ? 'aborted' : t.finishReason,
    ...(stoppedBy ? { stoppedBy } : {}),
  };
}

/** Resolves when `signal` fires (never rejects). */
function whenAborted(signal: AbortSignal): Promise<void> {
  return new Promise((res) => (signal.aborted ? res() : signal.addEventListener('abort', () => res(), { once: true })));
}

/**
 * Runs the tool loop until the model stops calling tools or a limit is hit. Limits and caller aborts end
 * the run with `stoppedBy` set (never a throw); a provider failure throws MODEL_ERROR whose data carries
 * the usage so far.
 * @example
 *   const run = await runSubAgent({ model, system, prompt, root: worktreeDir,
 *     limits: { maxSteps: 40, timeoutMs: 600_000 } });
 *   console.log(run.usage.totalTokens, run.stoppedBy);
 */
export async function runSubAgent(o: SubAgentOptions): Promise<SubAgentRun> {
  const clock = o.clock ?? Date.now;
  const started = clock();
  const t: Tally = { steps: 0, inputTokens: 0, outputTokens: 0, text: '', finishReason: 'unknown' };
  const controller = new AbortController();
  const stop = (why: 'timeout' | 'abort') => {
    t.stoppedBy ??= why;
    controller.abort(new MemoryError(why === 'timeout' ? 'TIMEOUT' : 'ABORTED', `sub-agent stopped by ${why}`));
  };
  const onOuterAbort = () => stop('abort');
  if (o.signal?.aborted) stop('abort');
  o.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const timer = setTimeout(() => stop('timeout'), Math.max(0, o.limits.timeoutMs));
  try {
    const tools = await buildToolSet({
      root: o.root,
      shell: o.shell,
      signal: controller.signal,
    });
    const call = controller.signal.aborted ? Promise.resolve() : callModel(o, tools, t, controller.signal);
    call.catch(() => undefined); // a late rejection after the race must not go unhandled
    await Promise.race([call, whenAborted(controller.signal)]);
  } catch (err) {
    if (t.stoppedBy === undefined) {
      const message = err instanceof Error ? err.message : String(err);
      const status = (err as { statusCode?: unknown }).statusCode;
      const http = typeof status === 'number' && !message.includes(String(status)) ? ` (HTTP ${status})` : '';
      throw new MemoryError('MODEL_ERROR', `sub-agent model call failed: ${message.split('\n')[0] ?? ''}${http}`, {
        cause: err,
        data: { partial: finish(t, o, started, clock) },
      });
    }
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onOuterAbort);
  }
  return finish(t, o, started, clock);
}
