/**
 * Before an auto merge, the parent is brought up to date with its remote (sync/refresh.ts), so the merge
 * is computed against what the next sync pushes onto. The fetch runs here, outside the lease; what it
 * returns is applied by finalize under the lease, right before the merge.
 */
import { toMemoryError } from '../errors.js';
import { prepareParentRefresh, type PreparedRefresh } from '../sync/refresh.js';
import type { PreparedReflection } from './prepare.js';
import type { ReflectionRunOptions } from './run-types.js';

const nothing = async (): Promise<void> => undefined;

/**
 * The refresh for this run (which has commits to merge), or undefined when it merges nothing here (dry run,
 * explicit mode) or was told not to.
 * A remote that cannot be fetched is not an error: the result says why (`skipped`) and the merge is local.
 * @example const refresh = await refreshForMerge(o, prepared); finalize(..., { refreshParent: refresh?.apply })
 */
export async function refreshForMerge(
  o: ReflectionRunOptions,
  p: PreparedReflection,
): Promise<PreparedRefresh | undefined> {
  if (o.refreshParent === false || o.dryRun || (o.merge ?? 'auto') !== 'auto') return undefined;
  const prepare =
    o.refreshParent ??
    (() => {
      const credentials = o.credentials?.();
      return prepareParentRefresh({
        git: o.git,
        memoryDir: p.wt.parentMemoryDir,
        home: o.home,
        credentials,
        signal: o.signal,
      });
    });
  return Promise.resolve()
    .then(prepare)
    .catch((err: unknown) => ({
      skipped: `could not prepare the refresh: ${toMemoryError(err).message}`,
      apply: nothing,
    }));
}
