/**
 * Kept branches: local commits that sync (`gitmem/conflict/<time>`) or a background worker
 * (`gitmem/<kind>/<id>`) set aside after a conflict instead of dropping them. A kept branch is a local
 * branch under `gitmem/` that is not merged into main. `gitmem conflicts list|show|drop`.
 */
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { withMemoryOperation } from '../git/lease.js';
import { BACKUP_REF_PREFIX, createUniqueRef } from './refs.js';

/** A branch that keeps local commits a conflict left out of main. */
export interface KeptBranch {
  branch: string;
  /** `conflict` for sync, else the worker kind (`gitmem/<kind>/<id>`). */
  kind: string;
  id: string;
  head: string;
  /** Committer date of the tip, ISO 8601. */
  date: string;
  subject: string;
  /** Commits on the branch that main lacks. */
  commits: number;
  /** Files the branch changes relative to where it left main. */
  files: string[];
}

/** A kept branch with its commits and what it changes against main. */
export interface KeptBranchDetail extends KeptBranch {
  log: Array<{ sha: string; subject: string }>;
  /** `git diff --name-status` lines, e.g. `M\tsystem/human.md`. */
  changes: string[];
}

const SEP = '\x1f';
/** Proposed resolutions of kept branches (src/conflicts/proposals.ts) live beside them, but are not kept work. */
const PROPOSAL_BRANCH_PREFIX = 'gitmem/proposal/';

/**
 * Lists kept branches with the files each one changes.
 * @example for (const b of await listKeptBranches({ git, memoryDir })) console.log(b.branch, b.files)
 */
export async function listKeptBranches(input: { git: GitRunner; memoryDir: string }): Promise<KeptBranch[]> {
  const fmt = ['%(refname:short)', '%(objectname)', '%(committerdate:iso-strict)', '%(subject)'].join(SEP);
  const r = await input.git.run(['for-each-ref', '--no-merged=main', `--format=${fmt}`, 'refs/heads/gitmem/'], {
    cwd: input.memoryDir,
  });
  const out: KeptBranch[] = [];
  for (const line of r.stdout.split('\n')) {
    if (line.trim() === '') continue;
    const [branch = '', head = '', date = '', subject = ''] = line.split(SEP);
    if (branch.startsWith(PROPOSAL_BRANCH_PREFIX)) continue; // a proposed resolution, not kept work
    out.push({ ...nameParts(branch), branch, head, date, subject, ...(await branchDelta(input, branch)) });
  }
  return out;
}

function nameParts(branch: string): { kind: string; id: string } {
  const rest = branch.slice('gitmem/'.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? { kind: rest, id: '' } : { kind: rest.slice(0, slash), id: rest.slice(slash + 1) };
}

async function branchDelta(
  input: { git: GitRunner; memoryDir: string },
  branch: string,
): Promise<{ commits: number; files: string[] }> {
  const cwd = input.memoryDir;
  const count = await input.git.run(['rev-list', '--count', `main..refs/heads/${branch}`], { cwd });
  const files = await input.git.run(['diff', '--name-only', '-z', `main...refs/heads/${branch}`], { cwd });
  return { commits: Number(count.stdout.trim()) || 0, files: files.stdout.split('\0').filter((f) => f !== '') };
}

async function requireKept(input: { git: GitRunner; memoryDir: string }, branch: string): Promise<KeptBranch> {
  const name = branch.replace(/^refs\/heads\//, '');
  const found = (await listKeptBranches(input)).find((b) => b.branch === name);
  if (!found) {
    throw new MemoryError('INVALID_ARGUMENT', `${name} is not a kept branch (see \`gitmem conflicts list\`)`, {
      data: { branch: name },
    });
  }
  return found;
}

/**
 * One kept branch in detail: its commits and the changes it would bring to main.
 * @example const d = await showKeptBranch({ git, memoryDir, branch: 'gitmem/conflict/20250101T000000.000Z' })
 */
export async function showKeptBranch(input: {
  git: GitRunner;
  memoryDir: string;
  branch: string;
}): Promise<KeptBranchDetail> {
  const kept = await requireKept(input, input.branch);
  const cwd = input.memoryDir;
  const log = await input.git.run(['log', `--format=%H${SEP}%s`, `main..refs/heads/${kept.branch}`], { cwd });
  const changes = await input.git.run(['diff', '--name-status', `main...refs/heads/${kept.branch}`], { cwd });
  return {
    ...kept,
    log: log.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const [sha = '', subject = ''] = l.split(SEP);
        return { sha, subject };
      }),
    changes: changes.stdout.split('\n').filter((l) => l !== ''),
  };
}

/**
 * Deletes a kept branch once its content is dealt with. Its tip is still saved under
 * refs/gitmem/backup/ first, so even a drop loses nothing.
 * @example const { backupRef } = await dropKeptBranch({ git, memoryDir, branch })
 */
export async function dropKeptBranch(input: {
  git: GitRunner;
  memoryDir: string;
  branch: string;
  clock?: () => Date;
}): Promise<{ branch: string; head: string; backupRef: string }> {
  return withMemoryOperation(
    input.memoryDir,
    async () => {
      const kept = await requireKept(input, input.branch);
      const date = (input.clock ?? (() => new Date()))();
      const backupRef = await createUniqueRef(input.git, input.memoryDir, BACKUP_REF_PREFIX, date, kept.head);
      await input.git.run(['update-ref', '-d', `refs/heads/${kept.branch}`, kept.head], { cwd: input.memoryDir });
      return { branch: kept.branch, head: kept.head, backupRef };
    },
    { purpose: 'conflicts drop' },
  );
}
