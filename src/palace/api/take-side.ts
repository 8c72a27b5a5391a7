/**
 * "Take the branch's side" of a kept branch, through public calls only: every file the branch changed since
 * it left main gets the branch tip's exact content on main (or is deleted, when the branch deleted it), in
 * one memory_apply_patch commit carrying the user's reason; then the branch is dropped (its tip stays
 * under refs/gitmem/backup/). Never a guess: a file whose content a patch cannot carry byte for byte
 * (carriage returns, a byte-order mark, bytes that are not UTF-8, a memory file without its own
 * description) refuses the whole action, and so does a branch or main that moved since the page looked.
 */
import { isMemoryError, MemoryError, type Memory } from '../../index.js';
import { dropKeptBranch, handleGit, showKeptBranch, tryParseMemoryFile } from '../../internals.js';

export interface TakePlanFile {
  path: string;
  action: 'write' | 'delete';
  /** Why this file cannot be taken exactly (the action is refused while any file has one). */
  problem?: string;
  text?: string;
}

function contentProblem(path: string, text: string): string | undefined {
  if (text.includes('\r')) return 'has carriage returns';
  if (text.startsWith('\uFEFF')) return 'starts with a byte-order mark';
  if (text.includes('\uFFFD')) return 'is not UTF-8 text';
  if (!path.endsWith('.md')) return undefined;
  const data = tryParseMemoryFile(text)?.data;
  if (!data || typeof data['description'] !== 'string' || data['description'].trim() === '')
    return 'has no frontmatter description of its own';
  if (path.endsWith('/SKILL.md') && typeof data['name'] !== 'string') return 'is a skill without a name';
  return undefined;
}

/**
 * What taking the branch would write: each file it changed since the merge base, as of its tip.
 * @example const plan = await planTakeBranch(memory, kept.head, base, kept.files)
 */
export async function planTakeBranch(memory: Memory, head: string, files: readonly string[]): Promise<TakePlanFile[]> {
  const out: TakePlanFile[] = [];
  for (const path of files) {
    let text: string | null;
    try {
      text = (await memory.read(path, { at: head })).text;
    } catch (err) {
      if (!isMemoryError(err, 'FILE_NOT_FOUND')) throw err;
      text = null;
    }
    if (text === null) {
      out.push({ path, action: 'delete' });
      continue;
    }
    const problem = contentProblem(path, text);
    out.push({ path, action: 'write', text, ...(problem ? { problem } : {}) });
  }
  return out;
}

/** The patch writing the plan onto main (`onMain`: the paths main has now). Pure. */
export function takePatch(plan: readonly TakePlanFile[], onMain: ReadonlySet<string>): string {
  const lines = ['*** Begin Patch'];
  for (const f of plan) {
    if (onMain.has(f.path)) lines.push(`*** Delete File: ${f.path}`);
    if (f.action === 'write') {
      lines.push(`*** Add File: ${f.path}`);
      for (const l of (f.text as string).split('\n')) lines.push(`+${l}`);
    }
  }
  lines.push('*** End Patch');
  return lines.join('\n');
}

/**
 * Takes the branch's side: one commit with `reason`, then the branch is dropped.
 * @example await takeBranchSide(memory, { branch: 'gitmem/conflict/…', head, main, reason: 'the laptop was right' })
 */
export async function takeBranchSide(
  memory: Memory,
  o: { branch: string; head: string; main: string; reason: string },
): Promise<{ commit: string; paths: string[]; backupRef: string }> {
  const git = handleGit(memory);
  const kept = await showKeptBranch({ git, memoryDir: memory.memoryDir, branch: o.branch });
  const mainNow = (await memory.files()).commit;
  if (kept.head !== o.head || mainNow !== o.main) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${kept.branch} or main moved since the page showed them; look again before taking a side`,
      { data: { branch: kept.branch } },
    );
  }
  const plan = await planTakeBranch(memory, kept.head, kept.files);
  const refused = plan.filter((f) => f.problem !== undefined);
  if (refused.length > 0) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `cannot take ${kept.branch} exactly: ${refused.map((f) => `${f.path} ${f.problem}`).join('; ')} (merge it by hand)`,
      { data: { paths: refused.map((f) => f.path) } },
    );
  }
  const onMain = new Set((await memory.files()).files.map((f) => f.path));
  if (plan.length === 0 || plan.every((f) => f.action === 'delete' && !onMain.has(f.path))) {
    throw new MemoryError('INVALID_ARGUMENT', `${kept.branch} changes nothing main lacks: drop it instead`, {
      data: { branch: kept.branch },
    });
  }
  const written = await memory.applyPatch({
    patch: takePatch(
      plan.filter((f) => f.action === 'write' || onMain.has(f.path)),
      onMain,
    ),
    reason: o.reason,
  });
  const dropped = await dropKeptBranch({ git, memoryDir: memory.memoryDir, branch: kept.branch });
  return { commit: written.commit, paths: written.paths, backupRef: dropped.backupRef };
}
