// Pure rules of the worktree layer: cone patterns, ids, and parsers of git's -z output.
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { worktreeId } from './create.js';
import { parseStatusV2 } from '../git/commands/status.js';
import { dirtyPathsOf } from './inspect.js';
import { workerMergeMessage } from './integrate.js';
import { parseMergeTree } from './merge.js';
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
    expect(normalizeSparseDirs(['system/', 'system/human', 'reference/a.md', 'reference/'])).toEqual(['reference', 'system']);
  });

  it('renders git cone format with shallow parents and parses it back', () => {
    const text = renderConePatterns(['system', 'reference/deep/x']);
    expect(text).toBe(['/*', '!/*/', '/reference/', '!/reference/*/', '/reference/deep/', '!/reference/deep/*/', '/reference/deep/x/', '/system/', ''].join('\n'));
    expect(parseConePatterns(text)).toEqual(['reference/deep/x', 'system']);
    expect(renderConePatterns([])).toBe('/*\n!/*/\n');
  });
});

describe('worktree naming and git output parsing', () => {
  it('builds the id from the UTC time and 8 hex characters', () => {
    expect(worktreeId(new Date('2025-01-02T03:04:05.678Z'), () => 'abcdef1234')).toBe('20250102030405-abcdef12');
  });

  it('parses merge-tree -z output into the tree and distinct conflicting paths', () => {
    expect(parseMergeTree('abc123\0a.md\0a.md\0b c.md\0')).toEqual({ tree: 'abc123', conflicts: ['a.md', 'b c.md'] });
    expect(parseMergeTree('abc123\0')).toEqual({ tree: 'abc123', conflicts: [] });
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
