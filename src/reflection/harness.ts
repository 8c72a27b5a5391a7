/**
 * The library entry points a harness calls — `onTurnEnd()`, `onCompaction()`, `reflectNow()` — which decide
 * from the settings whether a reflection fires and start it in the background. They never block the caller:
 * each returns at once with a handle whose `done` promise (never rejecting) settles when the run ends.
 * One reflection per agent per process; a launch while one runs is queued and runs once afterwards.
 * The run itself (and with it the model layer) is loaded at the first launch.
 */
import type { LanguageModel } from 'ai';
import { toMemoryError, type MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import type { Launcher } from '../process/run.js';
import { agentPaths } from '../memfs/layout.js';
import { readCursor } from './cursor.js';
import { requireSelection, type MultiSelectionRequest } from './multi-selection.js';
import { countSingleRun } from './multi-counter.js';
import { createReservationTable } from './reservation.js';
import type { ReflectionResult, ReflectionRunOptions } from './run-types.js';
import { resolveReflectionSettings, type ReflectionSettings } from './settings.js';
import { appendTranscript, type TranscriptRowInput } from './transcripts.js';
import { decideReflection, type ReflectionEvent, type ReflectionTriggerSource } from './triggers.js';

/** How a launch ended when no reflection result exists. */
export interface HarnessNoRun {
  launched: false;
  reason: 'not_triggered' | 'dropped' | 'error';
  conversationId: string;
  message: string;
  error?: MemoryError;
}

/** How a harness-started reflection ended (`onComplete`): a run's result, or why none ran. */
export type HarnessOutcome = ReflectionResult | HarnessNoRun;

/** Returned at once by every entry point. */
export interface ReflectionLaunch {
  /** `started` now, `queued` behind a running reflection, or `skipped` (the trigger did not fire). */
  state: 'started' | 'queued' | 'skipped';
  trigger: ReflectionTriggerSource | null;
  done: Promise<HarnessOutcome>;
}

type RunExtras = Partial<
  Omit<ReflectionRunOptions, 'home' | 'agentId' | 'conversationId' | 'model' | 'env' | 'git' | 'launch' | 'trigger'>
>;

/** Options of {@link createReflectionHarness}: everything wired in (memory.ts fills them for a harness). */
export interface ReflectionHarnessOptions {
  home: string;
  agentId: string;
  /** The environment the sub-agent's sandbox is built from (and provider keys looked up in). */
  env: Record<string, string | undefined>;
  git: GitRunner;
  /** Starts the sub-agent's confined commands (the handle's launcher). */
  launch: Launcher;
  /** A model, or a function resolving one at launch (memory.ts passes the configured model's resolver). */
  model: LanguageModel | (() => Promise<LanguageModel>);
  projectDir?: string;
  /** Overrides applied on top of the resolved settings. */
  settings?: Partial<ReflectionSettings>;
  /** Extra run options (limits, stream, integrate, onProgress, onRecompile…). */
  run?: RunExtras;
  onComplete?: (outcome: HarnessOutcome) => void;
}

/** The reflection entry points of one agent; each returns at once, the run goes on in the background. */
export interface ReflectionHarness {
  /** Appends a turn's rows to the conversation's transcript (call before onTurnEnd). */
  recordTurn(conversationId: string, rows: TranscriptRowInput[]): void;
  onTurnEnd(conversationId: string): ReflectionLaunch;
  onCompaction(conversationId: string): ReflectionLaunch;
  reflectNow(conversationId: string, options?: { instruction?: string }): ReflectionLaunch;
  /** One reflection over several conversations: `{ recent: N }`, `{ conversations: [...] }` or `{ auto: true }`. */
  reflectMany(
    selection: { recent?: number; conversations?: string[]; auto?: boolean },
    options?: { instruction?: string },
  ): ReflectionLaunch;
  settings(): ReflectionSettings;
  /** Resolves when nothing is running or queued for this agent. */
  idle(): Promise<void>;
}

interface Request {
  conversationId: string;
  /** A multi-conversation run (conversationId is then `multi`). */
  multi?: MultiSelectionRequest;
  trigger: ReflectionTriggerSource;
  instruction?: string;
  waiters: Array<(o: HarnessOutcome) => void>;
}

// One table per process: two harnesses for the same agent still share one reservation.
const table = createReservationTable<Request>((previous, next) => ({
  ...next,
  waiters: [...previous.waiters, ...next.waiters],
}));
const running = new Map<string, Promise<void>>();

async function resolveModelFor(o: ReflectionHarnessOptions): Promise<LanguageModel> {
  return typeof o.model === 'function' ? o.model() : o.model;
}

interface Ctx {
  o: ReflectionHarnessOptions;
  env: Record<string, string | undefined>;
  git: GitRunner;
  agentDir: string;
  memoryDir: string;
  settings: () => ReflectionSettings;
}

async function execute(c: Ctx, req: Request): Promise<HarnessOutcome> {
  try {
    const s = c.settings();
    const model = await resolveModelFor(c.o);
    // Loaded at the first launch: the run pulls in the model layer, which importing gitmem must not.
    const { runReflection } = await import('./run.js');
    const base = {
      merge: s.merge,
      mergeInstructions: s.mergeInstructions,
      ...c.o.run,
      home: c.o.home,
      agentId: c.o.agentId,
      conversationId: req.conversationId,
      model,
      env: c.env,
      git: c.git,
      launch: c.o.launch,
      trigger: req.trigger,
      ...(req.instruction ? { instruction: req.instruction } : {}),
    };
    if (!req.multi) return await runReflection(base);
    const { runMultiReflection } = await import('./harness-multi.js');
    return await runMultiReflection({ ...base, agentDir: c.agentDir, ...projectCwd(c) }, req.multi);
  } catch (err) {
    const error = toMemoryError(err);
    return { launched: false, reason: 'error', conversationId: req.conversationId, message: error.message, error };
  }
}

function projectCwd(c: Ctx): { cwd?: string } {
  return c.o.projectDir ? { cwd: c.o.projectDir } : {};
}

/** After a successful single run: is the multi run of every `multiEvery` successful runs due? */
function multiDue(c: Ctx, req: Request, outcome: HarnessOutcome): boolean {
  if (req.multi || !outcome.launched || !outcome.success) return false;
  try {
    return countSingleRun(c.agentDir, c.settings().multiEvery);
  } catch (err) {
    c.o.run?.onWarning?.(`Note: the multi-reflection counter was not updated (${toMemoryError(err).message}).`);
    return false;
  }
}

function start(c: Ctx, req: Request): void {
  const job = (async () => {
    let outcome: HarnessOutcome | undefined;
    try {
      const o = await execute(c, req);
      outcome = o;
      req.waiters.forEach((w) => w(o));
      c.o.onComplete?.(o);
    } finally {
      const next = table.release(c.memoryDir);
      if (next) dequeue(c, next);
      else running.delete(c.memoryDir);
    }
    // the counter file is locked: harnesses of one agent in several processes never lose a count
    if (outcome && multiDue(c, req, outcome))
      launchRequest(c, { conversationId: 'multi', trigger: 'step-count', multi: { recent: c.settings().multiRecent } });
  })();
  running.set(c.memoryDir, job);
}

/** A queued step-count launch re-checks its threshold; other queued launches run unconditionally. */
function dequeue(c: Ctx, req: Request): void {
  if (req.multi) {
    table.tryReserve(c.memoryDir, req);
    return start(c, req);
  }
  const steps = readCursor(c.agentDir, req.conversationId).stepsSinceLastReflection;
  if (req.trigger === 'step-count' && decideReflection(c.settings(), 'turn-end', steps) === null) {
    const dropped: HarnessNoRun = {
      launched: false,
      reason: 'dropped',
      conversationId: req.conversationId,
      message: 'The queued step-count reflection is no longer due.',
    };
    req.waiters.forEach((w) => w(dropped));
    running.delete(c.memoryDir);
    return;
  }
  table.tryReserve(c.memoryDir, req);
  start(c, req);
}

function launch(c: Ctx, conversationId: string, event: ReflectionEvent, instruction?: string): ReflectionLaunch {
  const steps = event === 'turn-end' ? readCursor(c.agentDir, conversationId).stepsSinceLastReflection : 0;
  const trigger = decideReflection(c.settings(), event, steps);
  if (trigger === null) {
    return {
      state: 'skipped',
      trigger,
      done: Promise.resolve({
        launched: false,
        reason: 'not_triggered',
        conversationId,
        message: 'No reflection due.',
      }),
    };
  }
  return launchRequest(c, { conversationId, trigger, instruction });
}

/** Starts the request now, or queues it behind the agent's running reflection. */
function launchRequest(c: Ctx, r: Omit<Request, 'waiters'> & { trigger: ReflectionTriggerSource }): ReflectionLaunch {
  let resolveDone: (v: HarnessOutcome) => void = () => undefined;
  const done = new Promise<HarnessOutcome>((res) => (resolveDone = res));
  const req: Request = { ...r, waiters: [resolveDone] };
  if (!table.tryReserve(c.memoryDir, req)) return { state: 'queued', trigger: r.trigger, done };
  start(c, req);
  return { state: 'started', trigger: r.trigger, done };
}

/**
 * Creates the entry points for one agent.
 * @example
 *   const h = createReflectionHarness({ home, agentId: 'a1', model });
 *   h.recordTurn('conv-1', rows); h.onTurnEnd('conv-1'); // returns at once
 */
export function createReflectionHarness(o: ReflectionHarnessOptions): ReflectionHarness {
  const env = o.env;
  const { agentDir, memoryDir } = agentPaths(o.home, o.agentId);
  const settings = (): ReflectionSettings => ({
    ...resolveReflectionSettings({ home: o.home, agentDir, projectDir: o.projectDir }),
    ...o.settings,
  });
  const c: Ctx = { o, env, git: o.git, agentDir, memoryDir, settings };
  return {
    recordTurn: (conversationId, rows) => appendTranscript(agentDir, conversationId, rows),
    onTurnEnd: (conversationId) => launch(c, conversationId, 'turn-end'),
    onCompaction: (conversationId) => launch(c, conversationId, 'compaction'),
    reflectNow: (conversationId, opts = {}) => launch(c, conversationId, 'manual', opts.instruction),
    reflectMany: (selection, opts = {}) =>
      launchRequest(c, {
        conversationId: 'multi',
        trigger: 'manual',
        multi: requireSelection(selection),
        instruction: opts.instruction,
      }),
    settings,
    idle: async () => {
      while (running.has(memoryDir)) await running.get(memoryDir);
    },
  };
}
