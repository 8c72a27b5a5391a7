/**
 * `withMemory(model, { memory, conversationId })`: an AI SDK language-model middleware that gives the model
 * its memory. The prompt compiled from the committed memory when the conversation starts goes first in the
 * system message and stays the same for the whole conversation (so provider prompt caches keep hitting);
 * each turn (a step that ends without tool calls) is recorded in the transcript; after it, the post-turn sync
 * and the reflection triggers run in the background — the response is never held for them.
 */
import { setImmediate } from 'node:timers';
import { wrapLanguageModel, type LanguageModel, type LanguageModelMiddleware } from 'ai';
import { MemoryError, toMemoryError } from '../../errors.js';
import {
  createReflectionHarness,
  handleWiring,
  type CreateReflectionHarnessOptions,
  type Memory,
} from '../../memory.js';
import type { ReflectionHarness, ReflectionLaunch } from '../../reflection/harness.js';
import type { TranscriptRowInput } from '../../reflection/transcripts.js';
import type { SyncResult } from '../../sync/types.js';
import {
  conversationLength,
  newMessages,
  rowsOfMessages,
  rowsOfOutput,
  type CallOptions,
  type OutputPart,
} from './turn-rows.js';

/** The wording of the prompt the middleware compiles: the memory tools (memoryTools), no shell. */
const AI_SDK_PROMPT_SURFACE = 'tools';

type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model'];
type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

/** The part of the Memory handle the middleware uses. */
export type MiddlewareMemory = Pick<Memory, 'compilePrompt' | 'home' | 'agentId' | 'memoryDir' | 'syncAfterTurn'>;

/** What happened after one turn (handed to `onAfterTurn`; errors are values, never thrown). */
export interface AfterTurn {
  conversationId: string;
  rows: number;
  sync: SyncResult | { status: 'off' } | { status: 'error'; error: MemoryError };
  reflection: ReflectionLaunch | { state: 'off' } | { state: 'error'; error: MemoryError };
}

export interface WithMemoryOptions {
  memory: MiddlewareMemory;
  conversationId: string;
  /** Post-turn sync (default on): a function to run instead, or false. */
  sync?: false | (() => Promise<SyncResult>);
  /** Reflection after each turn (default: the agent's settings): a harness, options for one, or false. */
  reflection?: false | ReflectionHarness | Omit<CreateReflectionHarnessOptions, 'home' | 'agentId'>;
  /**
   * The compiled prompt's mode, preset and surface (default the memory's mode, the default preset, and the
   * `tools` wording: the model has `memoryTools`, not a shell; pass `surface: 'shell'` when it has one).
   */
  prompt?: Parameters<Memory['compilePrompt']>[0];
  /** Told when a turn's background work has run. */
  onAfterTurn?: (after: AfterTurn) => void;
}

/** The middleware plus `idle()`, which resolves when no turn's background work is still running. */
export interface MemoryMiddleware extends LanguageModelMiddleware {
  idle(): Promise<void>;
}

async function defaultSync(memory: MiddlewareMemory): Promise<SyncResult> {
  return memory.syncAfterTurn();
}

/** The harness that records turns (and, unless reflection is off, fires reflections); none without an agent id. */
function harnessFor(o: WithMemoryOptions): ReflectionHarness | null {
  if (o.reflection && 'onTurnEnd' in o.reflection) return o.reflection;
  if (!o.memory.agentId) return null;
  const extra = o.reflection === false ? {} : o.reflection;
  // The handle's own runner when it is one createMemory built (a copy of one included); else the harness wires its own.
  const git = handleWiring(o.memory)?.git;
  return createReflectionHarness({ git, ...extra, home: o.memory.home, agentId: o.memory.agentId });
}

/** The compiled prompt first in the system message; the caller's system text after it. */
function withSystem(params: CallOptions, compiled: string): CallOptions {
  const rest = params.prompt.filter((m) => m.role !== 'system');
  const own = params.prompt.flatMap((m) => (m.role === 'system' ? [m.content] : []));
  return { ...params, prompt: [{ role: 'system', content: [compiled, ...own].join('\n\n') }, ...rest] };
}

