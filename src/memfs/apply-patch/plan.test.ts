import { describe, expect, it } from 'vitest';
import { LAYOUTS } from '../../blocks/layouts.js';
import { DIR, failure, memo, patch, plan, repo } from '../../../test/helpers/patch-plan.js';
import { planPatch } from './plan.js';

describe('planPatch: Add File', () => {
  it('wraps plain content in a header named after the label, without a trailing newline', () => {
    expect(plan({}, '*** Add File: notes/new', '+hello', '+world')).toEqual({
      writes: [{ file: 'notes/new.md', content: '---\ndescription: Memory block notes/new\n---\nhello\nworld' }],
      deletes: [],
      paths: ['notes/new.md'],
    });
  });

  it('keeps content that is already a memory file as it is, every key included (the validator names unknown ones)', () => {
    const out = plan(
      {},
      '*** Add File: memory/system/x.md',
      '+---',
      '+label: x',
      '+description: My notes',
      '+limit: 500',
      '+---',
      '+body',
    );
    expect(out.writes).toEqual([
      { file: 'system/x.md', content: '---\nlabel: x\ndescription: My notes\nlimit: 500\n---\nbody' },
    ]);
  });

  it('gives frontmatter without a description the label one (never a second block); a plain file is written as given', () => {
    expect(plan({}, '*** Add File: n.md', '+---', '+limit: 5', '+---', '+b').writes[0]?.content).toBe(
      '---\ndescription: Memory block n\nlimit: 5\n---\nb',
    );
    expect(plan({}, '*** Add File: data/p.json', '+{', '+}').writes).toEqual([
      { file: 'data/p.json', content: '{\n}' },
    ]);
  });

  it('refuses read_only: true and drops any other read_only value', () => {
    const err = failure({}, '*** Add File: a.md', '+---', '+description: d', '+read_only: true', '+---', '+x');
    expect(err.code).toBe('READ_ONLY');
    expect(err.message).toBe(
      'memory_apply_patch: a.md cannot be written with read_only=true; an operator writes it with `gitmem protect write <path>`',
    );
    const out = plan({}, '*** Add File: a.md', '+---', '+description: d', '+read_only: false', '+---', '+x');
    expect(out.writes[0]?.content).toBe('---\ndescription: d\n---\nx');
  });

  it('refuses adding onto an existing file, and the same target twice', () => {
    const exists = failure({ 'a.md': memo('d', 'x\n') }, '*** Add File: a.md', '+x');
    expect(exists.code).toBe('FILE_EXISTS');
    expect(exists.message).toBe('memory_apply_patch: cannot add existing memory file: a.md');
    const twice = failure({}, '*** Add File: a.md', '+x', '*** Add File: a', '+y');
    expect(twice.code).toBe('PATCH_INVALID');
    expect(twice.message).toBe('memory_apply_patch: duplicate add/update target in patch: a.md');
  });

  it('allows re-adding a file deleted earlier in the same patch', () => {
    const out = plan({ 'a.md': memo('d', 'old\n') }, '*** Delete File: a.md', '*** Add File: a.md', '+new');
    expect(out).toEqual({
      writes: [{ file: 'a.md', content: '---\ndescription: Memory block a\n---\nnew' }],
      deletes: [],
      paths: ['a.md'],
    });
  });
});

describe('planPatch: Delete File and Move to', () => {
  const note = memo('note', 'text\n');

  it('deletes an editable file and refuses missing, read_only and header-less files', () => {
    expect(plan({ 'a.md': note }, '*** Delete File: a')).toEqual({ writes: [], deletes: ['a.md'], paths: ['a.md'] });
    expect(failure({}, '*** Delete File: a.md').message).toBe('memory_apply_patch: file not found for delete: a.md');
    const ro = failure({ 'a.md': memo('d', 'x\n', 'read_only: true\n') }, '*** Delete File: a.md');
    expect(ro.code).toBe('READ_ONLY');
    expect(ro.message).toBe(
      'memory_apply_patch: a.md is read_only and cannot be deleted; an operator first rewrites it without read_only (`gitmem protect write <path>`)',
    );
    expect(failure({ 'a.md': 'plain\n' }, '*** Delete File: a.md').code).toBe('FRONTMATTER_INVALID');
  });

  it('cancels an add when the same patch deletes the file again', () => {
    expect(plan({}, '*** Add File: n.md', '+x', '*** Delete File: n.md')).toEqual({
      writes: [],
      deletes: [],
      paths: ['n.md'],
    });
  });

  it('moves a file with its edit: writes the target, deletes the source, reports both', () => {
    const out = plan(
      { 'notes/a.md': note },
      '*** Update File: notes/a.md',
      '*** Move to: archive/a.md',
      '@@',
      '-text',
      '+moved',
    );
    expect(out).toEqual({
      writes: [{ file: 'archive/a.md', content: memo('note', 'moved\n') }],
      deletes: ['notes/a.md'],
      paths: ['notes/a.md', 'archive/a.md'],
    });
  });

  it('refuses a move onto an existing file unless the patch deleted it earlier', () => {
    const files = { 'a.md': note, 'b.md': memo('other', 'b\n') };
    const lines = ['*** Update File: a.md', '*** Move to: b.md', '@@', ' text'];
    const err = failure(files, ...lines);
    expect(err.code).toBe('FILE_EXISTS');
    expect(err.message).toBe('memory_apply_patch: cannot move to existing memory file: b.md');
    expect(failure({ ...files, 'b.md': 'NOT_UTF8' }, ...lines).code).toBe('FILE_EXISTS');
    const out = plan(files, '*** Delete File: b.md', ...lines);
    expect(out).toEqual({ writes: [{ file: 'b.md', content: note }], deletes: ['a.md'], paths: ['b.md', 'a.md'] });
  });

  it('refuses a move onto a target the patch already writes', () => {
    const err = failure(
      { 'a.md': note },
      '*** Add File: b.md',
      '+x',
      '*** Update File: a.md',
      '*** Move to: b.md',
      '@@',
      ' text',
    );
    expect(err.code).toBe('PATCH_INVALID');
  });
});

