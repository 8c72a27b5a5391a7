/**
 * Retries of one model call, decided here rather than by the AI SDK (whose waits of 2 s then 4 s made a
 * failing provider cost ~6 s before anyone heard of it): only failures that can pass (HTTP 408/409/429/5xx,
 * a reset or timed-out connection) are retried, after short bounded waits; a refused connection or an
 * unknown host (nothing to wait for) and every other error fail at once.
 */
import type { LanguageModel } from 'ai';

/** How one model call is retried. */
export interface ModelRetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Wait before retry n (the last entry repeats). */
  delaysMs: readonly number[];
  /** Longest wait, also for a server's `retry-after`. */
  maxDelayMs: number;
  /** Test seam. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export const DEFAULT_MODEL_RETRY: Readonly<ModelRetryPolicy> = Object.freeze({
  maxRetries: 2,
  delaysMs: [500, 1_500],
  maxDelayMs: 5_000,
  sleep: abortableSleep,
});

/** Network error codes that waiting does not fix. */
const HOPELESS = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ERR_INVALID_URL',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

function causeCodes(err: unknown): string[] {
  const codes: string[] = [];
  for (
    let e: unknown = err, i = 0;
    typeof e === 'object' && e !== null && i < 8;
    e = (e as { cause?: unknown }).cause, i++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

/**
 * True when another attempt may succeed: the provider marked the error retryable and it is not a refused
 * connection or an unknown host.
 * @example isRetryableModelError(new APICallError({ statusCode: 503, isRetryable: true, ... })) === true
 */
function isRetryableModelError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null || (err as { isRetryable?: unknown }).isRetryable !== true) return false;
  return !causeCodes(err).some((c) => HOPELESS.has(c));
}

/** A server's `retry-after` (seconds or a date) in ms, when it gave one. */
function retryAfterMs(err: unknown): number | undefined {
  const headers = (err as { responseHeaders?: Record<string, string> }).responseHeaders;
  const raw = headers?.['retry-after-ms'] ?? headers?.['retry-after'];
  if (raw === undefined) return undefined;
  const ms = headers?.['retry-after-ms'] !== undefined ? Number(raw) : Number(raw) * 1000;
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * Runs `call`, retrying retryable failures per `policy`; the last error is thrown as it was.
 * @example await withModelRetry(() => model.doGenerate(params), DEFAULT_MODEL_RETRY, params.abortSignal)
 */
async function withModelRetry<T>(
  call: () => PromiseLike<T>,
  policy: ModelRetryPolicy,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= policy.maxRetries || signal?.aborted || !isRetryableModelError(err)) throw err;
      const planned = policy.delaysMs[Math.min(attempt, policy.delaysMs.length - 1)] ?? 0;
      await policy.sleep(Math.min(policy.maxDelayMs, retryAfterMs(err) ?? planned), signal);
      if (signal?.aborted) throw err;
    }
  }
}

/**
 * The model with each call (one step's request) retried by {@link withModelRetry}. Models of another
 * specification version are returned as they are.
 * @example const model = await retryingModel(resolved, { ...DEFAULT_MODEL_RETRY, maxRetries: 0 })
 */
export async function retryingModel(model: LanguageModel, policy: ModelRetryPolicy): Promise<LanguageModel> {
  if (typeof model === 'string' || model.specificationVersion !== 'v3') return model;
  const { wrapLanguageModel } = await import('ai');
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      wrapGenerate: ({ doGenerate, params }) => withModelRetry(doGenerate, policy, params.abortSignal),
      wrapStream: ({ doStream, params }) => withModelRetry(doStream, policy, params.abortSignal),
    },
  });
}
