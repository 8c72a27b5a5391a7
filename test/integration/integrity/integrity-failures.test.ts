// A call that fails leaves nothing behind that a later call could commit, one bad call never disables
// writes, and every refusal is a typed one-line error with the repository as it was.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { processStartTime } from '../../../src/git/lease-file.js';
import { createMemory } from '../../../src/memory.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { expectRefused, fsckProblems } from '../../helpers/repo-guard.js';

let fx: MemoryFixture;
const subjects = (): string[] => git(fx.dir, ['log', '--format=%s']).split('\n');
const journal = (): string => join(fx.dir, '.git', 'gitmem-write.json');
const probe = (name: string) =>
  fx.memory.tool({ command: 'create', reason: `probe ${name}`, file_path: `probe/${name}.md`, description: 'p' });

beforeEach(async () => {
  fx = await memoryFixture('failures');
  await fx.memory.tool({
    command: 'create',
    reason: 'seed',
    file_path: 'notes/a.md',
    description: 'a',
    file_text: 'alpha\n',
  });
});
afterAll(cleanupTmp);

describe('a failed call never commits later', () => {
  it('create under an existing file is refused, and the next write commits only itself', async () => {
    await expectRefused(
      fx.dir,
      fx.memory.tool({ command: 'create', reason: 'ghost', file_path: 'notes/a.md/b.md', description: 'b' }),
    );
    await probe('after');
    expect(subjects()).not.toContain('ghost');
    expect(readFileSync(join(fx.dir, 'notes/a.md'), 'utf8')).toContain('alpha');
    expect(fsckProblems(fx.dir)).toBe('');
  });

  it('a rollback that cannot restore leaves no journal and a typed error; nothing is rolled forward later', async () => {
    const sabotage = await createMemory({
      home: fx.home,
      agentId: 'failures',
      env: fx.env,
      onWriteStep: (step) => {
        if (step !== 'files') return;
        renameSync(join(fx.dir, 'notes'), join(fx.dir, 'notes.moved')); // the parent is no longer a directory
        writeFileSync(join(fx.dir, 'notes'), 'in the way\n');
        throw new Error('injected failure after the files were written');
      },
    });
    const err = await sabotage
      .tool({ command: 'create', reason: 'failed call', file_path: 'notes/new.md', description: 'n' })
      .catch((e: unknown) => e);
    expect(isMemoryError(err), String(err)).toBe(true);
    expect(existsSync(journal())).toBe(false);
    rmSync(join(fx.dir, 'notes'));
    renameSync(join(fx.dir, 'notes.moved'), join(fx.dir, 'notes'));
    rmSync(join(fx.dir, 'notes/new.md'), { force: true });
    await probe('after');
    expect(subjects()).not.toContain('failed call');
    expect(fsckProblems(fx.dir)).toBe('');
  });

  it('when a file truly cannot be put back: ROLLBACK_INCOMPLETE, no journal, and the next write never commits it', async () => {
    const sabotage = await createMemory({
      home: fx.home,
      agentId: 'failures',
      env: fx.env,
      onWriteStep: (step) => {
        if (step !== 'files') return;
        rmSync(join(fx.dir, 'notes'), { recursive: true }); // the directory the write opened is gone
        throw new Error('injected failure after the files were written');
      },
    });
    const err = await sabotage
      .tool({
        command: 'str_replace',
        reason: 'failed edit',
        file_path: 'notes/a.md',
        old_string: 'alpha',
        new_string: 'omega',
      })
      .catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('ROLLBACK_INCOMPLETE');
    expect((err as Error).message).toContain('notes/a.md');
    expect(existsSync(journal())).toBe(false);
    const dirty = await probe('while dirty').catch((e: unknown) => e);
    expect((dirty as { code?: string }).code).toBe('REPO_DIRTY');
    git(fx.dir, ['checkout', '--', 'notes']);
    await probe('after');
    expect(subjects()).not.toContain('failed edit');
    expect(readFileSync(join(fx.dir, 'notes/a.md'), 'utf8')).toContain('alpha');
  });

  it('a journal whose writer is still alive is set aside, never rolled forward', async () => {
    // What a live process mid-write leaves: its commit stored, its file written, the journal naming it.
    const parent = git(fx.dir, ['rev-parse', 'HEAD']);
    mkdirSync(join(fx.dir, 'notes'), { recursive: true });
    writeFileSync(join(fx.dir, 'notes/live.md'), '---\ndescription: l\n---\nl\n');
    git(fx.dir, ['add', 'notes/live.md']);
    const tree = git(fx.dir, ['write-tree']);
    git(fx.dir, ['reset', '-q']);
    const commit = git(fx.dir, ['commit-tree', tree, '-p', parent, '-m', 'live write']);
    const owner = { pid: process.pid, hostname: hostname(), pidStart: processStartTime(process.pid) ?? undefined };
    writeFileSync(
      journal(),
      JSON.stringify({ ...owner, parent, commit, paths: ['notes/live.md'], subject: 'live write' }),
    );
    const err = await probe('first').catch((e: unknown) => e);
    expect(isMemoryError(err), String(err)).toBe(true);
    expect(subjects()).not.toContain('live write');
    expect(existsSync(journal())).toBe(false);
    rmSync(join(fx.dir, 'notes/live.md'));
    await probe('second');
    expect(subjects()).not.toContain('live write');
  });
});

