/** What the conflict operations need from the composition root, and what they return. */
import type { GitRunner } from '../git/runner.js';
import type { Author } from './land.js';

export interface ConflictDeps {
  git: GitRunner;
  memoryDir: string;
  /** Author and committer of resolution commits. */
  author: Author;
  /** The configured home: where the config file (models, the system/ budget) is read. */
  home: string;
  env: Record<string, string | undefined>;
  clock?: () => Date;
}

export interface ResolveResult {
  /** The kept branch that was resolved. */
  branch: string;
  /** Its tip, now the second parent of `commit`. */
  head: string;
  /** The resolution commit, now HEAD. */
  commit: string;
  /** Paths git could not merge on its own, decided by the resolution. */
  conflicted: string[];
  /** Paths the resolution commit changed in main. */
  changedPaths: string[];
  /** False only when the branch moved after the resolution landed (it is then left as it is). */
  branchRemoved: boolean;
}
