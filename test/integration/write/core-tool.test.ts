import { existsSync, readFileSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError, type MemoryErrorCode } from '../../../src/errors.js';
import { git, cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

let fx: MemoryFixture;
const head = (): string => git(fx.dir, ['rev-parse', 'HEAD']);
const count = (): number => Number(git(fx.dir, ['rev-list', '--count', 'HEAD']));
const porcelain = (): string => git(fx.dir, ['status', '--porcelain', '--untracked-files=all']);

async function expectError(p: Promise<unknown>, code: MemoryErrorCode): Promise<Error> {
  const before = { head: head(), status: porcelain(), index: git(fx.dir, ['ls-files', '-s']) };
  const err = await p.then(
    () => {
      throw new Error(`expected ${code}`);
    },
    (e: unknown) => e,
  );
  expect(isMemoryError(err), String(err)).toBe(true);
  expect((err as { code: string }).code).toBe(code);
  // Bad input leaves the repository exactly as it was.
  expect({ head: head(), status: porcelain(), index: git(fx.dir, ['ls-files', '-s']) }).toEqual(before);
  return err as Error;
}

beforeAll(async () => {
  fx = await memoryFixture();
});
afterAll(cleanupTmp);

describe('memory tool: one commit per write, message = reason', () => {
  it('create → commit with the reason as message, agent as author', async () => {
    const n = count();
    const r = await fx.memory.tool({
      command: 'create',
      reason: 'Remember the tea order',
      file_path: 'notes/tea.md',
      description: 'Tea: orders',
      file_text: 'green',
    });
    expect(r.paths).toEqual(['notes/tea.md']);
    expect(r.commit).toBe(head());
    expect(count()).toBe(n + 1);
    expect(git(fx.dir, ['log', '-1', '--format=%B'])).toBe('Remember the tea order');
    expect(git(fx.dir, ['log', '-1', '--format=%an <%ae>'])).toBe('agent-1 <agent-1@gitmem.local>');
    expect(readFileSync(join(fx.dir, 'notes/tea.md'), 'utf8')).toBe('---\ndescription: "Tea: orders"\n---\ngreen\n');
    expect(porcelain()).toBe('');
  });

  it('str_replace needs exactly one match and lists every matching line otherwise', async () => {
    await fx.memory.tool({
      command: 'create',
      reason: 'r',
      file_path: 'notes/dup',
      description: 'dups',
      file_text: 'a x\nb\nc x\n',
    });
    const err = await expectError(
      fx.memory.tool({ command: 'str_replace', reason: 'r', file_path: 'notes/dup', old_string: 'x', new_string: 'y' }),
      'AMBIGUOUS_MATCH',
    );
    expect(err.message).toContain('lines 4, 6');
    await fx.memory.tool({
      command: 'str_replace',
      reason: 'all',
      file_path: 'notes/dup',
      old_string: 'x',
      new_string: 'y',
      replace_all: true,
    });
    expect(readFileSync(join(fx.dir, 'notes/dup.md'), 'utf8')).toContain('a y\nb\nc y\n');
    await fx.memory.tool({
      command: 'str_replace',
      reason: 'delete b',
      file_path: 'notes/dup',
      old_string: 'b\n',
      new_string: '',
    });
    expect(readFileSync(join(fx.dir, 'notes/dup.md'), 'utf8')).toContain('a y\nc y\n');
    await expectError(
      fx.memory.tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'notes/dup',
        old_string: 'dups',
        new_string: 'z',
      }),
      'NO_MATCH',
    );
  });

  it('insert after a line of the whole file: the top of the body, the middle, the end; past the end is refused', async () => {
    await fx.memory.tool({
      command: 'create',
      reason: 'r',
      file_path: 'notes/list',
      description: 'list',
      file_text: 'one\ntwo\n',
    });
    await fx.memory.tool({
      command: 'insert',
      reason: 'r',
      file_path: 'notes/list',
      insert_line: 0,
      insert_text: 'zero',
    });
    await fx.memory.tool({
      command: 'insert',
      reason: 'r',
      file_path: 'notes/list',
      insert_line: 5,
      insert_text: 'one-and-half',
    });
    await fx.memory.tool({
      command: 'insert',
      reason: 'r',
      file_path: 'notes/list',
      insert_line: 7,
      insert_text: 'end',
    });
    expect(readFileSync(join(fx.dir, 'notes/list.md'), 'utf8')).toBe(
      '---\ndescription: list\n---\nzero\none\none-and-half\ntwo\nend\n',
    );
    await expectError(
      fx.memory.tool({ command: 'insert', reason: 'r', file_path: 'notes/list', insert_line: 99, insert_text: 'a' }),
      'INVALID_ARGUMENT',
    );
    await expectError(
      fx.memory.tool({ command: 'insert', reason: 'r', file_path: 'notes/list', insert_line: 'x', insert_text: 'a' }),
      'INVALID_ARGUMENT',
    );
  });

  it('rename, update_description and delete (file and directory)', async () => {
    await fx.memory.tool({ command: 'rename', reason: 'move', old_path: 'notes/list.md', new_path: 'archive/list.md' });
    expect(existsSync(join(fx.dir, 'notes/list.md'))).toBe(false);
    expect(git(fx.dir, ['log', '-1', '--name-status', '--format=', '-M'])).toMatch(
      /^R100\tnotes\/list.md\tarchive\/list.md$/,
    );
    await fx.memory.tool({
      command: 'update_description',
      reason: 'clarify',
      file_path: 'archive/list',
      description: 'An old list',
    });
    expect(readFileSync(join(fx.dir, 'archive/list.md'), 'utf8')).toMatch(/^---\ndescription: An old list\n---\nzero/);
    await expectError(
      fx.memory.tool({
        command: 'update_description',
        reason: 'same',
        file_path: 'archive/list',
        description: 'An old list',
      }),
      'NO_CHANGES',
    );
    await fx.memory.tool({ command: 'delete', reason: 'tidy', file_path: 'archive' });
    expect(existsSync(join(fx.dir, 'archive'))).toBe(false);
    await expectError(
      fx.memory.tool({ command: 'delete', reason: 'again', file_path: 'archive/list.md' }),
      'FILE_NOT_FOUND',
    );
  });

  it('a no-op edit is an error and commits nothing', async () => {
    await expectError(
      fx.memory.tool({
        command: 'str_replace',
        reason: 'same',
        file_path: 'notes/tea',
        old_string: 'green',
        new_string: 'green',
      }),
      'NO_CHANGES',
    );
  });

  it('rejects malformed calls with typed errors', async () => {
    await expectError(fx.memory.tool({ command: 'create' }), 'INVALID_ARGUMENT');
    await expectError(fx.memory.tool({ command: 'explode', reason: 'r' }), 'UNKNOWN_COMMAND');
    await expectError(
      fx.memory.tool({ command: 'create', reason: '   ', file_path: 'a', description: 'd' }),
      'INVALID_ARGUMENT',
    );
    await expectError(
      fx.memory.tool({ command: 'create', reason: 'r', file_path: 'a', description: 'd', bogus: 1 }),
      'INVALID_ARGUMENT',
    );
    await expectError(
      fx.memory.tool({ command: 'create', reason: 'r', file_path: 'notes/tea', description: 'd' }),
      'FILE_EXISTS',
    );
    await expectError(fx.memory.tool('not an object'), 'INVALID_ARGUMENT');
  });
});

