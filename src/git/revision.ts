/**
 * One rule for what an `at` / `from` / `to` argument names: any git revision (sha, branch, `HEAD~3`,
 * `main@{2}`, `main@{2024-01-05}` — the reflog's answer: where the branch pointed then, on this machine) or an
 * ISO date (`2024-01-05`, `2024-01-05T10:30`, `…Z`, `…+02:00`) → the last commit on HEAD's first-parent line
 * whose committer date is at or before that instant (`rev-list -1 --first-parent --before`), i.e. what main
 * held then, wherever it was cloned. A date alone means the end of that day; a time without a zone is local
 * time (as git reads it). Parsing is pure; resolving is one git call.
 */
import { MemoryError } from '../errors.js';
import type { GitOp, GitRunner } from './runner.js';

/** Longest revision argument accepted (git's own refnames are far shorter in practice). */
export const MAX_REVISION_LENGTH = 256;

/** What a revision argument asks for. */
export type RevisionSpec = { kind: 'rev'; rev: string } | { kind: 'date'; epochMs: number };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
// Control characters (NUL, newlines, escapes) never belong in a revision.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function invalid(at: string, why: string): MemoryError {
  return new MemoryError('INVALID_ARGUMENT', `revision ${JSON.stringify(at.slice(0, 80))} ${why}`, { data: { at: at.slice(0, MAX_REVISION_LENGTH) } });
}

function zoneOffsetMinutes(zone: string): number {
  if (zone === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return zone.startsWith('-') ? -minutes : minutes;
}

/** The instant an ISO date names, or null when it is not one; a calendar-impossible date throws. */
function parseIsoDate(at: string): number | null {
  const m = ISO_DATE.exec(at);
  if (m === null) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dateOnly = m[4] === undefined;
  const [h, mi, s] = dateOnly ? [23, 59, 59] : [Number(m[4]), Number(m[5]), Number(m[6] ?? '0')];
  const ms = dateOnly ? 999 : Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3));
  const zone = m[8];
  // Build from fields, then read the fields back: a rolled-over date (Feb 30, 25:00) does not round-trip.
  const local = zone === undefined;
  const probe = local ? new Date(y, mo - 1, d, h, mi, s, ms) : new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
  const fields = local
    ? [probe.getFullYear(), probe.getMonth() + 1, probe.getDate(), probe.getHours(), probe.getMinutes(), probe.getSeconds()]
    : [probe.getUTCFullYear(), probe.getUTCMonth() + 1, probe.getUTCDate(), probe.getUTCHours(), probe.getUTCMinutes(), probe.getUTCSeconds()];
  if (fields.join() !== [y, mo, d, h, mi, s].join()) throw invalid(at, 'is not a valid date');
  return local ? probe.getTime() : probe.getTime() - zoneOffsetMinutes(zone) * 60_000;
}

/**
 * Classifies a revision argument (pure). Refuses what could be read as an option or carries control bytes.
 * @example parseRevision('HEAD~3') // { kind: 'rev', rev: 'HEAD~3' }
 * @example parseRevision('2024-01-05') // { kind: 'date', epochMs: <end of that day, local time> }
 */
export function parseRevision(at: unknown): RevisionSpec {
  if (typeof at !== 'string') throw new MemoryError('INVALID_ARGUMENT', 'revision must be a string', { data: { at: typeof at } });
  if (at.trim() === '') throw invalid(at, 'is empty');
  if (at.length > MAX_REVISION_LENGTH) throw invalid(at, `is longer than ${MAX_REVISION_LENGTH} characters`);
  if (CONTROL.test(at)) throw invalid(at, 'contains control characters');
  if (at.startsWith('-')) throw invalid(at, 'must not start with "-"');
  const epochMs = parseIsoDate(at);
  return epochMs === null ? { kind: 'rev', rev: at } : { kind: 'date', epochMs };
}

/** git's unambiguous date form, in UTC, for an instant: `2024-01-05 10:30:00 +0000`. */
export function gitDate(epochMs: number): string {
  return `${new Date(Math.floor(epochMs / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ')} +0000`;
}

/** The git op that answers a spec with a commit id, or null when nothing matches (pure). */
export function revisionOp(spec: RevisionSpec): GitOp<string | null> {
  const parse = (r: { exitCode: number; stdout: string }): string | null => {
    const id = r.stdout.trim();
    return r.exitCode === 0 && /^[0-9a-f]{40,64}$/.test(id) ? id : null;
  };
  if (spec.kind === 'date') {
    // No first-parent commit that early (or no HEAD at all) prints nothing; rev-list fails only without HEAD.
    return { args: ['rev-list', '-1', '--first-parent', `--before=${gitDate(spec.epochMs)}`, 'HEAD', '--'], okExitCodes: [128], parse };
  }
  return { args: ['rev-parse', '--verify', '-q', '--end-of-options', `${spec.rev}^{commit}`], okExitCodes: [1, 128], parse };
}

/**
 * Resolves a revision argument (default HEAD) to the commit id it names in the memory repository.
 * Throws INVALID_ARGUMENT for a malformed argument and UNKNOWN_REVISION when it names no commit
 * (including HEAD of a repository with no commit yet).
 * @example await resolveRevision(git, memoryDir, 'HEAD~1') // '07a1f3f1…'
 */
export async function resolveRevision(git: GitRunner, memoryDir: string, at: unknown = 'HEAD'): Promise<string> {
  const spec = parseRevision(at);
  const id = await git.exec(revisionOp(spec), { cwd: memoryDir });
  if (id === null) {
    const what = spec.kind === 'date' ? `no commit at or before ${gitDate(spec.epochMs)}` : 'names no commit';
    throw new MemoryError('UNKNOWN_REVISION', `revision ${JSON.stringify(at)}: ${what}`, { data: { at } });
  }
  return id;
}
