/**
 * The writers of memory, in one table: the name each goes by (in history, change events, `gitmem log` and the
 * palace), the tag of the merge commit that lands a background writer's work, and the author identity its own
 * commits carry. gitmem writes merge messages from this table (worktree/) and reads commits back through it
 * (read/writer.ts), so a writer is named the same where its work is written and where it is read. Pure;
 * everyone may import it.
 */
import type { IdentityKind } from './identity.js';

/** One writer of memory. */
interface WriterDef {
  /** Who it is, in a few words. */
  about: string;
  /** Its merges' first line is `merge(<tag>): …` (background writers only). */
  mergeTag?: string;
  /** The identities (identity.ts) its commits are authored with, so a commit by it reads back as it. */
  identity?: readonly IdentityKind[];
}

/** Every writer, keyed by its name; the order is the order help texts list them. */
export const WRITERS = {
  agent: {
    about: 'the agent itself, through the memory tool (or a raw commit with the identity gitmem configured)',
    identity: ['agent'],
  },
  worker: {
    about: 'a background memory worker (`gitmem worker run`): its merge `merge(memory): gitmem/worker/<id>`',
    mergeTag: 'memory',
    identity: ['system'],
  },
  reflection: {
    about: 'a reflection (`gitmem dream`, a reflection after a turn): its sub-agent’s commits and their merge',
    mergeTag: 'reflection',
    identity: ['reflection'],
  },
  shell: {
    about:
      "anyone else: a commit by another identity (an operator's `gitmem protect write` among them), a reset or checkout by hand",
    identity: ['other', 'operator'],
  },
  sync: { about: 'main moved to what a remote holds (a pull, a rebase onto it, a clone)' },
} as const satisfies Record<string, WriterDef>;

export type WriterKind = keyof typeof WRITERS;
/** The writers of memory, in the table's order. */
export const WRITER_KINDS = Object.keys(WRITERS) as WriterKind[];

/** The writers whose work lands on main as a merge. */
export type MergingWriter = {
  [K in WriterKind]: (typeof WRITERS)[K] extends { mergeTag: string } ? K : never;
}[WriterKind];

const MERGE_SUBJECT = /^merge\(([a-z][a-z0-9-]*)\): /;

/**
 * The first line of the merge that lands a background writer's work on main.
 * @example mergeSubject('reflection', 'note office days') === 'merge(reflection): note office days'
 */
export function mergeSubject(writer: MergingWriter, summary: string): string {
  return `merge(${WRITERS[writer].mergeTag}): ${summary}`;
}

/**
 * The writer a commit subject names as a background writer's merge, if it is one.
 * @example mergeWriter('merge(reflection): note office days') === 'reflection'
 * @example mergeWriter('learned X') === undefined
 */
export function mergeWriter(subject: string): WriterKind | undefined {
  const tag = MERGE_SUBJECT.exec(subject)?.[1];
  return tag === undefined ? undefined : WRITER_KINDS.find((k) => tagOf(k) === tag);
}

function tagOf(k: WriterKind): string | undefined {
  const def: WriterDef = WRITERS[k];
  return def.mergeTag;
}

/** Every identity is some writer's: a new identity kind without a writer in the table fails to compile here. */
type AuthoredAs = {
  [K in WriterKind]: (typeof WRITERS)[K] extends { identity: readonly (infer I)[] } ? I : never;
}[WriterKind];
const _everyIdentityHasAWriter: [Exclude<IdentityKind, AuthoredAs>] extends [never] ? true : never = true;

const BY_IDENTITY = Object.fromEntries(
  WRITER_KINDS.flatMap((k) => {
    const def: WriterDef = WRITERS[k];
    return (def.identity ?? []).map((i) => [i, k] as const);
  }),
) as Record<IdentityKind, WriterKind>;

/**
 * The writer whose commits an author identity stands for.
 * @example identityWriter('system') === 'worker'
 */
export function identityWriter(identity: IdentityKind): WriterKind {
  return BY_IDENTITY[identity];
}
