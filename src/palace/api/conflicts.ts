/**
 * Kept conflict branches (sync's `gitmem/conflict/…`, background writers' `gitmem/<kind>/…`): the list, one
 * branch with what it changed since it left main, and the two ways to settle one — drop it (main's side;
 * the library keeps its tip under refs/gitmem/backup/) or take the branch's side (take-side.ts).
 */
import { MemoryError } from '../../index.js';
import { dropKeptBranch, handleGit, showKeptBranch } from '../../internals.js';
import type { KeptBranchInfo, KeptBranchReply } from '../api-types.js';
import { DIFF_BYTES } from './reads.js';
import { bodyString, requiredQuery, type ApiRequest } from './request.js';
import { planTakeBranch, takeBranchSide } from './take-side.js';

const repo = (req: ApiRequest) => ({ git: handleGit(req.view.memory), memoryDir: req.view.memory.memoryDir });

export async function conflicts(req: ApiRequest): Promise<{ branches: KeptBranchInfo[] }> {
  return { branches: await req.view.memory.conflicts.list() };
}

export async function conflict(req: ApiRequest): Promise<KeptBranchReply> {
  const memory = req.view.memory;
  const d = await showKeptBranch({ ...repo(req), branch: requiredQuery(req, 'branch') });
  const base = await memory.mergeBase('main', d.head);
  const diff = await memory.diff({ ...(base ? { from: base } : {}), to: d.head, maxBytes: DIFF_BYTES });
  const take = (await planTakeBranch(memory, d.head, d.files)).map(({ text: _text, ...f }) => f);
  const { changes: _changes, ...rest } = d;
  return { ...rest, base, diff, take };
}

export async function dropConflict(req: ApiRequest): Promise<{ branch: string; backupRef: string }> {
  const branch = bodyString(req, 'branch', 1024);
  const seen = bodyString(req, 'head', 64);
  const kept = await showKeptBranch({ ...repo(req), branch });
  if (kept.head !== seen)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${kept.branch} moved since the page showed it; look again before dropping it`,
      { data: { branch: kept.branch } },
    );
  const r = await dropKeptBranch({ ...repo(req), branch });
  return { branch: r.branch, backupRef: r.backupRef };
}

export async function takeConflict(req: ApiRequest): Promise<{ commit: string; paths: string[]; backupRef: string }> {
  return takeBranchSide(req.view.memory, {
    branch: bodyString(req, 'branch', 1024),
    head: bodyString(req, 'head', 64),
    main: bodyString(req, 'main', 64),
    reason: bodyString(req, 'reason'),
  });
}