describe('one bad call never disables writes', () => {
  it('a 300-character file name is refused and the next write works', async () => {
    await expectRefused(
      fx.dir,
      fx.memory.tool({ command: 'create', reason: 'r', file_path: `${'x'.repeat(300)}.md`, description: 'd' }),
      'INVALID_PATH',
    );
    await probe('after');
  });

  it('a journal that cannot be finished is set aside with a typed error once, then writes work', async () => {
    const parent = git(fx.dir, ['rev-parse', 'HEAD']);
    const blob = git(fx.dir, ['rev-parse', 'HEAD:notes/a.md']);
    const long = `${'x'.repeat(300)}.md`;
    const root = git(fx.dir, ['ls-tree', 'HEAD']).split('\n');
    const tree = mktree(fx.dir, [...root, `100644 blob ${blob}\t${long}`]);
    const commit = git(fx.dir, ['commit-tree', tree, '-p', parent, '-m', 'unfinishable']);
    writeFileSync(
      journal(),
      JSON.stringify({ pid: 999_999_999, parent, commit, paths: [long], subject: 'unfinishable' }),
    );
    const err = await probe('first').catch((e: unknown) => e);
    expect(isMemoryError(err), String(err)).toBe(true);
    expect((err as { code: string }).code).not.toBe('INTERNAL');
    expect((err as Error).message).toMatch(/rejected\.json/);
    expect(existsSync(journal())).toBe(false);
    expect(readdirSync(join(fx.dir, '.git')).filter((f) => /^gitmem-write\..*\.rejected\.json$/.test(f))).toHaveLength(
      1,
    );
    await probe('second');
    await probe('third');
    expect(subjects()).not.toContain('unfinishable');
  });
});

function mktree(dir: string, lines: string[]): string {
  return execFileSync('git', ['mktree'], {
    cwd: dir,
    env: fx.env,
    input: `${lines.join('\n')}\n`,
    encoding: 'utf8',
  }).trim();
}

