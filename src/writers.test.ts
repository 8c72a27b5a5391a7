import { describe, expect, it } from 'vitest';
import { reflectionMergeSummary } from './worktree/finalize.js';
import { workerMergeMessage } from './worktree/integrate.js';
import { classifyCommit } from './read/writer.js';
import { SYSTEM_IDENTITY } from './identity.js';
import { identityWriter, mergeSubject, mergeWriter, WRITER_KINDS, WRITERS, type MergingWriter } from './writers.js';

describe('the table of writers', () => {
  it('reads every merge subject it writes back as the writer that wrote it', () => {
    const merging = WRITER_KINDS.filter((k): k is MergingWriter => 'mergeTag' in WRITERS[k]);
    expect(merging).toEqual(['worker', 'reflection']);
    for (const k of merging) expect(mergeWriter(mergeSubject(k, 'some summary')), k).toBe(k);
    expect(mergeWriter('learned X')).toBeUndefined();
    expect(mergeWriter('merge(nobody): x')).toBeUndefined();
  });

  it('names the merges the worktree layer writes after their writers', () => {
    const author = SYSTEM_IDENTITY.email;
    expect(classifyCommit({ email: author, message: workerMergeMessage('gitmem/worker/x', 'tidy prefs') })).toBe(
      'worker',
    );
    expect(
      classifyCommit({
        email: author,
        message: mergeSubject('reflection', reflectionMergeSummary('feat(memory): note office days')),
      }),
    ).toBe('reflection');
  });

  it('gives every identity a writer', () => {
    expect([
      identityWriter('agent'),
      identityWriter('system'),
      identityWriter('reflection'),
      identityWriter('other'),
    ]).toEqual(['agent', 'worker', 'reflection', 'shell']);
  });
});
