/**
 * The validator's two data shapes, below both validate.ts and validate-content.ts so neither imports the
 * other's types (no import cycle); validate.ts re-exports them for every other caller.
 */

/** One changed path. `content`/`headContent` are null when the file is absent on that side. */
export interface FileChange {
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  path: string;
  /** For renames: the path it came from. */
  oldPath?: string;
  content: string | null;
  /** Content at HEAD of `path` (or of `oldPath` for renames); null when new. */
  headContent: string | null;
  /**
   * git mode of the new side (`100644`, `100755`, `120000` link, `160000` gitlink). Absent means a regular
   * file: the memory tool only ever writes those. Content is not needed (may be null) for a link or gitlink.
   */
  mode?: string;
}

/** One broken rule: the path it is about and what is wrong. */
export interface Problem {
  path: string;
  message: string;
  /** The error code a refusal for this problem carries, when it is not plain VALIDATION_FAILED. */
  code?: 'SECRET_DETECTED' | 'BUDGET_EXCEEDED';
  /** 1-based line of the new content the problem is on. */
  line?: number;
  /** SECRET_DETECTED: the rule and the value's fingerprint (never the value). */
  rule?: string;
  fingerprint?: string;
}
