/**
 * The auto-memory hooks (`gitmem hook claude-code pre-write | post-write | auto-memory-start`): Claude Code's
 * own Write/Edit/MultiEdit into the gitmem checkout obey gitmem's rules. Before a write, the file it would leave
 * is staged in a private index beside the repository's and judged by the pre-commit rule set (the one
 * validator, with the protected list, the secret allow list and the budgets); a refusal is Claude Code's
 * `deny` with the validator's first line. After it, the path alone is committed (the pre-commit hook judges it
 * again) with a reason from the call. At a session start, whatever no hook committed is committed in a commit
 * of its own that says so. Writes outside the checkout are not looked at.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Memory } from '../index.js';
import { agentIdentity } from '../identity.js';
import {
  findPreCommitProblems,
  formatProblem,
  handleGit,
  handleWiring,
  withMemoryOperation,
  type GitRunner,
} from '../internals.js';
import { commitReason, denyOutput, resultingText, strayReason, toolWrite, type ToolWrite } from './auto-memory.js';
import type { HookInput } from './hook-input.js';

/** The file's current text in the checkout (undefined: none); a link or a non-file is refused by the caller. */
function currentText(memoryDir: string, path: string): { text?: string; refusal?: string } {
  const full = join(memoryDir, path);
  let st;
  try {
    st = lstatSync(full);
  } catch {
    return {};
  }
  if (!st.isFile()) return { refusal: `${path}: not a regular file (a link or a directory): gitmem refuses the write` };
  return { text: readFileSync(full, 'utf8') };
}

/** `git` whose every command sees `index` as the index (the real one is never touched). */
function withIndex(git: GitRunner, index: string): GitRunner {
  return {
    ...git,
    run: (args, o) => git.run(args, { ...o, env: { ...o.env, GIT_INDEX_FILE: index } }),
    exec: (op, o) => git.exec(op, { ...o, env: { ...o.env, GIT_INDEX_FILE: index } }),
  };
}

/** The validator's problems with `text` at `path` (HEAD plus this one file, in a private index). */
async function problemsOf(memory: Memory, path: string, text: string): Promise<string[]> {
  const wiring = handleWiring(memory);
  const git = handleGit(memory);
  const cwd = memory.memoryDir;
  const index = join(wiring?.gitDirs.gitDir ?? join(cwd, '.git'), `gitmem-pre-write-${randomBytes(6).toString('hex')}`);
  const staged = withIndex(git, index);
  try {
    const head = await git.run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd, okExitCodes: [0, 1] });
    await staged.run(head.exitCode === 0 ? ['read-tree', 'HEAD'] : ['read-tree', '--empty'], { cwd });
    const blob = (await git.run(['hash-object', '-w', '--stdin'], { cwd, input: text })).stdout.trim();
    await staged.run(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { cwd });
    return (await findPreCommitProblems(staged, cwd, memory.home)).map(formatProblem);
  } finally {
    rmSync(index, { force: true });
  }
}

/**
 * PreToolUse: '' (no decision: Claude Code goes on) unless the call writes into the checkout something the
 * validator refuses; then the deny answer with the first problem (and how many more).
 */
export async function preWrite(memory: Memory, input: HookInput): Promise<string> {
  const write = toolWrite(memory.memoryDir, input.toolName, input.toolInput);
  if (write === undefined) return '';
  const current = currentText(memory.memoryDir, write.path);
  if (current.refusal !== undefined) return denyOutput(`gitmem: ${current.refusal}`);
  const after = resultingText(write, current.text);
  if (after === undefined) return ''; // the edit does not apply: the tool fails on its own, writing nothing
  const problems = await problemsOf(memory, write.path, after);
  if (problems.length === 0) return '';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
  return denyOutput(`gitmem refused this write: ${problems[0] ?? ''}${more}. Nothing was written.`);
}

/** Commits `paths` (all changes when empty) under the write lease; false when there was nothing to commit. */
export async function commitPaths(memory: Memory, paths: readonly string[], reason: string): Promise<boolean> {
  const git = handleGit(memory);
  const cwd = memory.memoryDir;
  const who = agentIdentity(memory.agentId);
  return withMemoryOperation(
    cwd,
    async () => {
      await git.run(['add', '-A', '--', ...(paths.length ? paths : ['.'])], { cwd });
      const diff = await git.run(['diff', '--cached', '--quiet', '--', ...paths], { cwd, okExitCodes: [0, 1] });
      if (diff.exitCode === 0) return false;
      const config = [`user.name=${who.name}`, `user.email=${who.email}`];
      await git.run(['commit', '--quiet', '-m', reason, '--', ...paths], { cwd, config });
      return true;
    },
    { purpose: 'auto-memory commit' },
  );
}

/** PostToolUse: the write into the checkout becomes one commit; a write elsewhere is not looked at. */
export async function postWrite(memory: Memory, input: HookInput): Promise<ToolWrite | undefined> {
  const write = toolWrite(memory.memoryDir, input.toolName, input.toolInput);
  if (write === undefined) return undefined;
  await commitPaths(memory, [write.path], commitReason(write, input.toolInput));
  return write;
}

/** The paths git sees changed or new in the checkout (ignored files excluded). */
async function strayPaths(memory: Memory): Promise<string[]> {
  const out = await handleGit(memory).run(['status', '--porcelain', '-z', '--untracked-files=all'], {
    cwd: memory.memoryDir,
  });
  const paths: string[] = [];
  const fields = out.stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] ?? '';
    if (f.length < 4) continue;
    paths.push(f.slice(3));
    if (f[0] === 'R' || f[0] === 'C') i++; // the rename's source follows
  }
  return paths;
}

/**
 * SessionStart: commits what no PostToolUse hook committed, in a commit of its own whose reason says so;
 * the paths committed (empty: all was committed already).
 */
export async function commitStray(memory: Memory): Promise<string[]> {
  const paths = await strayPaths(memory);
  if (paths.length === 0) return [];
  return (await commitPaths(memory, [], strayReason(paths))) ? paths : [];
}
