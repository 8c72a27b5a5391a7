/**
 * An operator's write of one whole file (`gitmem protect write`, `memory.protection.write`): the one write
 * that may create or change a read_only or listed file, so the agent's refusals can name a way for a person
 * that is not `git commit --no-verify`. It goes through the memory tool's write path (clean check, the one
 * validator, crash-safe commit) with two differences only: the commit is the operator's (identity.ts), and
 * the read_only protection is lifted for that one path. Every other rule holds: path rules, no links,
 * frontmatter format, secrets, budgets.
 */
import { isProtectedText } from '../blocks/validate-protection.js';
import { MemoryError } from '../errors.js';
import { noteOperatorProtection, readProtectedPaths } from '../hooks/protected.js';
import type { Identity } from '../identity.js';
import type { FileEdit } from './edits.js';
import { checkText, TOOL_LIMITS } from './limits.js';
import { normalizeMemoryPath } from './paths.js';
import type { RepoFs } from './repo-fs.js';
import { writeUnderLease, type WriteDeps, type WriteResult } from './tool.js';

const TOOL = 'protect write';

/** What an operator writes. */
export interface OperatorWrite {
  /** Memory-relative path, as the memory tool takes it (`system/rules` is `system/rules.md`). */
  path: string;
  /** The file's whole new text, written exactly as given. */
  text: string;
  /** Why; it becomes the commit message. */
  reason: string;
  /** The commit's author and committer (identity.ts operatorIdentity). */
  author: Identity;
}

/** A committed operator write. */
export interface OperatorWriteResult extends WriteResult {
  /** True when the path is on the protected list after the write (the agent cannot change it). */
  protected: boolean;
}

/** The file's whole new text; a link (at the path or above it), a directory or a device is refused. */
function plan(fs: RepoFs, file: string, text: string): FileEdit[] {
  const bytes = fs.readFile(file);
  // The same bytes: the write path reports NO_CHANGES. Otherwise the old side stays bytes (exact for rollback).
  const before = bytes === null ? null : bytes.equals(Buffer.from(text, 'utf8')) ? text : bytes;
  return [{ file, before, after: text }];
}

/**
 * Creates or replaces one file as the operator; a read_only text also puts the path on the protected list.
 * @example await runOperatorWrite(deps, { path: 'system/rules.md', text: '---\ndescription: rules\nread_only: true\n---\nbe kind\n', reason: 'house rules', author })
 */
export async function runOperatorWrite(deps: WriteDeps, w: OperatorWrite): Promise<OperatorWriteResult> {
  if (typeof w.text !== 'string')
    throw new MemoryError('INVALID_ARGUMENT', `${TOOL}: the text must be a string`, { data: { field: 'text' } });
  if (typeof w.reason !== 'string' || w.reason.trim() === '') {
    throw new MemoryError('INVALID_ARGUMENT', `${TOOL}: a reason is required (it becomes the commit message)`, {
      data: { field: 'reason' },
    });
  }
  checkText(TOOL, 'text', w.text, TOOL_LIMITS.fileChars);
  const { file } = normalizeMemoryPath(w.path, { memoryDir: deps.memoryDir, field: 'path', tool: TOOL });
  const locks = isProtectedText(w.text);
  const operator: WriteDeps = {
    ...deps,
    author: w.author,
    liftProtection: new Set([file]),
    // Still under the lease, before the protected list's marker follows the commit (wiring/open.ts).
    afterCommit: (commit, parent) => {
      if (locks) noteOperatorProtection(deps.memoryDir, file);
      deps.afterCommit?.(commit, parent);
    },
  };
  const result = await writeUnderLease(operator, TOOL, w.reason.trim(), (fs) => plan(fs, file, w.text));
  return { ...result, protected: readProtectedPaths(deps.memoryDir).has(file) };
}
