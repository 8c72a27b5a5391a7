import { describe, expect, it } from 'vitest';
import { failure, memo, plan } from '../../../test/helpers/patch-plan.js';

describe('planPatch: Update File', () => {
  const human = memo('About the user', 'Name: Ada\nLikes: tea\n');

  it('edits the whole text including the frontmatter and writes the result verbatim', () => {
    const out = plan(
      { 'system/human.md': human },
      '*** Update File: system/human.md',
      '@@',
      '-description: About the user',
      '+description: Who the user is',
      '@@',
      ' Name: Ada',
      '-Likes: tea',
      '+Likes: coffee',
    );
    expect(out).toEqual({
      writes: [
        { file: 'system/human.md', content: '---\ndescription: Who the user is\n---\nName: Ada\nLikes: coffee\n' },
      ],
      deletes: [],
      paths: ['system/human.md'],
    });
  });

  it('matches a CRLF file as LF and keeps its CRLF line endings and BOM in the result', () => {
    const out = plan(
      { 'a.md': '\ufeff---\r\ndescription: d\r\n---\r\none\r\ntwo\r\n' },
      '*** Update File: a.md',
      '@@',
      ' one',
      '-two',
      '+three',
    );
    expect(out.writes[0]?.content).toBe('\ufeff---\r\ndescription: d\r\n---\r\none\r\nthree\r\n');
  });

  it('appends at the end with an End of File hunk', () => {
    const out = plan({ 'a.md': human }, '*** Update File: a.md', '@@', '+Lives: London', '*** End of File');
    expect(out.writes[0]?.content).toBe(`${human}Lives: London\n`);
  });

  it('refuses to modify a read_only file', () => {
    const err = failure(
      { 'system/rules.md': memo('r', 'x\n', 'read_only: true\n') },
      '*** Update File: system/rules.md',
      '@@',
      '-x',
      '+y',
    );
    expect(err.code).toBe('READ_ONLY');
    expect(err.message).toBe(
      'memory_apply_patch: system/rules.md is read_only and cannot be modified; an operator writes it with `gitmem protect write <path>`',
    );
  });

  it('refuses a patch that sets, adds or removes read_only', () => {
    const setTrue = failure(
      { 'a.md': human },
      '*** Update File: a.md',
      '@@',
      ' description: About the user',
      '+read_only: true',
    );
    expect(setTrue.code).toBe('READ_ONLY');
    expect(setTrue.message).toBe(
      'memory_apply_patch: a.md cannot be written with read_only=true; an operator writes it with `gitmem protect write <path>`',
    );
    const addFalse = failure(
      { 'a.md': human },
      '*** Update File: a.md',
      '@@',
      ' description: About the user',
      '+read_only: false',
    );
    expect(addFalse.code).toBe('READ_ONLY');
    const withFalse = memo('d', 'x\n', 'read_only: false\n');
    expect(failure({ 'b.md': withFalse }, '*** Update File: b.md', '@@', '-read_only: false').code).toBe('READ_ONLY');
  });

  it('refuses a result without frontmatter or description', () => {
    const noDescription = failure({ 'a.md': human }, '*** Update File: a.md', '@@', '-description: About the user');
    expect(noDescription.code).toBe('FRONTMATTER_INVALID');
    expect(noDescription.message).toBe("memory_apply_patch: patched a.md frontmatter is missing 'description'");
    const unclosed = failure({ 'a.md': human }, '*** Update File: a.md', '@@', ' description: About the user', '----');
    expect(unclosed.code).toBe('FRONTMATTER_INVALID');
  });

  it('refuses a missing file, a file deleted earlier in the patch, and a file without frontmatter', () => {
    const missing = failure({}, '*** Update File: a.md', '@@', '-x');
    expect(missing.code).toBe('FILE_NOT_FOUND');
    expect(missing.message).toBe('memory_apply_patch: file not found for update: a.md');
    expect(failure({ 'a.md': human }, '*** Delete File: a.md', '*** Update File: a.md', '@@', '-x').code).toBe(
      'FILE_NOT_FOUND',
    );
    expect(failure({ 'a.md': 'no header\n' }, '*** Update File: a.md', '@@', '-no header').code).toBe(
      'FRONTMATTER_INVALID',
    );
  });

  it('updates a file added earlier in the same patch from its staged content', () => {
    const out = plan(
      {},
      '*** Add File: n.md',
      '+one',
      '*** Update File: n.md',
      '@@',
      '-one',
      '+two',
      '*** End of File',
    );
    expect(out.writes).toEqual([{ file: 'n.md', content: '---\ndescription: Memory block n\n---\ntwo' }]);
  });

  it('passes the reader NOT_UTF8 error through unchanged', () => {
    expect(failure({ 'a.md': 'NOT_UTF8' }, '*** Update File: a.md', '@@', '-x').code).toBe('NOT_UTF8');
  });

  it('reports a mismatch with the hunk and the current file inside a fence longer than their backticks', () => {
    const file = memo('d', 'Example:\n```sh\nls\n```\n');
    const err = failure({ 'a.md': file }, '*** Update File: a.md', '@@', ' Example:', '-```bash', '+```zsh');
    expect(err.code).toBe('PATCH_MISMATCH');
    expect(err.data).toEqual({ file: 'a.md', hunk: 1 });
    expect(err.message.match(/````/g)).toHaveLength(4);
    expect(err.message.startsWith('memory_apply_patch: failed to apply hunk to a.md: context not found\n')).toBe(true);
  });
});
