/**
 * The mirror's push log, `.git/gitmem-mirror.log`: one entry per push (the post-commit hook's and
 * `gitmem mirror push`'s), kept under ~256 KiB, and read back as "the last push's result".
 */
import { appendFileSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIRROR_LOG } from '../hooks/post-commit.js';
import { redactText } from '../git/redact.js';

/** Who pushed: the post-commit hook after a commit on main, or `gitmem mirror push`. */
export type MirrorTrigger = 'post-commit' | 'mirror push';

/** One push as the log records it. */
export interface MirrorLogEntry {
  /** Local time with offset, e.g. `2026-12-01T12:00:00+0000`. */
  at: string;
  /** Short id of the commit main was at. */
  commit: string;
  branch: string;
  trigger: MirrorTrigger;
  ok: boolean;
  /** git's (redacted) output, or the one-line reason it failed. */
  output: string;
}

const MAX_LOG_BYTES = 262_144;
const KEEP_LINES = 400;
// `--- <at> <sha> on <branch> ---` (hook) or `--- … on <branch> (gitmem mirror push) ---`.
const HEADER = /^--- (\S+) (\S*) on (\S+?)( \(gitmem mirror push\))? ---$/;

/** `date +%Y-%m-%dT%H:%M:%S%z`, as the shell hook writes it. */
function localStamp(d: Date): string {
  const pad = (n: number): string => String(Math.trunc(Math.abs(n))).padStart(2, '0');
  const off = -d.getTimezoneOffset();
  const zone = `${off >= 0 ? '+' : '-'}${pad(off / 60)}${pad(off % 60)}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${zone}`;
}

/**
 * Appends one push to the log (redacting `secrets` and every credential pattern), first trimming a log
 * grown past ~256 KiB to its last 400 lines.
 * @example appendMirrorLog(gitDir, { commit: 'abc1234', branch: 'main', trigger: 'post-commit', ok: true, output: '' }, [])
 */
export function appendMirrorLog(
  gitDir: string,
  e: Omit<MirrorLogEntry, 'at'>,
  secrets: readonly string[],
  now = new Date(),
): void {
  const file = join(gitDir, MIRROR_LOG);
  try {
    if (statSync(file).size > MAX_LOG_BYTES) {
      const tail = readFileSync(file, 'utf8').split('\n').slice(-KEEP_LINES).join('\n');
      const tmp = `${file}.${process.pid}.tmp`; // two pushes may trim at once
      writeFileSync(tmp, tail);
      renameSync(tmp, file);
    }
  } catch {
    // no log yet
  }
  const label = e.trigger === 'mirror push' ? ' (gitmem mirror push)' : '';
  // The whole entry, not only git's output: nothing reaches the file around the one redaction.
  appendFileSync(
    file,
    redactText(`\n--- ${localStamp(now)} ${e.commit} on ${e.branch}${label} ---\n${e.output}\nexit=${e.ok ? 0 : 1}\n`, [
      ...secrets,
    ]),
  );
}

/**
 * The last complete entry of a log's text, or null (nothing pushed yet, or a push still running).
 * @example lastMirrorPush('\n--- 2026-12-01T12:00:00+0000 abc1234 on main ---\n\nexit=0\n')?.ok === true
 */
export function lastMirrorPush(text: string): MirrorLogEntry | null {
  const lines = text.split('\n');
  let end = lines.length - 1;
  while (end >= 0 && !/^exit=\d+$/.test(lines[end] ?? '')) end--;
  let start = end - 1;
  while (start >= 0 && !HEADER.test(lines[start] ?? '')) start--;
  if (end < 0 || start < 0) return null;
  const h = HEADER.exec(lines[start] ?? '');
  if (!h) return null;
  return {
    at: h[1] ?? '',
    commit: h[2] ?? '',
    branch: h[3] ?? '',
    trigger: h[4] ? 'mirror push' : 'post-commit',
    ok: lines[end] === 'exit=0',
    output: redactText(
      lines
        .slice(start + 1, end)
        .join('\n')
        .trim(),
    ),
  };
}

/** The log's text ('' when nothing was pushed yet). */
export function readMirrorLog(gitDir: string): string {
  const file = join(gitDir, MIRROR_LOG);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}