describe('path rules', () => {
  const cases: Array<[string, string, MemoryErrorCode]> = [
    ['dot-dot', '../escape.md', 'INVALID_PATH'],
    ['nested dot-dot', 'notes/../../escape.md', 'INVALID_PATH'],
    ['absolute outside', '/tmp/outside.md', 'PATH_ESCAPE'],
    ['home tilde', '~/notes.md', 'INVALID_PATH'],
    ['$HOME', '$HOME/notes.md', 'INVALID_PATH'],
    ['NUL byte', 'notes/a\0b.md', 'INVALID_PATH'],
    ['empty', '  ', 'INVALID_PATH'],
    ['.git', '.git/config', 'INVALID_PATH'],
  ];
  for (const [name, path, code] of cases) {
    it(`refuses ${name} and leaves the repo untouched`, async () => {
      await expectError(
        fx.memory.tool({ command: 'create', reason: 'r', file_path: path, description: 'd', file_text: 'x' }),
        code,
      );
    });
  }

  it('refuses a symlink inside the repo that points outside', async () => {
    const outside = makeTmpDir('gitmem-outside-');
    writeFileSync(join(outside, 'victim.md'), '---\ndescription: v\n---\nsecret\n');
    symlinkSync(outside, join(fx.dir, 'link'));
    git(fx.dir, ['add', 'link']);
    git(fx.dir, ['commit', '-qm', 'add link', '--no-verify']);
    await expectError(
      fx.memory.tool({ command: 'create', reason: 'r', file_path: 'link/new.md', description: 'd' }),
      'PATH_ESCAPE',
    );
    await expectError(
      fx.memory.tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'link/victim.md',
        old_string: 'secret',
        new_string: 'x',
      }),
      'PATH_ESCAPE',
    );
    expect(readFileSync(join(outside, 'victim.md'), 'utf8')).toContain('secret');
    expect(existsSync(join(outside, 'new.md'))).toBe(false);
  });

  it('accepts an absolute path inside the memory dir and the legacy memory/ prefix', async () => {
    const r = await fx.memory.tool({
      command: 'create',
      reason: 'abs',
      file_path: join(fx.dir, 'notes/abs.md'),
      description: 'abs',
    });
    expect(r.paths).toEqual(['notes/abs.md']);
    const r2 = await fx.memory.tool({
      command: 'create',
      reason: 'legacy',
      file_path: 'memory/notes/legacy',
      description: 'legacy',
    });
    expect(r2.paths).toEqual(['notes/legacy.md']);
  });
});

