/**
 * Composing a commit in memory: the blobs, the changed trees (tree-edit.ts) and the commit object for a set of
 * file changes on top of HEAD, written later by whoever stores the batch. Nothing here touches the work tree,
 * the index or a ref; the write path (memfs/) makes one call and publishes the result.
 */
import { join } from 'node:path';
import type { Identity } from '../identity.js';
import type { IndexInfoEntry } from './commands/plumbing.js';
import { repoObjectFormat } from './object-format.js';
import { commitText, ObjectBatch } from './objects.js';
import { buildTree, type BaseTrees, type TreeChange } from './tree-edit.js';

export interface CommitRequest {
  /** The repository's common git dir (its object store and object format). */
  commonDir: string;
  /** The files to change (content null = delete). */
  changes: readonly TreeChange[];
  message: string;
  author: Identity;
  /** HEAD and its trees along the changed paths (see readBaseTrees); `base.head` is the parent. */
  base: BaseTrees;
  /** Fixed time for reproducible commits (tests); default: now. */
  date?: Date;
}

/** A commit hashed and compressed in memory, with every new object it needs; nothing stored yet. */
export interface ComposedCommit {
  commit: string;
  objects: ObjectBatch;
  /** Index entries of the changed paths after the commit, and as they were before (for undo). */
  index: { after: IndexInfoEntry[]; before: IndexInfoEntry[] };
}

/**
 * Builds the blobs, the changed trees and the commit object for `changes` on top of `base.head` in memory.
 * Pure apart from reading the store, so the write path runs it while git checks the repo is clean.
 * @example const { commit, objects } = composeCommit({ commonDir, changes: [{ file: 'a.md', content }], message, author, base })
 */
export function composeCommit(req: CommitRequest): ComposedCommit {
  const objects = new ObjectBatch(join(req.commonDir, 'objects'), repoObjectFormat(req.commonDir));
  const { tree, after, before } = buildTree(objects, req.base, req.changes);
  const parents = req.base.head ? [req.base.head] : [];
  const time = (req.date ?? new Date()).getTime() / 1000;
  const commit = objects.add('commit', commitText({ tree, parents, author: req.author, time, message: req.message }));
  return { commit, objects, index: { after, before } };
}
