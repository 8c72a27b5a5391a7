/**
 * `gitmem dream` as a library call: validate, stage an external transcript, sync a `--to`
 * document in, run one reflection raced against a timeout (so an unattended run always returns), and
 * write the document back from the committed result.
 */
import type { LanguageModel } from 'ai';
import { MemoryError, toMemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { syncTargetIn, syncTargetOut, targetInstruction, type DreamTarget } from './dream-target.js';
import { MULTI_INSTRUCTION, stageMulti } from './dream-multi.js';
import { type DreamError, type DreamOptions, type DreamResult } from './dream-types.js';
import { validateDream, type ValidDream } from './dream-validate.js';
import { runReflection } from './run.js';
import { outcomeErrorCode } from './messages.js';
import type { ReflectionCompleted, ReflectionResult } from './run-types.js';
import { resolveReflectionSettings } from './settings.js';
import { stageSource, parseFromSpec } from './sources/index.js';
import { hasTranscript, transcriptPath } from './transcripts.js';

async function modelFor(o: DreamOptions): Promise<LanguageModel> {
  if (o.model !== undefined && typeof o.model !== 'string') return o.model;
  if (!o.resolveModel)
    throw new MemoryError(
      'MODEL_NOT_CONFIGURED',
      'no model given and no way to resolve one (open the memory through createMemory)',
    );
  return o.resolveModel(o.model);
}

type Staged = { conversationId: string; staged?: number; skipped?: number } | { result: DreamResult };

function stage(o: DreamOptions, v: ValidDream): Staged {
  const base = { launched: false, success: false, agentId: v.agentId };
  const spec = parseFromSpec(v.from);
  if (spec.type === 'conversation') {
    if (o.from === undefined && !hasTranscript(v.agentDir, spec.conversationId)) {
      return {
        result: {
          ...base,
          reason: 'no_payload',
          conversationId: spec.conversationId,
          message: 'No new transcript content to process.',
        },
      };
    }
  }
  try {
    const r = stageSource(v.from, { agentDir: v.agentDir, cwd: o.cwd });
    if (!r.stored) o.onProgress?.(`Staged ${r.staged} transcript entries (${r.skipped} already ingested).`);
    return { conversationId: r.conversationId, ...(r.stored ? {} : { staged: r.staged, skipped: r.skipped }) };
  } catch (err) {
    const e = toMemoryError(err);
    const message = `Failed to stage --from source: ${e.message}`;
    return { result: { ...base, reason: 'source_error', error: { code: e.code, message }, message } };
  }
}

async function syncIn(o: DreamOptions, v: ValidDream, git: GitRunner, t: DreamTarget): Promise<string> {
  try {
    if (!o.openMemory) throw new MemoryError('INVALID_ARGUMENT', 'no memory opener was wired');
    const memory = await o.openMemory(v.agentId);
    const how = await syncTargetIn(memory, git, v.memoryDir, t);
    if (how === 'synced') o.onProgress?.(`Synced ${t.name} into memory at ${t.memoryPath}.`);
  } catch (err) {
    o.onProgress?.(
      `Note: could not sync ${t.name} into memory (${toMemoryError(err).message}); the reflection may create it.`,
    );
  }
  return targetInstruction(t);
}

function sleep(ms: number): { promise: Promise<'timeout'>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)));
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Runs the reflection raced against the timeout; on timeout it is aborted and given a moment to clean up. */
async function raceReflection(
  run: (signal: AbortSignal) => Promise<ReflectionResult>,
  seconds: number,
): Promise<ReflectionResult | 'timeout'> {
  const controller = new AbortController();
  const pending = run(controller.signal).then(
    (r) => ({ r }),
    (e: unknown) => ({ e }),
  );
  const timer = sleep(seconds * 1000);
  const first = await Promise.race([pending, timer.promise]);
  timer.cancel();
  if (first === 'timeout') {
    controller.abort();
    const grace = sleep(5_000);
    await Promise.race([pending, grace.promise]);
    grace.cancel();
    return 'timeout';
  }
  if ('e' in first) throw first.e;
  return first.r;
}

/** The error of a finished reflection that did not succeed (outcomes such as `pending_review` are not errors). */
function errorOf(r: ReflectionCompleted, ok: boolean): DreamError | undefined {
  if (ok || r.status === 'pending_review') return undefined;
  return { code: r.errorCode ?? outcomeErrorCode(r.status) ?? 'REFLECTION_FAILED', message: r.error ?? r.message };
}

