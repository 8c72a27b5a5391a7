/**
 * What the user is told when a reflection ends (in our words), and which outcomes are errors. One table, so
 * the CLI, the library result and logs say the same thing.
 */
import type { MemoryErrorCode } from '../errors.js';
import type { ReflectionStatus } from './run-types.js';

/** Per outcome: what the user is told, and the error code when the outcome means something went wrong. */
const OUTCOMES: Record<ReflectionStatus, { message: string; code?: MemoryErrorCode }> = {
  merged: { message: 'Dreamed and made some memories.' },
  no_changes: { message: 'Dreamed; no memory changes were needed.' },
  parent_dirty: {
    message: 'Tried to reflect, but parent memory had uncommitted changes; will retry later.',
    code: 'REPO_DIRTY',
  },
  merge_conflict: {
    message: 'Tried to reflect, but the memory updates conflicted with newer changes; will retry later.',
    code: 'MERGE_CONFLICT',
  },
  rejected: {
    message: 'Tried to reflect, but the memory updates broke the memory rules and were not merged; will retry later.',
    code: 'MERGE_REJECTED',
  },
  dirty_uncommitted: {
    message: 'Tried to reflect, but the memory changes were not committed cleanly; will retry later.',
    code: 'REFLECTION_FAILED',
  },
  failed: {
    message: 'Tried to reflect, but the memory updates were not completed; will retry later.',
    code: 'REFLECTION_FAILED',
  },
  dry_run: { message: 'Dry run finished; nothing was merged.' },
  pending_review: { message: 'Dreamed; the memory updates are kept on a branch for review before merging.' },
};

/**
 * The error code of an outcome that means something went wrong (undefined for the others).
 * @example outcomeErrorCode('merge_conflict') === 'MERGE_CONFLICT'
 */
export function outcomeErrorCode(status: ReflectionStatus): MemoryErrorCode | undefined {
  return OUTCOMES[status].code;
}

/**
 * The completion message for an outcome, with the summary and any recompile failure appended.
 * @example outcomeMessage('merged', 'Merged 1 reflection memory commit(s)…') // 'Dreamed and made some memories. Merged 1…'
 */
export function outcomeMessage(status: ReflectionStatus, summary: string, recompileError?: string): string {
  const base = `${OUTCOMES[status].message} ${summary}`.trim();
  return recompileError ? `${base} System prompt recompilation failed: ${recompileError}` : base;
}
