// A write changes only what it was asked to change (sibling names as bytes, line endings, BOM), and its
// work under the lease is bounded whatever the input.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { expectRefused, fsckProblems } from '../../helpers/repo-guard.js';

let fx: MemoryFixture;
const bytes = (rel: string): Buffer => readFileSync(join(fx.dir, rel));
/** Raw names of the entries of HEAD's tree at `dir` (bytes as latin1, so nothing is decoded). */
const rawNames = (dir: string): string[] =>
  execFileSync('git', ['ls-tree', '-z', '--name-only', `HEAD:${dir}`], { cwd: fx.dir, env: fx.env })
    .toString('latin1')
    .split('\0')
    .filter((n) => n !== '');

beforeAll(async () => {
  fx = await memoryFixture('content');
});
afterAll(cleanupTmp);

describe('other content is never rewritten', () => {
  it('keeps a sibling whose file name is not UTF-8 byte for byte', async () => {
    mkdirSync(join(fx.dir, 'latin'));
    const name = Buffer.concat([Buffer.from(join(fx.dir, 'latin/caf')), Buffer.from([0xe9]), Buffer.from('.md')]);
    writeFileSync(name, '---\ndescription: c\n---\nc\n');
    git(fx.dir, ['add', 'latin']);
    git(fx.dir, ['commit', '-qm', 'operator commits a latin-1 name', '--no-verify']);
    await fx.memory.tool({ command: 'create', reason: 'r', file_path: 'latin/new.md', description: 'n' });
    expect(rawNames('latin').sort()).toEqual(['caf\xe9.md', 'new.md']);
    await fx.memory
      .tool({ command: 'str_replace', reason: 'r', file_path: 'latin/new.md', old_string: 'n', new_string: 'm' })
      .catch(() => undefined);
    await fx.memory.tool({ command: 'delete', reason: 'r', file_path: 'latin/new.md' });
    expect(rawNames('latin')).toEqual(['caf\xe9.md']);
    expect(git(fx.dir, ['status', '--porcelain'])).toBe('');
    expect(fsckProblems(fx.dir)).toBe('');
  });

  it('an edit keeps CRLF line endings and a BOM (str_replace, insert, update_description, apply_patch)', async () => {
    const crlf = '\ufeff---\r\ndescription: w\r\n---\r\none\r\ntwo\r\n';
    mkdirSync(join(fx.dir, 'win'));
    writeFileSync(join(fx.dir, 'win/w.md'), crlf);
    git(fx.dir, ['add', 'win']);
    git(fx.dir, ['commit', '-qm', 'a windows file']);
    await fx.memory.tool({
      command: 'str_replace',
      reason: 'r',
      file_path: 'win/w.md',
      old_string: 'two',
      new_string: 'TWO\nthree',
    });
    expect(bytes('win/w.md').toString('utf8')).toBe('\ufeff---\r\ndescription: w\r\n---\r\none\r\nTWO\r\nthree\r\n');
    await fx.memory.tool({
      command: 'insert',
      reason: 'r',
      file_path: 'win/w.md',
      insert_line: 3,
      insert_text: 'zero',
    });
    expect(bytes('win/w.md').toString('utf8')).toBe(
      '\ufeff---\r\ndescription: w\r\n---\r\nzero\r\none\r\nTWO\r\nthree\r\n',
    );
    await fx.memory.tool({ command: 'update_description', reason: 'r', file_path: 'win/w.md', description: 'windows' });
    expect(bytes('win/w.md').toString('utf8')).toBe(
      '\ufeff---\r\ndescription: windows\r\n---\r\nzero\r\none\r\nTWO\r\nthree\r\n',
    );
    await fx.memory.applyPatch({
      reason: 'r',
      patch: '*** Begin Patch\n*** Update File: win/w.md\n@@\n one\n-TWO\n+two\n*** End Patch',
    });
    expect(bytes('win/w.md').toString('utf8')).toBe(
      '\ufeff---\r\ndescription: windows\r\n---\r\nzero\r\none\r\ntwo\r\nthree\r\n',
    );
    expect(git(fx.dir, ['status', '--porcelain'])).toBe('');
  });

  it('an edit of a file with mixed line endings changes only the edited lines', async () => {
    writeFileSync(join(fx.dir, 'win/mixed.md'), '---\ndescription: m\n---\nlf\ncrlf\r\nlast\n');
    git(fx.dir, ['add', 'win']);
    git(fx.dir, ['commit', '-qm', 'mixed']);
    await fx.memory.tool({
      command: 'str_replace',
      reason: 'r',
      file_path: 'win/mixed.md',
      old_string: 'last',
      new_string: 'LAST',
    });
    expect(bytes('win/mixed.md').toString('utf8')).toBe('---\ndescription: m\n---\nlf\ncrlf\r\nLAST\n');
  });

  it('refuses file_text with a NUL (the file could never be edited again)', async () => {
    await expectRefused(
      fx.dir,
      fx.memory.tool({
        command: 'create',
        reason: 'r',
        file_path: 'notes/nul.md',
        description: 'd',
        file_text: 'a\0b',
      }),
      'INVALID_ARGUMENT',
    );
  });
});

