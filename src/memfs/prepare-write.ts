/**
 * The part of a write that may start before the write is allowed: its objects, its journal entry and its
 * files' texts go to temp files (invisible to git) and their flush begins, so that on a durable write the
 * first flush overlaps the clean check instead of following it. Nothing becomes visible until applyDraft
 * publishes it; a write that is then refused discards it all.
 */
import type { Draft } from './edit-types.js';
import { stageFiles, type FileStage } from './file-staging.js';
import { journalOwner, prepareStore, type PreparedStore } from './journal.js';
import type { RepoFs } from './repo-fs.js';

export interface PreparedWrite {
  /** The draft this was prepared for (a draft composed again needs its own). */
  draft: Draft;
  store: PreparedStore;
  /** The files' texts, staged in the git dir (durable writes only). */
  stage: FileStage | undefined;
  /** Removes every temp file (after their flush settles). */
  discard(): Promise<void>;
}

/**
 * Writes `draft`'s temp files and starts their flush. Throws what writing them throws (nothing is left).
 * @example const p = prepareWrite(draft, fs); … await applyDraft(git, draft, fs, p)
 */
export function prepareWrite(draft: Draft, fs: RepoFs): PreparedWrite {
  const { req, composed, paths } = draft;
  const durable = req.durable !== false;
  const subject = req.message.split('\n')[0] ?? '';
  const stage = durable ? stageFiles(req.memoryDir, fs, draft.effective, req.gitDirs?.gitDir) : undefined;
  let store: PreparedStore;
  try {
    const entry = {
      ...journalOwner(),
      parent: req.base.head,
      commit: composed.commit,
      paths,
      index: composed.index.after,
      subject,
    };
    store = prepareStore(composed.objects, req.memoryDir, entry, durable, stage?.fds, req.gitDirs?.gitDir);
  } catch (err) {
    stage?.discard();
    throw err;
  }
  const discard = async (): Promise<void> => {
    await store.discard();
    stage?.discard();
  };
  return { draft, store, stage, discard };
}

/**
 * prepareWrite for a draft that may not be used (composed before the clean check): undefined when there is
 * none or preparing failed (applyDraft then prepares again and reports the failure as the write's).
 */
export function prepareEarly(draft: Draft | Error | undefined, fs: RepoFs): PreparedWrite | undefined {
  if (draft === undefined || draft instanceof Error) return undefined;
  try {
    return prepareWrite(draft, fs);
  } catch {
    return undefined;
  }
}
