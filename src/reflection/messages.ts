/**
 * What the user is told when a reflection ends (SPEC B10.34, in our words). One table, so the CLI, the
 * library result and logs say the same thing.
 */
import type { ReflectionStatus } from './run-types.js';

const MESSAGES: Record<ReflectionStatus, string> = {
  merged: 'Dreamed and made some memories.',
  no_changes: 'Dreamed; no memory changes were needed.',
  parent_dirty: 'Tried to reflect, but parent memory had uncommitted changes; will retry later.',
  merge_conflict: 'Tried to reflect, but the memory updates conflicted with newer changes; will retry later.',
  rejected: 'Tried to reflect, but the memory updates broke the memory rules and were not merged; will retry later.',
  dirty_uncommitted: 'Tried to reflect, but the memory changes were not committed cleanly; will retry later.',
  failed: 'Tried to reflect, but the memory updates were not completed; will retry later.',
  dry_run: 'Dry run finished; nothing was merged.',
  pending_review: 'Dreamed; the memory updates are kept on a branch for review before merging.',
};

/**
 * The completion message for an outcome, with the summary and any recompile failure appended.
 * @example outcomeMessage('merged', 'Merged 1 reflection memory commit(s)…') // 'Dreamed and made some memories. Merged 1…'
 */
export function outcomeMessage(status: ReflectionStatus, summary: string, recompileError?: string): string {
  const base = `${MESSAGES[status]} ${summary}`.trim();
  return recompileError ? `${base} System prompt recompilation failed: ${recompileError}` : base;
}