/** One turn's background work: the transcript, the reflection trigger, the post-turn sync. Never throws. */
async function afterTurn(
  o: WithMemoryOptions,
  harness: ReflectionHarness | null,
  rows: TranscriptRowInput[],
): Promise<void> {
  let reflection: AfterTurn['reflection'] = { state: 'off' };
  let sync: AfterTurn['sync'] = { status: 'off' };
  try {
    if (harness) {
      harness.recordTurn(o.conversationId, rows);
      if (o.reflection !== false) reflection = harness.onTurnEnd(o.conversationId);
    }
  } catch (err) {
    reflection = { state: 'error', error: toMemoryError(err) };
  }
  if (o.sync !== false) {
    try {
      sync = await (o.sync ? o.sync() : defaultSync(o.memory));
    } catch (err) {
      sync = { status: 'error', error: toMemoryError(err) };
    }
  }
  o.onAfterTurn?.({ conversationId: o.conversationId, rows: rows.length, sync, reflection });
}

/**
 * The memory middleware for one conversation (see {@link withMemory}).
 * @example const model = wrapLanguageModel({ model: base, middleware: memoryMiddleware({ memory, conversationId: 'c1' }) })
 */
export function memoryMiddleware(o: WithMemoryOptions): MemoryMiddleware {
  let compiled: Promise<string> | undefined;
  let seen = 0;
  const background = new Set<Promise<void>>();
  // Turns' background work runs one after another: the transcript keeps the turns' order, syncs do not race.
  let tail: Promise<void> = Promise.resolve();
  const harness = harnessFor(o);

  /** Records a finished turn and starts its background work; returns at once. */
  const finish = (params: CallOptions, output: readonly OutputPart[]): void => {
    const rows = [...rowsOfMessages(newMessages(params.prompt, seen)), ...rowsOfOutput(output)];
    seen = conversationLength(params.prompt);
    const previous = tail;
    const job: Promise<void> = (async () => {
      await new Promise((resolve) => setImmediate(resolve)); // after the response is handed back
      await previous;
      await afterTurn(o, harness, rows);
    })()
      .catch(() => undefined) // only onAfterTurn can throw here; the turn is already answered
      .finally(() => background.delete(job));
    background.add(job);
    tail = job;
  };

  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      compiled ??= o.memory
        .compilePrompt({ ...o.prompt, surface: o.prompt?.surface ?? AI_SDK_PROMPT_SURFACE })
        .catch((err: unknown) => {
          compiled = undefined; // a failed compile is tried again on the next call
          throw err;
        });
      return withSystem(params, await compiled);
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      if (result.finishReason.unified !== 'tool-calls') finish(params, result.content);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const { stream, ...rest } = await doStream();
      let text = '';
      const tap = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          controller.enqueue(part);
          if (part.type === 'text-delta') text += part.delta;
          if (part.type === 'finish' && part.finishReason.unified !== 'tool-calls')
            finish(params, text === '' ? [] : [{ type: 'text', text }]);
        },
      });
      return { stream: stream.pipeThrough(tap), ...rest };
    },
    idle: async () => {
      while (background.size > 0) await Promise.all([...background]);
    },
  };
}

/**
 * `model` with the agent's memory: the compiled prompt in the system message, each turn in the transcript,
 * sync and reflection after each turn in the background.
 * @example
 *   const model = withMemory(openai('gpt-4.1'), { memory, conversationId: 'c1' });
 *   await generateText({ model, tools: memoryTools(memory), stopWhen: stepCountIs(8), prompt: 'Remember I like tea' });
 */
export function withMemory(model: LanguageModel, options: WithMemoryOptions): ReturnType<typeof wrapLanguageModel> {
  if (typeof model === 'string') {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      'withMemory: pass a model instance (e.g. openai("gpt-4.1")), not a model id string',
      { data: { field: 'model' } },
    );
  }
  return wrapLanguageModel({ model: model as WrappableModel, middleware: memoryMiddleware(options) });
}