function toDreamResult(v: ValidDream, r: ReflectionResult, extra: Partial<DreamResult>): DreamResult {
  if (!r.launched) {
    const message = r.reason === 'no_payload' ? 'No new transcript content to process.' : r.message;
    const error = r.reason === 'parent_dirty' ? { error: { code: 'REPO_DIRTY' as const, message } } : {};
    return {
      launched: false,
      success: false,
      agentId: v.agentId,
      conversationId: r.conversationId,
      reason: r.reason,
      message,
      ...error,
      ...extra,
    };
  }
  const ok = r.success || (r.status === 'dry_run' && r.error === undefined);
  const error = errorOf(r, ok);
  return {
    launched: true,
    success: ok,
    message: r.message,
    agentId: v.agentId,
    conversationId: r.conversationId,
    status: r.status,
    ...(error ? { error } : {}),
    ...(r.stoppedBy === 'timeout' ? { timedOut: true as const } : {}),
    ...extra,
    ...(r.refreshError ? { refreshError: r.refreshError } : {}),
    commitCount: r.commitCount,
    branchName: r.branchName,
    ...(r.branchKept ? { branchKept: true } : {}),
    ...(r.conflictingPaths ? { conflictingPaths: r.conflictingPaths } : {}),
    ...(extra.manifestPath ? {} : { lines: r.lines }), // a multi run's lines are per slice
    usage: r.usage,
    steps: r.steps,
    durationMs: r.durationMs,
    model: r.model,
    ...(r.diff !== undefined ? { diff: r.diff } : {}),
    ...(r.snapshot ? { snapshot: r.snapshot } : {}),
  };
}

/** What the result tells besides the run: the transcript (or the manifest), what was staged, the target. */
function extraOf(
  v: ValidDream,
  staged: Exclude<Staged | Awaited<ReturnType<typeof stageMulti>>, { result: DreamResult }>,
) {
  const extra: Partial<DreamResult> =
    'multi' in staged
      ? { ...staged.extra }
      : {
          transcriptPath: transcriptPath(v.agentDir, staged.conversationId),
          ...(staged.staged !== undefined ? { stagedEntries: staged.staged, skippedEntries: staged.skipped ?? 0 } : {}),
        };
  if (v.target) extra.targetPath = v.target.path;
  return extra;
}

/**
 * Runs one dream and returns its result (user errors throw MemoryError before anything happens).
 * @example const r = await runDream({ home, agentId: 'a1', env: process.env, cwd: process.cwd(), from: 'transcript:./t.jsonl' });
 *   process.exitCode = dreamExitCode(r);
 */
export async function runDream(o: DreamOptions): Promise<DreamResult> {
  const v = validateDream(o);
  const model = await modelFor(o);
  const git = o.git;
  const staged = v.selection ? await stageMulti(o, v, v.selection, model) : stage(o, v);
  if ('result' in staged) return staged.result;
  const { conversationId } = staged;
  const multi = 'multi' in staged ? staged.multi : undefined;
  const extra = extraOf(v, staged);
  const targetText = v.target ? await syncIn(o, v, git, v.target) : undefined;
  const instruction = [multi ? MULTI_INSTRUCTION : undefined, o.instruction?.trim(), targetText]
    .filter((s): s is string => !!s)
    .join('\n\n');
  // The project's settings (`.gitmem/config.json` under the caller's directory) apply as for the harness.
  const settings = resolveReflectionSettings({ home: o.home, agentDir: v.agentDir, projectDir: o.cwd });
  const run = (signal: AbortSignal) =>
    runReflection({
      home: o.home,
      agentId: v.agentId,
      conversationId,
      model,
      env: o.env,
      git,
      launch: o.launch,
      trigger: 'manual',
      signal,
      merge: o.merge ?? settings.merge,
      mergeInstructions: settings.mergeInstructions,
      stream: o.stream ?? true,
      limits: { timeoutMs: v.timeoutSeconds * 1000, ...o.limits },
      instruction,
      multi,
      dryRun: o.dryRun,
      ...(o.prompt ? { taskPrompt: o.prompt } : {}),
      ...(o.system ? { systemPrompt: o.system } : {}),
      maxRetries: o.maxRetries,
      onWarning: o.onWarning,
      credentials: o.credentials,
      treeLimits: o.treeLimits,
      // the final message is the result's, printed once by the caller
      onProgress: (p) => {
        if (p.phase !== 'done') o.onProgress?.(p.message);
      },
    });
  const r = await raceReflection(run, v.timeoutSeconds);
  if (r === 'timeout') {
    const message = `Reflection pass did not complete within ${v.timeoutSeconds}s.`;
    return {
      launched: true,
      success: false,
      timedOut: true,
      error: { code: 'TIMEOUT', message },
      message,
      agentId: v.agentId,
      conversationId,
      ...extra,
    };
  }
  const result = toDreamResult(v, r, extra);
  if (v.target && r.launched && r.success && !o.dryRun) await writeBack(git, v, v.target, result);
  return result;
}

async function writeBack(git: GitRunner, v: ValidDream, t: DreamTarget, result: DreamResult): Promise<void> {
  try {
    result.targetWritten = (await syncTargetOut(git, v.memoryDir, t)).written;
  } catch (err) {
    const e = toMemoryError(err);
    result.targetWritten = false;
    result.targetError = e.message;
    result.success = false;
    result.error = { code: e.code, message: `Failed to write --to target: ${e.message}` };
  }
}
