/**
 * Memory history: who changed what, when, and why (the commit message is the writer's reason).
 */
import type { GitOp } from '../git/runner.js';

export interface LogEntry {
  sha: string;
  date: string;
  author: string;
  email: string;
  /** Full commit message (the reason). */
  reason: string;
  files: string[];
}

const RS = '\x1e';
const US = '\x1f';

/** Parses the output of {@link logOp}. Pure. */
export function parseLog(stdout: string): LogEntry[] {
  return stdout
    .split(RS)
    .map((chunk) => chunk.replace(/^\n+/, ''))
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const [sha = '', date = '', author = '', email = '', reason = '', rest = ''] = chunk.split(US);
      const files = rest
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
      return { sha, date, author, email, reason: reason.trim(), files };
    });
}

/** `git log` of the last `limit` commits with their files. */
export function logOp(limit: number): GitOp<LogEntry[]> {
  return {
    args: [
      'log',
      `-n${Math.max(1, Math.floor(limit))}`,
      '--name-only',
      `--format=${RS}%H${US}%aI${US}%an${US}%ae${US}%B${US}`,
    ],
    parse: (r) => parseLog(r.stdout),
  };
}
