/**
 * Which commit a caller's `at` names: a commit id, a branch, a revision expression (`HEAD~3`, `main^2`),
 * an ISO date or `@{<date>}` (the last commit on HEAD at or before it). Strict, because git reads almost
 * any text as some date (`--before=garbage` means "now") and a word starting with `-` as an option.
 */
import { MemoryError } from '../errors.js';
import type { GitOp, GitRunner } from './runner.js';

/** Longest `at` accepted (a revision expression, not a document). */
export const MAX_REVISION_LENGTH = 256;
const MAX_AT = MAX_REVISION_LENGTH;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const RELATIVE = /^(\d{1,6})[ .](second|minute|hour|day|week|month|year)s?[ .]ago$/;
const REFLOG_FORM = /^@\{(.+)\}$/;
// `@{1}`, `@{-1}`, `@{u}`… are reflog / branch forms, not dates: rev-parse reads them.
const NOT_A_DATE = /^(?:-?\d+|u|upstream|push)$/i;

/**
 * The date `text` means as a value for git's `--before=` / `--since=`, or undefined when it is no date
 * gitmem accepts (ISO 8601, `<n> <unit>s ago`, yesterday, today, now). A bare day means its end
 * (`2025-01-02` = at or before 2025-01-02 23:59:59, local time). Pure.
 * @example parseDateSpec('2025-01-02') // '2025-01-02 23:59:59'
 */
export function parseDateSpec(text: string): string | undefined {
  const t = text.trim();
  if (DATE_ONLY.test(t)) return `${t} 23:59:59`;
  if (ISO_DATE.test(t)) return t;
  const rel = RELATIVE.exec(t.toLowerCase());
  if (rel) return `${rel[1]}.${rel[2]}s.ago`;
  const word = t.toLowerCase();
  return word === 'yesterday' || word === 'now' || word === 'today' ? word : undefined;
}

/** What `at` asks for: a date to look up on HEAD, or a revision expression for rev-parse. Pure. */
export function classifyRevision(at: unknown): { date: string } | { rev: string } {
  if (typeof at !== 'string' || at.trim() === '')
    throw new MemoryError('INVALID_ARGUMENT', "'at' must be a non-empty revision (a sha, a branch, HEAD~3 or a date)", {
      data: { field: 'at' },
    });
  const refuse = (why: string): never => {
    throw new MemoryError('INVALID_ARGUMENT', `'at' ${why}`, { data: { field: 'at', value: at.slice(0, 80) } });
  };
  if (at.length > MAX_AT) refuse(`is ${at.length} characters long (at most ${MAX_AT})`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(at)) refuse('contains control characters');
  const text = at.trim();
  if (text.startsWith('-')) refuse(`looks like an option: ${JSON.stringify(text.slice(0, 80))}`);
  const inner = REFLOG_FORM.exec(text)?.[1];
  if (inner !== undefined && !NOT_A_DATE.test(inner.trim())) {
    const date = parseDateSpec(inner);
    if (date === undefined) {
      throw new MemoryError(
        'UNKNOWN_REVISION',
        `unknown date in ${JSON.stringify(text)} (use an ISO date such as 2025-01-02T10:00, or "3 days ago")`,
        { data: { at: text } },
      );
    }
    return { date };
  }
  const date = parseDateSpec(text);
  return date !== undefined ? { date } : { rev: text };
}

function revParseCommitOp(rev: string): GitOp<string | null> {
  return {
    args: ['rev-parse', '--verify', '-q', '--end-of-options', `${rev}^{commit}`],
    okExitCodes: [1, 128],
    parse: (r) => (r.exitCode === 0 && /^[0-9a-f]{40,64}$/.test(r.stdout.trim()) ? r.stdout.trim() : null),
  };
}

function lastCommitBeforeOp(date: string): GitOp<string | null> {
  return {
    // First parent: main's own line, so a worker's side commit dated earlier never stands for main's state then.
    args: ['rev-list', '-1', '--first-parent', `--before=${date}`, '--end-of-options', 'HEAD'],
    okExitCodes: [128],
    parse: (r) => (r.exitCode === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : null),
  };
}

/**
 * The commit id `at` names in the repository at `memoryDir`; UNKNOWN_REVISION when there is none (also
 * for a date before the first commit), INVALID_ARGUMENT for input that is no revision at all.
 * @example await resolveRevision(git, memoryDir, 'HEAD~3') // 'e6a8099…'
 * @example await resolveRevision(git, memoryDir, '2025-01-02T10:00') // the last commit at or before it
 */
export async function resolveRevision(git: GitRunner, memoryDir: string, at: string): Promise<string> {
  const what = classifyRevision(at);
  const id =
    'date' in what
      ? await git.exec(lastCommitBeforeOp(what.date), { cwd: memoryDir })
      : await git.exec(revParseCommitOp(what.rev), { cwd: memoryDir });
  if (id === null) {
    const message =
      'date' in what
        ? `no commit at or before ${at.trim()}`
        : `unknown revision ${JSON.stringify(at.trim().slice(0, 80))}`;
    throw new MemoryError('UNKNOWN_REVISION', message, { data: { at: at.trim().slice(0, 80) } });
  }
  return id;
}
