/**
 * Proposed resolutions: a branch `gitmem/proposal/<time>` holding one merge commit (main, a kept branch's
 * tip) that a model wrote. It changes nothing until accepted; its message names the kept branch it resolves.
 */
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';

export const PROPOSAL_PREFIX = 'gitmem/proposal/';
export const RESOLVES_TRAILER = 'Gitmem-Resolves';

export interface ProposalInfo {
  proposal: string;
  commit: string;
  /** Main's commit the proposal was made on (its first parent). */
  base: string;
  /** The kept branch it resolves, and that branch's tip when proposed. */
  branch: string;
  branchHead: string;
  subject: string;
}

const SEP = '\x1f';

function parseProposal(line: string): ProposalInfo | null {
  const [ref = '', commit = '', parents = '', subject = '', body = ''] = line.split(SEP);
  const [base = '', branchHead = '', ...more] = parents.split(' ');
  const branch = new RegExp(`^${RESOLVES_TRAILER}: (gitmem/\\S+)$`, 'm').exec(body)?.[1];
  if (branch === undefined || more.length > 0 || branchHead === '') return null;
  return { proposal: ref, commit, base, branch, branchHead, subject };
}

/**
 * Every proposal branch (a ref under the prefix that is not a two-parent commit naming its branch is skipped).
 * @example for (const p of await listProposals({ git, memoryDir })) console.log(p.proposal, p.branch)
 */
export async function listProposals(deps: { git: GitRunner; memoryDir: string }): Promise<ProposalInfo[]> {
  const fmt = ['%(refname:short)', '%(objectname)', '%(parent)', '%(subject)', '%(body)'].join(SEP);
  const r = await deps.git.run(['for-each-ref', `--format=${fmt}%00`, `refs/heads/${PROPOSAL_PREFIX}`], {
    cwd: deps.memoryDir,
  });
  return r.stdout
    .split('\0')
    .map((l) => l.replace(/^\n/, ''))
    .filter((l) => l !== '')
    .map(parseProposal)
    .filter((p): p is ProposalInfo => p !== null);
}

/**
 * The proposal `name` names, or INVALID_ARGUMENT.
 * @example await requireProposal(deps, 'gitmem/proposal/20260101T000000.000Z')
 */
export async function requireProposal(
  deps: { git: GitRunner; memoryDir: string },
  name: unknown,
): Promise<ProposalInfo> {
  if (typeof name !== 'string' || name.trim() === '')
    throw new MemoryError('INVALID_ARGUMENT', 'name the proposal (see `gitmem conflicts list`)', {
      data: { field: 'proposal' },
    });
  const short = name.replace(/^refs\/heads\//, '');
  const found = (await listProposals(deps)).find((p) => p.proposal === short);
  if (!found)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${short.slice(0, 200)} is not a proposal (see \`gitmem conflicts list\`)`,
      { data: { proposal: short } },
    );
  return found;
}
