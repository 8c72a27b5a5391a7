/** The tool result's word on sync: while the memory has a remote, the harness pushes after the turn. */
/** What a tool result adds when a remote is configured (the harness pushes after the turn; the tool never does). */
export const SYNC_AFTER_TURN_NOTE = 'Memory is synced with the remote after the turn.';

/**
 * A tool write's result, told that the harness syncs it after the turn when the memory has a remote.
 * @example withSyncNote(() => true, { message: 'Memory create committed (abc1234).' }).message
 */
export function withSyncNote<T extends { message: string }>(hasRemote: (() => boolean) | undefined, result: T): T {
  return hasRemote?.() ? { ...result, message: `${result.message} ${SYNC_AFTER_TURN_NOTE}` } : result;
}
