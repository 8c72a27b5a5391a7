// Pure rules of the worktree layer: cone patterns, ids, and parsers of git's -z output.
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { worktreeId } from './create.js';
import { parseStatusV2 } from '../git/commands/status.js';
import { dirtyPathsOf } from './inspect.js';
import { workerMergeMessage } from './integrate.js';
import { parseMergeTreeOutput } from '../git/commands/merge-tree.js';
import { markdownConflicts } from './merge-markdown.js';
import { normalizeSparseDirs, parseConePatterns, renderConePatterns, sparseDirFor } from './sparse.js';

describe('sparse cone patterns', () => {
  it('maps files to their directory and keeps directories, top-level files need nothing', () => {
    expect(sparseDirFor('reference/people/ann.md')).toBe('reference/people');
    expect(sparseDirFor('reference/people/')).toBe('reference/people');
    expect(sparseDirFor('./system')).toBe('system');
    expect(sparseDirFor('top.md')).toBe('');
  });

  it('refuses traversal and .git', () => {
    for (const bad of ['../x', 'a/../../b', '.git/hooks', 'a/./b']) {
      let err: unknown;
      try {
        sparseDirFor(bad);
      } catch (e) {
        err = e;
      }
      expect(isMemoryError(err, 'INVALID_PATH')).toBe(true);
    }
  });

  it('drops nested duplicates', () => {
    expect(normalizeSparseDirs(['system/', 'system/human', 'reference/a.md', 'reference/'])).toEqual([
      'reference',
      'system',
    ]);
  });

  it('renders git cone format with shallow parents and parses it back', () => {
    const text = renderConePatterns(['system', 'reference/deep/x']);
    expect(text).toBe(
      [
        '/*',
        '!/*/',
        '/reference/',
        '!/reference/*/',
        '/reference/deep/',
        '!/reference/deep/*/',
        '/reference/deep/x/',
        '/system/',
        '',
      ].join('\n'),
    );
    expect(parseConePatterns(text)).toEqual(['reference/deep/x', 'system']);
    expect(renderConePatterns([])).toBe('/*\n!/*/\n');
  });
});

describe('worktree naming and git output parsing', () => {
  it('builds the id from the UTC time and 8 hex characters', () => {
    expect(worktreeId(new Date('2025-01-02T03:04:05.678Z'), () => 'abcdef1234')).toBe('20250102030405-abcdef12');
  });

  it('parses merge-tree -z output into the tree, the conflicted stages and the messages', () => {
    const out =
      'abc123\u0000100644 b1 1\ta.md\u0000100644 o1 2\ta.md\u0000100644 t1 3\ta.md\u0000\u0000' +
      '1\u0000a.md\u0000Auto-merging\u0000Auto-merging a.md\n\u0000' +
      '1\u0000a.md\u0000CONFLICT (contents)\u0000CONFLICT (content): Merge conflict in a.md\n\u0000';
    const r = parseMergeTreeOutput(out, false);
    expect(r.tree).toBe('abc123');
    expect(r.stages).toEqual([
      { mode: '100644', id: 'b1', stage: 1, path: 'a.md' },
      { mode: '100644', id: 'o1', stage: 2, path: 'a.md' },
      { mode: '100644', id: 't1', stage: 3, path: 'a.md' },
    ]);
    expect(r.messages.map((m) => [m.paths, m.type])).toEqual([
      [['a.md'], 'Auto-merging'],
      [['a.md'], 'CONFLICT (contents)'],
    ]);
    expect(markdownConflicts(r)).toEqual([{ path: 'a.md', mode: '100644', base: 'b1', ours: 'o1', theirs: 't1' }]);
    expect(parseMergeTreeOutput('abc123\u0000', true)).toEqual({
      clean: true,
      tree: 'abc123',
      stages: [],
      messages: [],
    });
  });

  it('hands the markdown merge only content conflicts of markdown files with one regular mode', () => {
    const conflict = (stages: string, type = 'CONFLICT (contents)', path = 'a.md') =>
      parseMergeTreeOutput(`t\u0000${stages}\u0000\u00001\u0000${path}\u0000${type}\u0000msg\u0000`, false);
    expect(markdownConflicts(conflict('100644 o 2\ta.md\u0000100644 t 3\ta.md'))).toEqual([
      { path: 'a.md', mode: '100644', base: null, ours: 'o', theirs: 't' },
    ]);
    expect(
      markdownConflicts(conflict('100644 o 2\ta.txt\u0000100644 t 3\ta.txt', 'CONFLICT (contents)', 'a.txt')),
    ).toBeNull();
    expect(
      markdownConflicts(conflict('100644 b 1\ta.md\u0000100644 o 2\ta.md', 'CONFLICT (modify/delete)')),
    ).toBeNull();
    expect(markdownConflicts(conflict('100644 o 2\ta.md\u0000100755 t 3\ta.md'))).toBeNull();
    expect(markdownConflicts(conflict('120000 o 2\ta.md\u0000120000 t 3\ta.md'))).toBeNull();
  });

  it('names every dirty path of a status, including both names of a rename', () => {
    const z = '0000000000000000000000000000000000000000';
    const out = `1 .M N... 100644 100644 100644 ${z} ${z} a.md\0? new dir/b.md\u00002 R. N... 100644 100644 100644 ${z} ${z} R100 to.md\0from.md\0`;
    expect(dirtyPathsOf(parseStatusV2(out))).toEqual(['a.md', 'new dir/b.md', 'to.md', 'from.md']);
    expect(dirtyPathsOf(parseStatusV2(''))).toEqual([]);
  });

  it('writes the worker merge message with the task in the body', () => {
    expect(workerMergeMessage('gitmem/worker/x')).toBe('merge(memory): gitmem/worker/x');
    expect(workerMergeMessage('gitmem/worker/x', ' tidy ')).toBe('merge(memory): gitmem/worker/x\n\nTask: tidy');
  });
});
