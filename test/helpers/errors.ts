/**
 * The error code a synchronous call fails with, for tests that pin typed errors.
 */
import { isMemoryError } from '../../src/errors.js';

/**
 * `fn`'s MemoryError code; undefined when it does not throw; `not-a-memory-error: <message>` for any other
 * throw, so an assertion on a code fails and shows what was thrown instead.
 * @example expect(errorCodeOf(() => parseFromSpec('x:'))).toBe('INVALID_ARGUMENT')
 */
export function errorCodeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return isMemoryError(err) ? err.code : `not-a-memory-error: ${err instanceof Error ? err.message : String(err)}`;
  }
  return undefined;
}
