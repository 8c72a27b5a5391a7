/**
 * The shapes of a memory write: the edits, the request and its composed draft. They sit below edits.ts so the
 * write's parts (prepare-write.ts, file-staging.ts, rollback.ts) type their arguments without importing the
 * file that runs them (no import cycle); edits.ts re-exports them for every other caller.
 */
import type { GitDirs } from '../git/common-dir.js';
import type { SystemBudget } from '../blocks/validate-content.js';
import type { ComposedCommit } from '../git/compose-commit.js';
import type { Identity } from '../identity.js';
import type { BaseTrees } from '../git/tree-edit.js';

/** One file's change. `before`/`after` null = absent. `renamedFrom` marks the destination of a move. */
export interface FileEdit {
  file: string;
  /** Text, or raw bytes for non-text assets (kept byte-exact for rollback). */
  before: string | Buffer | null;
  after: string | Buffer | null;
  renamedFrom?: string;
}

export interface CommitEditsRequest {
  memoryDir: string;
  edits: readonly FileEdit[];
  message: string;
  author: Identity;
  /** HEAD (the parent) and its trees along the edited paths. */
  base: BaseTrees;
  date?: Date;
  /** Label for messages, e.g. `memory str_replace`. */
  operation: string;
  /** Test seam: called after each durable step (used to prove crash recovery). */
  onStep?: (step: WriteStep) => void;
  /** The system/ budget and HEAD's system/ total, when the edits grow system/ (see write-budget.ts). */
  systemBudget?: SystemBudget;
  /** Benchmarks only: skip the secret scan. */
  skipSecretScan?: boolean;
  /** Survive a power loss once acknowledged (fsync of objects, journal, files, index, ref); default true. */
  durable?: boolean;
  /** An operator's write: these paths' read_only protection is lifted (see ValidationOptions.liftProtection). */
  liftProtection?: ReadonlySet<string>;
  /** The repository's git dirs, found once by the caller (absent: found here, once per use). */
  gitDirs?: GitDirs;
}

/** The durable steps of a write, in order. */
export type WriteStep = 'objects' | 'journaled' | 'files' | 'published';

/** A write checked and composed in memory, ready to apply (see draftEdits). */
export interface Draft {
  req: CommitEditsRequest;
  effective: FileEdit[];
  paths: string[];
  composed: ComposedCommit;
}
