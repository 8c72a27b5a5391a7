/**
 * Who wrote a commit, or moved `main`: the rule in one place, for history and change events alike.
 *
 * A commit: a background writer's merge `merge(<tag>): …` is that writer's (`merge(reflection)` a
 * reflection's, `merge(memory)` a worker's); otherwise its author says (an author `<agent>+reflection@gitmem.local`
 * is a reflection's, `gitmem@gitmem.local` a worker's, any other `…@gitmem.local` an agent's — the memory tool
 * writes as `<agent>@gitmem.local` — anyone else is `shell`, the made-up operator of `gitmem protect write` among them). Both come from the one table of writers,
 * src/writers.ts, that the merge messages are written from. A raw `git commit` made with the identity
 * gitmem put in the repository's config carries the agent's address, so it counts as the agent's: git
 * records nothing that tells the two apart.
 * A move of main: the reflog says how it moved — a fast-forward, rebase or reset onto
 * `refs/remotes/…`, a pull or a clone is `sync`; another reset or checkout is `shell`; a commit or a merge
 * is classified by the commit it moved to.
 */
import { identityKind } from '../identity.js';
import { identityWriter, mergeWriter, type WriterKind } from '../writers.js';

export interface CommitFacts {
  message: string;
  email: string;
}

const SYNC_MOVE =
  /^(?:merge refs\/remotes\/|rebase(?: \(finish\))?: refs\/heads\/|rebase|reset: moving to refs\/remotes\/|pull|clone: )/;
const OTHER_MOVE = /^(?:reset: |checkout: |branch: |update-ref)/;

/**
 * The writer of one commit. Pure.
 * @example classifyCommit({ message: 'merge(reflection): note office days', email: 'gitmem@gitmem.local' }) // 'reflection'
 */
export function classifyCommit(c: CommitFacts): WriterKind {
  return mergeWriter(c.message.split('\n')[0] ?? '') ?? identityWriter(identityKind(c.email));
}

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
