/**
 * `git log` of memory as a value: each commit with its parents, author, full message and the files it
 * changed (status, old path of a rename), in one spawn. A merge lists what it brought to its first parent.
 * Fields are NUL-separated, so a message or a path holding any other byte cannot shift the parse.
 */
import type { GitOp } from '../runner.js';

/** One file a commit changed: git's status letter (A, M, D, R, C, T) and, for R/C, where it came from. */
export interface HistoryFile {
  status: string;
  path: string;
  oldPath?: string;
}

export interface HistoryCommit {
  sha: string;
  parents: string[];
  /** Author date, ISO 8601. */
  date: string;
  author: string;
  email: string;
  /** The full message (the writer's reason), trailing newlines removed. */
  message: string;
  files: HistoryFile[];
}

export interface HistoryQuery {
  /** Where to start (a commit id; default HEAD). */
  rev?: string;
  limit: number;
  /** Commits to pass over first (`--skip`): the next page of a long history. */
  skip?: number;
  /** Passed as `--since=` (already checked by the caller: git reads any text as some date). */
  since?: string;
  /** One path: its history; `follow` follows renames (a single file only). */
  path?: string;
  follow?: boolean;
}

// eslint-disable-next-line no-control-regex -- the record separator git is asked to print
const HEADER = /^\n?\x1e([0-9a-f]{40}(?:[0-9a-f]{24})?)$/;
const STATUS = /^\n?([AMDTUXB]|[RC]\d{0,3})$/;

/**
 * Parses the output of {@link historyOp}. Pure.
 * @example parseHistory('\x1e<sha>\0\0<date>\0Ann\0a@x\0why\n\0\nA\0a.md\0')[0].files // [{ status: 'A', path: 'a.md' }]
 */
export function parseHistory(stdout: string): HistoryCommit[] {
  const tokens = stdout.split('\0');
  const out: HistoryCommit[] = [];
  let current: HistoryCommit | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    const header = HEADER.exec(t);
    if (header) {
      const [parents = '', date = '', author = '', email = '', message = ''] = tokens.slice(i + 1, i + 6);
      current = {
        sha: header[1] as string,
        parents: parents.split(' ').filter((p) => p !== ''),
        date,
        author,
        email,
        message: message.replace(/\n+$/, ''),
        files: [],
      };
      out.push(current);
      i += 5;
      continue;
    }
    const status = STATUS.exec(t);
    if (!status || !current) continue;
    const letter = (status[1] as string).slice(0, 1);
    if (letter === 'R' || letter === 'C') {
      current.files.push({ status: letter, oldPath: tokens[i + 1] ?? '', path: tokens[i + 2] ?? '' });
      i += 2;
    } else {
      current.files.push({ status: letter, path: tokens[i + 1] ?? '' });
      i += 1;
    }
  }
  return out;
}

/**
 * The history op. `--follow` only with a single file path (git's own restriction).
 * @example git.exec(historyOp({ limit: 20, path: 'notes/a.md', follow: true }), { cwd })
 */
export function historyOp(q: HistoryQuery): GitOp<HistoryCommit[]> {
  const args = [
    'log',
    '-z',
    `-n${Math.max(1, Math.floor(q.limit))}`,
    '--diff-merges=first-parent',
    '--name-status',
    '-M',
    '--no-abbrev',
  ];
  args.push('--format=%x1e%H%x00%P%x00%aI%x00%an%x00%ae%x00%B');
  if (q.skip !== undefined && q.skip > 0) args.push(`--skip=${Math.floor(q.skip)}`);
  if (q.since !== undefined) args.push(`--since=${q.since}`);
  if (q.path !== undefined && q.follow) args.push('--follow');
  args.push('--end-of-options', q.rev ?? 'HEAD');
  if (q.path !== undefined) args.push('--', q.path);
  return { args, parse: (r) => parseHistory(r.stdout) };
}
