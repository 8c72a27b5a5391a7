// The merge corpus's shared pieces: a memory file's text, the case shape, and the check every case runs.
import { expect } from 'vitest';
import { mergeMarkdownWith } from '../../src/blocks/merge/merge-text.js';
import { loadMarkdownParser } from '../../src/blocks/merge/parser.js';
import type { MergeConflictKind } from '../../src/blocks/merge/types.js';

const parse = loadMarkdownParser();

/** A memory file: frontmatter with `description` (and `extra` lines), then the body. */
export const f = (body: string, description = 'Work notes', extra = ''): string =>
  `---\ndescription: ${description}\n${extra}---\n${body}`;
export const crlf = (s: string): string => s.replace(/\n/g, '\r\n');

export interface Case {
  name: string;
  base: string | null;
  ours: string;
  theirs: string;
  path?: string;
  protectedPaths?: string[];
  /** The exact merged text, or the conflict kind. */
  want: string | { conflict: MergeConflictKind };
}

export const conflict = (kind: MergeConflictKind): { conflict: MergeConflictKind } => ({ conflict: kind });

export const LIST = f('# Work\n\n- a\n- b\n- c\n');

/** Merges one case and checks the exact outcome. */
export function checkCase(c: Case): void {
  const r = mergeMarkdownWith(parse, {
    base: c.base,
    ours: c.ours,
    theirs: c.theirs,
    path: c.path ?? 'notes/work.md',
    protectedPaths: new Set(c.protectedPaths ?? []),
  });
  if (typeof c.want === 'string') {
    expect(r).toEqual({ status: 'clean', text: c.want });
  } else {
    expect(r.status).toBe('conflict');
    if (r.status === 'conflict') expect(r.conflicts.map((x) => x.kind)).toContain(c.want.conflict);
  }
}
