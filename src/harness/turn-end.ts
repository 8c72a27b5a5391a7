/**
 * `gitmem hook <harness> turn-end | session-end` (and a session start after a compaction): record where the
 * session's transcript stands, then decide whether a reflection starts — session end always (unless the
 * trigger is off), a turn when the turns since the last reflection reach the step-count trigger, a compaction
 * under the compaction trigger. The reflection itself runs detached (launch), so the hook returns within the
 * harness's budget; without a model only the position is recorded, and the part is reflected later.
 */
import { appendRunLog, decideReflection, type ReflectionSettings } from '../internals.js';
import type { HookInput } from './hook-input.js';
import { recordPosition, writeSession } from './sessions.js';

export type PositionEvent = 'turn-end' | 'session-end' | 'compaction';

export interface TurnEndOptions {
  harness: string;
  event: PositionEvent;
  input: HookInput;
  agentDir: string;
  settings: Pick<ReflectionSettings, 'trigger' | 'stepCount'>;
  modelConfigured: boolean;
  /** Starts the detached reflection job. */
  launch: () => void;
  now?: () => Date;
}

/** What the hook did, as recorded in the run log. */
export type TurnEndOutcome = 'no-transcript' | 'recorded' | 'reflection-started';

function fires(o: TurnEndOptions, turnsSince: number): boolean {
  if (!o.modelConfigured || o.settings.trigger === 'off') return false;
  if (o.event === 'session-end') return true;
  return decideReflection(o.settings, o.event === 'compaction' ? 'compaction' : 'turn-end', turnsSince) !== null;
}

/**
 * Records the position and maybe starts a reflection; returns what it did.
 * @example await turnEnd({ harness: 'codex', event: 'turn-end', input, agentDir, settings, modelConfigured: false, launch })
 */
export function turnEnd(o: TurnEndOptions): TurnEndOutcome {
  const now = (o.now ?? (() => new Date()))();
  const { sessionId, transcriptPath } = o.input;
  let outcome: TurnEndOutcome = 'no-transcript';
  let offset = 0;
  if (sessionId !== undefined && transcriptPath !== undefined) {
    const rec = recordPosition(
      o.agentDir,
      { harness: o.harness, sessionId, transcript: transcriptPath },
      o.event === 'turn-end',
      now,
    );
    offset = rec.offset;
    outcome = 'recorded';
    if (rec.offset > rec.reflected && fires(o, rec.turns - rec.turnsAtReflection)) {
      writeSession(o.agentDir, { ...rec, turnsAtReflection: rec.turns });
      o.launch();
      outcome = 'reflection-started';
    }
  }
  appendRunLog(o.agentDir, {
    kind: 'harness-hook',
    startedAt: now.toISOString(),
    durationMs: Date.now() - now.getTime(),
    steps: 0,
    inputTokens: 0,
    outputTokens: 0,
    outcome,
    model: '',
    harness: o.harness,
    event: o.event,
    ...(sessionId ? { session: sessionId } : {}),
    ...(transcriptPath ? { transcript: transcriptPath, offset } : {}),
  });
  return outcome;
}