describe('clean check and read_only', () => {
  it('refuses a dirty repo and diagnoses a UTF-16 file', async () => {
    const file = join(fx.dir, 'notes/utf16.md');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('---\ndescription: x\n---\n', 'utf16le')]),
    );
    const err = await expectError(
      fx.memory.tool({ command: 'create', reason: 'r', file_path: 'notes/z', description: 'z' }),
      'REPO_DIRTY',
    );
    expect(err.message).toContain('notes/utf16.md');
    expect(err.message).toContain('UTF-16LE BOM');
    git(fx.dir, ['clean', '-fq']);
  });

  it('protects read_only files from the tool (edit, delete, rename)', async () => {
    mkdirSync(join(fx.dir, 'system'), { recursive: true });
    writeFileSync(join(fx.dir, 'system/rules.md'), '---\ndescription: house rules\nread_only: true\n---\nbe kind\n');
    git(fx.dir, ['add', 'system/rules.md']);
    git(fx.dir, ['commit', '-qm', 'operator adds rules', '--no-verify']);
    await expectError(
      fx.memory.tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'system/rules',
        old_string: 'kind',
        new_string: 'mean',
      }),
      'READ_ONLY',
    );
    await expectError(fx.memory.tool({ command: 'delete', reason: 'r', file_path: 'system/rules' }), 'READ_ONLY');
    await expectError(fx.memory.tool({ command: 'delete', reason: 'r', file_path: 'system' }), 'READ_ONLY');
    await expectError(
      fx.memory.tool({ command: 'rename', reason: 'r', old_path: 'system/rules', new_path: 'notes/rules' }),
      'READ_ONLY',
    );
    await expectError(
      fx.memory.tool({ command: 'update_description', reason: 'r', file_path: 'system/rules', description: 'x' }),
      'READ_ONLY',
    );
  });
});

describe('apply_patch', () => {
  it('adds, updates, moves and deletes across files in one commit', async () => {
    await fx.memory.tool({
      command: 'create',
      reason: 'seed',
      file_path: 'notes/p1',
      description: 'p1',
      file_text: 'alpha\nbeta\n',
    });
    await fx.memory.tool({
      command: 'create',
      reason: 'seed',
      file_path: 'notes/p2',
      description: 'p2',
      file_text: 'gone\n',
    });
    const n = count();
    const patch = [
      '*** Begin Patch',
      '*** Add File: notes/p3.md',
      '+---',
      '+description: p3',
      '+---',
      '+new file',
      '*** Update File: notes/p1.md',
      '*** Move to: notes/p1-moved.md',
      '@@',
      ' alpha',
      '-beta',
      '+BETA',
      '*** Delete File: notes/p2.md',
      '*** End Patch',
    ].join('\n');
    const r = await fx.memory.applyPatch({ reason: 'reorganise notes', patch });
    expect(count()).toBe(n + 1);
    expect(r.paths.sort()).toEqual(['notes/p1-moved.md', 'notes/p1.md', 'notes/p2.md', 'notes/p3.md']);
    expect(readFileSync(join(fx.dir, 'notes/p1-moved.md'), 'utf8')).toContain('alpha\nBETA\n');
    expect(existsSync(join(fx.dir, 'notes/p2.md'))).toBe(false);
    expect(git(fx.dir, ['log', '-1', '--format=%s'])).toBe('reorganise notes');
  });

  it('an undeclared argument is refused on every library entry, naming the key as the MCP server does; nothing is committed', async () => {
    const input = '*** Begin Patch\n*** Add File: notes/undeclared.md\n+---\n+description: u\n+---\n+x\n*** End Patch';
    const patch = await expectError(
      fx.memory.applyPatch({ reason: 'r', input, dry_run: true } as never),
      'INVALID_ARGUMENT',
    );
    expect(patch.message).toBe("memory_apply_patch: unknown argument 'dry_run' (declared: reason, input, patch)");
    expect(patch).toMatchObject({ data: { tool: 'memory_apply_patch', field: 'dry_run' } });
    const create = await expectError(
      fx.memory.tool({ command: 'create', reason: 'r', file_path: 'notes/u2', description: 'd', overwrite: true }),
      'INVALID_ARGUMENT',
    );
    expect(create.message).toMatch(/^memory: unknown argument 'overwrite' \(declared: command, reason, file_path, /);
    expect(create).toMatchObject({ data: { tool: 'memory', field: 'overwrite' } });
    await expectError(fx.memory.tool({ command: 'view', verbose: 1 }), 'INVALID_ARGUMENT');
    // A key that is not one line is shown as one.
    const nl = await expectError(fx.memory.applyPatch({ reason: 'r', input, 'a\nb': 1 } as never), 'INVALID_ARGUMENT');
    expect(nl.message).toBe('memory_apply_patch: unknown argument "a\\nb" (declared: reason, input, patch)');
    await expectError(fx.memory.applyPatch({ reason: 'r', input, patch: input }), 'INVALID_ARGUMENT');
    expect(existsSync(join(fx.dir, 'notes/undeclared.md'))).toBe(false);
  });

  it('a mismatching hunk changes nothing', async () => {
    const patch = '*** Begin Patch\n*** Update File: notes/p3.md\n@@\n-not there\n+x\n*** End Patch';
    const err = await expectError(fx.memory.applyPatch({ reason: 'r', patch }), 'PATCH_MISMATCH');
    expect(err.message).toContain('context not found');
  });
});