describe('bounded work under the lease', () => {
  it('str_replace of one character in a 100 KB file of it answers at once with a capped list of lines', async () => {
    await fx.memory.tool({
      command: 'create',
      reason: 'r',
      file_path: 'big/x.md',
      description: 'x',
      file_text: 'x'.repeat(100_000),
    });
    const err = await expectRefused(
      fx.dir,
      fx.memory.tool({ command: 'str_replace', reason: 'r', file_path: 'big/x.md', old_string: 'x', new_string: 'y' }),
      'AMBIGUOUS_MATCH',
    );
    expect(err.message.length).toBeLessThan(500);
    expect((err.data['lines'] as number[]).length).toBeLessThanOrEqual(20);
    expect(err.data['matches']).toBe(100_000);
    const lines = 'x\n'.repeat(50_000);
    await fx.memory.tool({
      command: 'create',
      reason: 'r',
      file_path: 'big/lines.md',
      description: 'l',
      file_text: lines,
    });
    const many = await expectRefused(
      fx.dir,
      fx.memory.tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'big/lines.md',
        old_string: 'x',
        new_string: 'y',
      }),
      'AMBIGUOUS_MATCH',
    );
    expect((many.data['lines'] as number[]).slice(0, 3)).toEqual([4, 5, 6]);
  }, 10_000);

  it('matching stays linear on periodic text that makes a naive substring search quadratic', async () => {
    await fx.memory.tool({
      command: 'create',
      reason: 'r',
      file_path: 'big/periodic.md',
      description: 'p',
      file_text: `${'a'.repeat(99_999)}\n`.repeat(10),
    });
    await expectRefused(
      fx.dir,
      fx.memory.tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'big/periodic.md',
        old_string: `\n${'a'.repeat(120_000)}`,
        new_string: 'b',
      }),
      'NO_MATCH',
    );
    const patch = `*** Begin Patch\n*** Update File: big/periodic.md\n@@\n-${'a'.repeat(120_000)}\n+b\n*** End Patch`;
    await expectRefused(fx.dir, fx.memory.applyPatch({ reason: 'r', patch }), 'PATCH_MISMATCH');
  }, 10_000);

  it('inserts a half-million-line text without overflowing the stack', async () => {
    await fx.memory.tool({
      command: 'create',
      reason: 'r',
      file_path: 'big/ins.md',
      description: 'i',
      file_text: 'one\n',
    });
    await fx.memory.tool({
      command: 'insert',
      reason: 'r',
      file_path: 'big/ins.md',
      insert_line: 3,
      insert_text: 'x\n'.repeat(499_999),
    });
    expect(bytes('big/ins.md').length).toBeGreaterThan(999_998);
  }, 10_000);

  it('a 50,000-segment path is refused before any file-system access', async () => {
    await expectRefused(
      fx.dir,
      fx.memory.tool({ command: 'create', reason: 'r', file_path: `${'a/'.repeat(50_000)}b.md`, description: 'd' }),
      'INVALID_PATH',
    );
    await expectRefused(
      fx.dir,
      fx.memory.tool({ command: 'delete', reason: 'r', file_path: 'a/'.repeat(50_000) }),
      'INVALID_PATH',
    );
  }, 10_000);
});
