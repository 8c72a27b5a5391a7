/**
 * Two trees compared as values: the unified diff text a person reads, and per-file line counts. Renames
 * are detected; external diff drivers, text conversion and colour never run, so the text is git's own.
 */
import type { GitOp } from '../runner.js';

/** The environment for commands given a user's path: `*`, `:(…)` and friends mean themselves. */
export const LITERAL_PATHSPECS: Readonly<Record<string, string>> = Object.freeze({ GIT_LITERAL_PATHSPECS: '1' });

const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '-M', '--no-abbrev'];

/** `git diff <from> <to> [-- path]` as text (`from` null = the empty tree). */
export function unifiedDiffOp(from: string, to: string, path?: string): GitOp<string> {
  return {
    args: ['diff', ...DIFF_FLAGS, '--end-of-options', from, to, ...(path !== undefined ? ['--', path] : [])],
    parse: (r) => r.stdout,
  };
}

export interface NumstatEntry {
  path: string;
  oldPath?: string;
  /** Null for a binary file. */
  additions: number | null;
  deletions: number | null;
}

/**
 * Parses `diff --numstat -z` output (`<a>\t<d>\t<path>\0` or, for a rename, `<a>\t<d>\t\0<old>\0<new>\0`). Pure.
 * @example parseNumstat('1\t0\ta.md\0')[0] // { path: 'a.md', additions: 1, deletions: 0 }
 */
export function parseNumstat(stdout: string): NumstatEntry[] {
  const parts = stdout.split('\0');
  const out: NumstatEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const m = /^\n?(\d+|-)\t(\d+|-)\t(.*)$/s.exec(parts[i] as string);
    if (!m) continue;
    const count = (v: string | undefined): number | null => (v === '-' || v === undefined ? null : Number(v));
    const [additions, deletions] = [count(m[1]), count(m[2])];
    if (m[3] === '') {
      out.push({ oldPath: parts[i + 1] ?? '', path: parts[i + 2] ?? '', additions, deletions });
      i += 2;
    } else {
      out.push({ path: m[3] as string, additions, deletions });
    }
  }
  return out;
}

/** `git diff --numstat -z <from> <to> [-- path]`. */
export function numstatOp(from: string, to: string, path?: string): GitOp<NumstatEntry[]> {
  return {
    args: [
      'diff',
      '--numstat',
      '-z',
      ...DIFF_FLAGS,
      '--end-of-options',
      from,
      to,
      ...(path !== undefined ? ['--', path] : []),
    ],
    parse: (r) => parseNumstat(r.stdout),
  };
}
