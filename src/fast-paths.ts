/**
 * The one seam of gitmem's fast paths: each is a second implementation of something git does, kept only
 * because it pays (docs/performance.md#fast-paths), and each is entered here. The contract is one line: no
 * answer (undefined) means ask git. With the switch off (GITMEM_FAST_PATHS=0, read in config.ts and set by
 * the composition root) every entry answers nothing, so every caller takes its plain path; CI runs the
 * integration tests of these paths a second time that way, to prove both paths behave the same. A counter
 * per mechanism tells a test whether the fast path was taken.
 */

/** Each kept fast path: what it replaces, where it lives, what it buys (measured against its plain path). */
export interface FastPath {
  /** What git would do instead (the plain path taken with the switch off). */
  plain: string;
  /** Its entry point, the one caller of {@link fastPath}. */
  entry: string;
}

/** The kept fast paths (a closed set: a new one is a row here, or it does not exist). */
export type FastPathName = 'watcher' | 'writerPack' | 'streamedJobs' | 'objectReads';

/** Every fast path gitmem has, by name. */
export const FAST_PATHS: Readonly<Record<FastPathName, FastPath>> = Object.freeze({
  watcher: { plain: 'one `git status` over the whole work tree per write', entry: 'memfs/tool.ts (memfs/fsmonitor/)' },
  writerPack: {
    plain: "`git pack-objects` over the writer's private objects",
    entry: 'worktree/import.ts (worktree/pack-private.ts)',
  },
  streamedJobs: {
    plain: 'a plain spawn (a fork of this process) for jobs with held input or a capped output',
    entry: 'process/shell-launcher.ts (process/shell-streamed.ts)',
  },
  objectReads: {
    plain: '`git rev-parse`, `cat-file --batch`, `ls-tree` and `diff-tree` for refs, loose objects and their trees',
    entry:
      'git/read-ref.ts, git/loose-object.ts, git/loose-tree.ts (committed-read.ts, watch, open, sync before its fetch)',
  },
});

let enabled = true;
let closed: ReadonlySet<FastPathName> = new Set();
const entries = new Map<FastPathName, number>();

/**
 * Turns every fast path on or off for this process (the composition root, from `config.fastPaths`); `except`
 * keeps the named ones off while the rest are on (the bench weighs each mechanism against its plain path).
 * @example setFastPaths(config.fastPaths)
 */
export function setFastPaths(on: boolean, except: readonly FastPathName[] = []): void {
  enabled = on;
  closed = new Set(except);
}

/**
 * Whether `name` may run now; counts an entry when it may. A caller that gets false takes its plain path.
 * @example if (!fastPathOpen('streamedJobs')) return runProcess(cmd, args, o)
 */
export function fastPathOpen(name: FastPathName): boolean {
  if (!enabled || closed.has(name)) return false;
  entries.set(name, (entries.get(name) ?? 0) + 1);
  return true;
}

/**
 * The fast path's answer, or undefined (switch off, or the fast path could not answer): then ask git.
 * @example const walked = fastPath('writerPack', () => walkPrivateObjects(dir, tip, base) ?? undefined) ?? null
 */
export function fastPath<T>(name: FastPathName, fast: () => T | undefined): T | undefined {
  return fastPathOpen(name) ? fast() : undefined;
}

/**
 * How often `name` was entered in this process since the last reset (tests: was the fast path taken?).
 * @example resetFastPathEntries(); await write(); fastPathEntries('watcher') > 0
 */
export function fastPathEntries(name: FastPathName): number {
  return entries.get(name) ?? 0;
}

/** Sets every counter back to 0. */
export function resetFastPathEntries(): void {
  entries.clear();
}
