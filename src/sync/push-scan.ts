/**
 * The secret scan before a push: every commit about to leave (on main, not on any of origin's refs) is
 * scanned for credentials in the lines it adds and in its message — the same rules and allow list as the validator — so a commit
 * made with `--no-verify` (which skipped the hook) is refused before it reaches the remote. Two git calls: one
 * `log --raw` for every commit's changed blobs, one `cat-file --batch` for their contents.
 */
import type { FileChange } from '../blocks/validate.js';
import { scanText } from '../blocks/secrets.js';
import { secretProblem, secretProblems } from '../blocks/validate-content.js';
import { MemoryError } from '../errors.js';
import { parseRawDiff, type RawDiffEntry } from '../git/commands/diff-raw.js';
import { catFileBatchOp } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';
import { readAllowedSecrets } from '../hooks/secret-allow.js';

/** A credential in a commit about to be pushed (never the value). */
export interface PushSecret {
  commit: string;
  path: string;
  line: number | undefined;
  rule: string | undefined;
  fingerprint: string | undefined;
  message: string;
}

const REGULAR = /^100[0-7]{3}$/;
const NULL_ID = /^0+$/;
const readable = (mode: string, id: string): boolean => REGULAR.test(mode) && !NULL_ID.test(id);

/** The log format: commit id and message in one NUL-free token (a message cannot hold NUL). */
const LOG_FORMAT = '--format=%x01%H%x02%B%x03';

/**
 * Splits `log --format=%x01%H%x02%B%x03 -z --raw` output into commits, their messages and raw entries.
 * Positional: after a `:` header come its one or two paths, so a path is never taken for a commit line.
 * @example parseLogRaw('\x01abc\x02msg\x03\0\n:000000 100644 000 123 A\0a.md\0') // [{ commit: 'abc', message: 'msg', entries: [...] }]
 */
export function parseLogRaw(stdout: string): Array<{ commit: string; message: string; entries: RawDiffEntry[] }> {
  const tokens = stdout.split('\0');
  const out: Array<{ commit: string; message: string; parts: string[] }> = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = (tokens[i] ?? '').replace(/^\n/, '');
    if (t.startsWith('\x01')) {
      const sep = t.indexOf('\x02');
      const end = t.lastIndexOf('\x03');
      out.push({
        commit: t.slice(1, sep === -1 ? undefined : sep).trim(),
        message: sep === -1 ? '' : t.slice(sep + 1, end > sep ? end : undefined),
        parts: [],
      });
    } else if (t.startsWith(':') && out.length > 0) {
      const two = /^:\S+ \S+ \S+ \S+ [RC]/.test(t);
      out.at(-1)?.parts.push(t, ...tokens.slice(i + 1, i + (two ? 3 : 2)));
      i += two ? 2 : 1;
    }
  }
  return out.map((c) => ({ commit: c.commit, message: c.message, entries: parseRawDiff(`${c.parts.join('\0')}\0`) }));
}

function toChange(e: RawDiffEntry, blob: (id: string) => string | null): FileChange | null {
  if (e.status === 'D' || !readable(e.newMode, e.newId)) return null;
  const content = blob(e.newId);
  const old =
    e.status === 'M' || e.status === 'T' || e.status === 'R'
      ? readable(e.oldMode, e.oldId)
        ? blob(e.oldId)
        : null
      : null;
  if (e.status === 'R') return { status: 'renamed', path: e.path, oldPath: e.oldPath ?? '', content, headContent: old };
  return { status: old === null ? 'added' : 'modified', path: e.path, content, headContent: old };
}

/**
 * The credentials the commits on `HEAD` that origin does not have add, oldest commit first.
 * @example const found = await findSecretsToPush(git, memoryDir)
 */
export async function findSecretsToPush(git: GitRunner, cwd: string, signal?: AbortSignal): Promise<PushSecret[]> {
  return findSecretsIn(git, cwd, ['HEAD', '--not', '--remotes=origin'], signal);
}

/**
 * The credentials the commits `revs` name add (in their files or their messages), oldest commit first.
 * @example const found = await findSecretsIn(git, memoryDir, [remoteTip, '--not', 'HEAD'])
 */
export async function findSecretsIn(
  git: GitRunner,
  cwd: string,
  revs: readonly string[],
  signal?: AbortSignal,
): Promise<PushSecret[]> {
  const opts = { cwd, signal };
  const args = [
    'log',
    '--reverse',
    LOG_FORMAT,
    '-z',
    '--raw',
    '-M',
    '--no-abbrev',
    '--no-ext-diff',
    '--no-textconv',
    '--diff-merges=first-parent',
    ...revs,
  ];
  const commits = parseLogRaw((await git.run(args, opts)).stdout);
  const ids = new Set<string>();
  for (const c of commits) {
    for (const e of c.entries) {
      if (e.status !== 'D' && readable(e.newMode, e.newId)) ids.add(e.newId);
      if ((e.status === 'M' || e.status === 'T' || e.status === 'R') && readable(e.oldMode, e.oldId)) ids.add(e.oldId);
    }
  }
  const wanted = [...ids];
  const blobs = wanted.length === 0 ? [] : await git.exec(catFileBatchOp(wanted), opts);
  const byId = new Map(wanted.map((id, i) => [id, blobs[i] ?? null]));
  const allowed = readAllowedSecrets(cwd);
  const found: PushSecret[] = [];
  for (const c of commits) {
    const changes = c.entries
      .map((e) => toChange(e, (id) => byId.get(id) ?? null))
      .filter((x): x is FileChange => x !== null);
    const inMessage = scanText(c.message, { allowed }).map((f) => secretProblem('(commit message)', f));
    for (const p of [...inMessage, ...secretProblems(changes, allowed)]) {
      found.push({
        commit: c.commit,
        path: p.path,
        line: p.line,
        rule: p.rule,
        fingerprint: p.fingerprint,
        message: p.message,
      });
    }
  }
  return found;
}

/**
 * Refuses a push whose commits add a credential: SECRET_DETECTED naming commit, file, line and rule.
 * @example await assertNoSecretsToPush(git, memoryDir)
 */
export async function assertNoSecretsToPush(git: GitRunner, cwd: string, signal?: AbortSignal): Promise<void> {
  const found = await findSecretsToPush(git, cwd, signal);
  if (found.length === 0) return;
  const lines = found
    .slice(0, 100)
    .map((f) => `commit ${f.commit.slice(0, 12)} ${f.path}${f.line === undefined ? '' : `:${f.line}`}: ${f.message}`);
  if (found.length > 100) lines.push(`… and ${found.length - 100} more`);
  const first = found[0];
  throw new MemoryError(
    'SECRET_DETECTED',
    `sync: nothing was pushed — commit ${first?.commit.slice(0, 12)} (committed without gitmem's scan, e.g. with --no-verify) adds what looks like a credential; remove it from the unpushed history (e.g. \`git rebase -i\`) before syncing:\n  ${lines.join('\n  ')}`,
    { data: { secrets: found.map(({ message: _message, ...rest }) => rest) } },
  );
}
