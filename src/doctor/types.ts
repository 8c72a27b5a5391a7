/** The contract of one doctor check: what it may read, what it reports, what its repair did. */
import type { GitRunner } from '../git/runner.js';
import type { GitCredentials } from '../sync/credentials.js';

export interface DoctorContext {
  git: GitRunner;
  memoryDir: string;
  /** The repository's common git dir. */
  gitDir: string;
  home: string;
  env: Record<string, string | undefined>;
  /** The sync credentials, if any (read on first use). */
  credentials: () => GitCredentials | undefined;
  /** HEAD's commit, or null in a repository without one. */
  head: string | null;
  now: () => number;
}

export type CheckStatus = 'ok' | 'problem';

/** What a check found: one line for a person, details (one per finding) for the curious and for --json. */
export interface CheckFinding {
  status: CheckStatus;
  line: string;
  details?: string[];
}

export interface DoctorCheck {
  /** What is checked, in a few words. */
  title: string;
  run(ctx: DoctorContext): Promise<CheckFinding>;
  /** Repairs what is safe to repair; returns what it did, one line each. Absent: nothing here is safe to repair. */
  fix?(ctx: DoctorContext): Promise<string[]>;
}

export const ok = (line: string, details: string[] = []): CheckFinding => ({
  status: 'ok',
  line,
  ...(details.length > 0 ? { details } : {}),
});
export const problem = (line: string, details: string[] = []): CheckFinding => ({
  status: 'problem',
  line,
  ...(details.length > 0 ? { details } : {}),
});

/** At most this many details per check: a repository with 10,000 broken links prints a count, not a flood. */
export const MAX_DETAILS = 50;

export function capped(details: readonly string[]): string[] {
  return details.length <= MAX_DETAILS
    ? [...details]
    : [...details.slice(0, MAX_DETAILS), `… and ${details.length - MAX_DETAILS} more`];
}
