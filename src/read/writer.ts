/**
 * Who wrote a commit, or moved `main`: the rule in one place, for history and change events alike.
 *
 * A commit: a merge `merge(memory): gitmem/<kind>/<id>` is that background writer's (`reflection`, else
 * `worker`); an author `<agent>+reflection@gitmem.local` is a reflection's; `gitmem@gitmem.local` (the
 * harness's own identity) a worker's; `operator@gitmem.local` (an operator's `gitmem protect write` when git
 * names no user) is `shell`, like any person's; any other `…@gitmem.local` author is an agent's (the memory
 * tool writes as `<agent>@gitmem.local`); anyone else is `shell`. A raw `git commit` made with the identity
 * gitmem put in the repository's config carries the agent's address, so it counts as the agent's: git
 * records nothing that tells the two apart.
 * A move of main: the reflog says how it moved — a fast-forward, rebase or reset onto
 * `refs/remotes/…`, a pull or a clone is `sync`; another reset or checkout is `shell`; a commit or a merge
 * is classified by the commit it moved to.
 */
import { identityKind } from '../identity.js';

/** The writers of memory. */
export const WRITER_KINDS = ['agent', 'worker', 'reflection', 'shell', 'sync'] as const;
export type WriterKind = (typeof WRITER_KINDS)[number];

export interface CommitFacts {
  message: string;
  email: string;
}

const MEMORY_MERGE = /^merge\(memory\): gitmem\/([a-z][a-z0-9-]*)\//;
const SYNC_MOVE = /^(?:merge refs\/remotes\/|rebase(?: \(finish\))?: refs\/heads\/|rebase|reset: moving to refs\/remotes\/|pull|clone: )/;
const OTHER_MOVE = /^(?:reset: |checkout: |branch: |update-ref)/;

/**
 * The writer of one commit. Pure.
 * @example classifyCommit({ message: 'merge(memory): gitmem/reflection/x', email: 'gitmem@gitmem.local' }) // 'reflection'
 */
export function classifyCommit(c: CommitFacts): WriterKind {
  const kind = MEMORY_MERGE.exec(c.message.split('\n')[0] ?? '')?.[1];
  if (kind !== undefined) return kind === 'reflection' ? 'reflection' : 'worker';
  return BY_IDENTITY[identityKind(c.email)];
}

/** Who an author address says wrote the commit (the identities are decided in identity.ts). */
const BY_IDENTITY: Record<ReturnType<typeof identityKind>, WriterKind> = { system: 'worker', reflection: 'reflection', operator: 'shell', agent: 'agent', other: 'shell' };

/**
 * The writer of one move of main, from its reflog message (undefined: none readable) and the commit it
 * moved to. Pure.
 * @example classifyMove('merge refs/remotes/origin/main: Fast-forward', commit) // 'sync'
 */
export function classifyMove(reflogMessage: string | undefined, commit: CommitFacts): WriterKind {
  if (reflogMessage !== undefined) {
    if (SYNC_MOVE.test(reflogMessage)) return 'sync';
    if (reflogMessage.startsWith('gitmem: undo')) return 'agent';
    if (OTHER_MOVE.test(reflogMessage)) return 'shell';
  }
  return classifyCommit(commit);
}