describe('planPatch: whole patches and paths', () => {
  it('plans a multi-file patch, reading each file once and de-duplicating paths in order', () => {
    const fs = repo({
      'system/human.md': memo('human', 'Ada\n'),
      'notes/old.md': memo('old', 'bye\n'),
      'notes/todo.md': memo('todo', '- a\n'),
    });
    const input = patch(
      '*** Update File: system/human.md',
      '@@',
      '-Ada',
      '+Ada Lovelace',
      '*** Add File: notes/new.md',
      '+fresh',
      '*** Delete File: notes/old.md',
      '*** Update File: notes/todo.md',
      '*** Move to: notes/done.md',
      '@@',
      ' - a',
      '+- b',
      '*** Update File: system/human.md',
      '@@',
      ' Ada Lovelace',
      '+Mathematician',
    );
    expect(planPatch(input, fs, { memoryDir: DIR })).toEqual({
      writes: [
        { file: 'system/human.md', content: memo('human', 'Ada Lovelace\nMathematician\n') },
        { file: 'notes/new.md', content: '---\ndescription: Memory block notes/new\n---\nfresh' },
        { file: 'notes/done.md', content: memo('todo', '- a\n- b\n') },
      ],
      deletes: ['notes/old.md', 'notes/todo.md'],
      paths: ['system/human.md', 'notes/new.md', 'notes/old.md', 'notes/todo.md', 'notes/done.md'],
    });
    expect(new Set(fs.reads).size).toBe(fs.reads.length);
  });

  it('accepts an absolute path inside the memory dir and refuses escapes', () => {
    const out = plan({ 'system/x.md': memo('x', 'a\n') }, `*** Delete File: ${DIR}/system/x.md`);
    expect(out.paths).toEqual(['system/x.md']);
    const outside = failure({}, '*** Add File: /tmp/outside.md', '+x');
    expect(outside.code).toBe('PATH_ESCAPE');
    expect(outside.message).toMatch(/^memory_apply_patch: 'Add File path' is outside the memory directory/);
    const dotdot = failure({}, '*** Update File: ../x.md', '@@', '-a');
    expect(dotdot.code).toBe('INVALID_PATH');
    expect(dotdot.message).toBe("memory_apply_patch: 'Update File path' contains invalid path traversal segment");
    expect(
      failure({ 'a.md': memo('a', 'x\n') }, '*** Update File: a.md', '*** Move to: notes/../../x', '@@', ' x').data,
    ).toMatchObject({
      field: 'Move to path',
    });
    expect(failure({}, '*** Delete File: ~/notes.md').data).toMatchObject({ field: 'Delete File path' });
  });

  it('leaves the reader untouched for a patch that fails to parse', () => {
    const fs = repo({ 'a.md': memo('a', 'x\n') });
    expect(() => planPatch('*** Begin Patch\n*** Delete File: a.md', fs, { memoryDir: DIR })).toThrow(/must end with/);
    expect(fs.reads).toEqual([]);
  });
});

describe('planPatch: the layout decides which files are memory files', () => {
  it("adds an index layout's MEMORY.md as plain markdown, exactly as given (no frontmatter)", () => {
    const input = patch('*** Add File: lang/MEMORY.md', '+# Lang', '+', '+- [Go](go.md) — Go notes');
    const out = planPatch(input, repo({}), { memoryDir: DIR, layout: LAYOUTS.index });
    expect(out.writes).toEqual([{ file: 'lang/MEMORY.md', content: '# Lang\n\n- [Go](go.md) — Go notes' }]);
  });

  it('updates and deletes an index without asking it for frontmatter', () => {
    const files = { 'MEMORY.md': '# Memory\n- [a](a.md) — a\n', 'lang/MEMORY.md': '# Lang\n' };
    const input = patch(
      '*** Update File: MEMORY.md',
      '@@',
      ' # Memory',
      '+- [b](b.md) — b',
      '*** Delete File: lang/MEMORY.md',
    );
    const out = planPatch(input, repo(files), { memoryDir: DIR, layout: LAYOUTS.index });
    expect(out.writes).toEqual([{ file: 'MEMORY.md', content: '# Memory\n- [b](b.md) — b\n- [a](a.md) — a\n' }]);
    expect(out.deletes).toEqual(['lang/MEMORY.md']);
  });

  it('in the system layout a MEMORY.md is a memory file (a header is added)', () => {
    const out = plan({}, '*** Add File: lang/MEMORY.md', '+# Lang');
    expect(out.writes[0]?.content).toBe('---\ndescription: Memory block lang/MEMORY\n---\n# Lang');
  });
});