describe('typed errors only', () => {
  it('refuses a NUL in reason: no commit, fsck clean', async () => {
    await expectRefused(
      fx.dir,
      fx.memory.tool({ command: 'create', reason: 'a\0b', file_path: 'notes/n.md', description: 'd' }),
      'INVALID_ARGUMENT',
    );
    await expectRefused(
      fx.dir,
      fx.memory.applyPatch({ reason: 'a\0b', patch: '*** Begin Patch\n*** Add File: notes/n.md\n+x\n*** End Patch' }),
      'INVALID_ARGUMENT',
    );
    expect(fsckProblems(fx.dir)).toBe('');
  });

  it('refuses a 200 KB one-line reason', async () => {
    const reason = 'r'.repeat(200_000);
    const err = await expectRefused(
      fx.dir,
      fx.memory.tool({ command: 'create', reason, file_path: 'notes/n.md', description: 'd' }),
      'INVALID_ARGUMENT',
    );
    expect(err.message.split('\n')).toHaveLength(1);
    expect(err.message.length).toBeLessThan(300);
  });

  it('refuses NUL and oversized values in every text parameter', async () => {
    const big = 'y'.repeat(1_100_000);
    const calls = [
      { command: 'create', file_path: 'notes/n.md', description: 'd', file_text: 'a\0b' },
      { command: 'create', file_path: 'notes/n.md', description: 'd\0', file_text: 'x' },
      { command: 'create', file_path: 'notes/n.md', description: 'd', file_text: big },
      { command: 'create', file_path: 'notes/n.md', description: 'd'.repeat(5_000) },
      { command: 'str_replace', file_path: 'notes/a.md', old_string: 'alpha', new_string: 'b\0' },
      { command: 'str_replace', file_path: 'notes/a.md', old_string: 'alpha', new_string: big },
      { command: 'str_replace', file_path: 'notes/a.md', old_string: 'alpha', new_string: '\ud800' },
      { command: 'insert', file_path: 'notes/a.md', insert_line: 1, insert_text: '\0' },
      { command: 'update_description', file_path: 'notes/a.md', description: 'x\0y' },
    ];
    for (const call of calls) await expectRefused(fx.dir, fx.memory.tool({ reason: 'r', ...call }), 'INVALID_ARGUMENT');
    await expectRefused(
      fx.dir,
      fx.memory.applyPatch({ reason: 'r', patch: '*** Begin Patch\n*** Add File: notes/n.md\n+a\0b\n*** End Patch' }),
      'INVALID_ARGUMENT',
    );
  });

  it('refuses a replace_all whose result would exceed the file size limit', async () => {
    await fx.memory.tool({
      command: 'create',
      reason: 'r',
      file_path: 'notes/many.md',
      description: 'd',
      file_text: 'x'.repeat(10_000),
    });
    await expectRefused(
      fx.dir,
      fx.memory.tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'notes/many.md',
        old_string: 'x',
        new_string: 'z'.repeat(500),
        replace_all: true,
      }),
      'INVALID_ARGUMENT',
    );
  });

  it('turns what the file system says (not a directory, name too long, is a directory, missing) into typed errors', async () => {
    mkdirSync(join(fx.dir, 'notes/d.md'));
    writeFileSync(join(fx.dir, 'notes/d.md/inner.md'), '---\ndescription: i\n---\ni\n');
    git(fx.dir, ['add', '-A']);
    git(fx.dir, ['commit', '-qm', 'dir named like a file']);
    const calls = [
      { command: 'str_replace', file_path: 'notes/a.md/b.md', old_string: 'a', new_string: 'b' },
      { command: 'delete', file_path: 'notes/a.md/b' },
      { command: 'rename', old_path: 'notes/a.md', new_path: 'notes/a.md/c.md' },
      { command: 'rename', old_path: 'notes/a.md/x.md', new_path: 'notes/c.md' },
      { command: 'str_replace', file_path: 'notes/d.md', old_string: 'a', new_string: 'b' },
      { command: 'rename', old_path: 'notes/d.md', new_path: 'notes/e.md' },
      {
        command: 'insert',
        file_path: `${'y'.repeat(250)}/${'z'.repeat(250)}/${'w'.repeat(300)}`,
        insert_line: 1,
        insert_text: 'x',
      },
      { command: 'update_description', file_path: 'notes/missing/deeper', description: 'x' },
    ];
    for (const call of calls) await expectRefused(fx.dir, fx.memory.tool({ reason: 'r', ...call }));
  });
});
