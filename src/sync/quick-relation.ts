/**
 * How local main relates to the freshly fetched origin/main, decided from what sync already holds (the
 * status it ran, origin/main before and after the fetch, the fetch's own ref-update line) so the common
 * cases need no extra git call. Pure. Any doubt answers `undefined`, and the caller asks git.
 */

/** What the fetch reported for its one ref update. */
export type TrackingUpdate = { kind: 'none' } | { kind: 'fast_forward'; from: string; to: string } | { kind: 'other' };

/** What sync saw before integrating: the status it ran and origin/main just before its first fetch. */
export interface SyncHint {
  /** HEAD commit per that status. */
  head: string | null;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
  /** refs/remotes/origin/main read before the status and the fetch started (undefined when unsure). */
  remoteBefore: string | undefined;
}

export type QuickRelation =
  /** Exact counts against origin/main now; relatedness is not known (it matters only when both are > 0). */
  | { kind: 'counted'; ahead: number; behind: number }
  /** Local and remote main certainly share history; counts are still to be taken. */
  | { kind: 'related'; head: string; onto: string };

/**
 * Parses the ref-update lines a non-quiet `git fetch` writes to stderr (`   a..b  main -> origin/main`,
 * ` + a...b main -> origin/main  (forced update)`, ` * [new branch] …`). Exactly one fast-forward line
 * is `fast_forward`; no update line is `none`; anything else is `other`.
 * @example parseFetchUpdate('From /r\n   a5e9f5c..e6a8099  main       -> origin/main\n').kind === 'fast_forward'
 */
export function parseFetchUpdate(stderr: string): TrackingUpdate {
  const updates = stderr.split('\n').filter((l) => /^ [ +*!=t-] \S/.test(l) && l.includes(' -> '));
  if (updates.length === 0) return { kind: 'none' };
  const m = updates.length === 1 ? /^ {3}([0-9a-f]{4,64})\.\.([0-9a-f]{4,64}) /.exec(updates[0] ?? '') : null;
  return m?.[1] && m[2] ? { kind: 'fast_forward', from: m[1], to: m[2] } : { kind: 'other' };
}

/**
 * Decides the relation without git when it is certain:
 * - main is still the commit the status saw and origin/main did not move: the status's ahead/behind
 *   (against origin/main) are exact;
 * - origin/main moved by a fast-forward from the commit seen before, and the status showed main not
 *   behind: whatever origin/main the status saw is in both histories, so they are related.
 * @example quickRelation(hint, headNow, remoteNow, update) // { kind: 'counted', ahead: 1, behind: 0 }
 */
export function quickRelation(
  hint: SyncHint | undefined,
  headNow: string | undefined,
  remoteNow: string | undefined,
  update: TrackingUpdate,
): QuickRelation | undefined {
  if (!hint || hint.upstream !== 'origin/main' || hint.ahead === null || hint.behind === null) return undefined;
  const before = hint.remoteBefore;
  if (hint.head === null || headNow !== hint.head || before === undefined || remoteNow === undefined) return undefined;
  if (remoteNow === before) return { kind: 'counted', ahead: hint.ahead, behind: hint.behind };
  const fastForward =
    update.kind === 'fast_forward' && before.startsWith(update.from) && remoteNow.startsWith(update.to);
  return fastForward && hint.behind === 0 ? { kind: 'related', head: headNow, onto: remoteNow } : undefined;
}
