/**
 * When a reflection fires: a pure decision over the settings, the event that just
 * happened and the number of assistant steps since the last successful reflection.
 */
import type { ReflectionSettings } from './settings.js';

/** What happened in the harness. */
export type ReflectionEvent = 'turn-end' | 'compaction' | 'manual';

/** Why a reflection is launched (recorded in the run log). */
export type ReflectionTriggerSource = 'manual' | 'step-count' | 'compaction-event';

/**
 * The trigger source to launch with, or null when nothing should run. Manual launches always run;
 * `step-count` fires at turn end once `stepsSince >= stepCount`; `compaction-event` fires on compaction.
 * @example decideReflection({ trigger: 'step-count', stepCount: 3, merge: 'auto', mergeInstructions: '' }, 'turn-end', 3) === 'step-count'
 */
export function decideReflection(
  settings: Pick<ReflectionSettings, 'trigger' | 'stepCount'>,
  event: ReflectionEvent,
  stepsSince: number,
): ReflectionTriggerSource | null {
  if (event === 'manual') return 'manual';
  if (settings.trigger === 'step-count' && event === 'turn-end') {
    const threshold = Number.isInteger(settings.stepCount) && settings.stepCount > 0 ? settings.stepCount : 25;
    return stepsSince >= threshold ? 'step-count' : null;
  }
  if (settings.trigger === 'compaction-event' && event === 'compaction') return 'compaction-event';
  return null;
}
