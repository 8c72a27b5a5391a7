/**
 * The pre-commit check over the staged snapshot: gathers every staged change (renames detected) with its
 * staged and HEAD content in two git calls, and hands them to the shared validator.
 */
import { validateChanges, type FileChange } from '../blocks/validate.js';
import { catFileBatchOp } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';

interface StagedPath {
  letter: string;
  path: string;
  oldPath?: string;
}

/** Parses `git diff --cached --name-status -z -M` output. Pure. */
export function parseNameStatus(stdout: string): StagedPath[] {
  const parts = stdout.split('\0');
  const out: StagedPath[] = [];
  for (let i = 0; i < parts.length; i++) {
    const status = parts[i];
    if (!status) continue;
    const letter = status[0] as string;
    if (letter === 'R' || letter === 'C') {
      out.push({ letter, oldPath: parts[i + 1] ?? '', path: parts[i + 2] ?? '' });
      i += 2;
    } else {
      out.push({ letter, path: parts[i + 1] ?? '' });
      i += 1;
    }
  }
  return out;
}

/** Collects the staged changes as validator input. */
export async function collectStagedChanges(git: GitRunner, cwd: string): Promise<FileChange[]> {
  const diff = await git.run(['diff', '--cached', '--name-status', '-z', '-M', '--no-ext-diff'], { cwd });
  const staged = parseNameStatus(diff.stdout);
  if (staged.length === 0) return [];
  const specs: string[] = [];
  for (const s of staged) specs.push(`:${s.path}`, `HEAD:${s.oldPath ?? s.path}`);
  const blobs = await git.exec(catFileBatchOp(specs), { cwd });
  return staged.map((s, i): FileChange => {
    const content = s.letter === 'D' ? null : (blobs[2 * i] ?? null);
    const headContent = blobs[2 * i + 1] ?? null;
    if (s.letter === 'R') return { status: 'renamed', path: s.path, oldPath: s.oldPath ?? '', content, headContent };
    if (s.letter === 'D') return { status: 'deleted', path: s.path, content: null, headContent };
    if (s.letter === 'A' || s.letter === 'C') return { status: 'added', path: s.path, content, headContent: null };
    return { status: 'modified', path: s.path, content, headContent };
  });
}

/**
 * Runs the pre-commit rule set in `cwd`; returns the problems (empty = commit may proceed).
 * @example const problems = await runPreCommit(git, process.cwd())
 */
export async function runPreCommit(git: GitRunner, cwd: string): Promise<string[]> {
  return validateChanges(await collectStagedChanges(git, cwd));
}

/** The text a rejected commit prints. */
export function formatPreCommitFailure(problems: readonly string[]): string {
  return `Frontmatter validation failed:\n${problems.map((p) => `  ${p}`).join('\n')}\n`;
}
