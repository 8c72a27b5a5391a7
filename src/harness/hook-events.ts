/**
 * The hook events gitmem answers (`gitmem hook <harness> <event>`). The harness catalogue (catalogue.ts) maps
 * each harness's own event names onto these (all but `reflect`, which the others start).
 */
/** What each event does (usage text). */
export const HOOK_EVENTS = {
  'session-start': "print the memory as the session's context (also after a compaction or a resume)",
  'turn-end': 'record where the transcript stands; reflect when the turn count reaches the trigger',
  'session-end': "record where the transcript stands; reflect over the session's new part",
  'auto-memory-start':
    'auto memory: commit the changes no hook committed (a crash, a disabled hook); Claude Code loads MEMORY.md',
  'pre-write':
    "auto memory: validate a Write/Edit/MultiEdit into the memory folder; deny it with the validator's reason",
  'post-write': 'auto memory: commit a Write/Edit/MultiEdit into the memory folder, its reason taken from the call',
  reflect: "reflect now over every recorded session's unreflected part (what the other events start, detached)",
} as const;

export type HookEvent = keyof typeof HOOK_EVENTS;

export function isHookEvent(v: string): v is HookEvent {
  return Object.hasOwn(HOOK_EVENTS, v);
}

/**
 * The events the CLI daemon answers (cli/registry.ts): every event a harness runs on each session start, turn
 * or memory write, so each takes the fast path; not `reflect`, the long job the others start detached. An
 * event added above is served unless it is listed here as long.
 */
const LONG_HOOK_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>(['reflect']);
export const SERVED_HOOK_EVENTS: ReadonlySet<string> = new Set(
  (Object.keys(HOOK_EVENTS) as HookEvent[]).filter((e) => !LONG_HOOK_EVENTS.has(e)),
);
