import { chmodSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../../src/memory.js';
import { createGitRunner, type GitRunner } from '../../../src/git/runner.js';
import { isMemoryError } from '../../../src/errors.js';
import { cleanupTmp, git, gitTry } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

let fx: MemoryFixture;
const rawCommit = (msg: string) => gitTry(fx.dir, ['commit', '-qm', msg]);

beforeAll(async () => {
  fx = await memoryFixture();
  writeFileSync(join(fx.dir, 'system/locked.md'), '---\ndescription: locked\nread_only: true\n---\noperator text\n');
  git(fx.dir, ['add', '-A']);
  git(fx.dir, ['commit', '-qm', 'operator', '--no-verify']);
});
afterAll(cleanupTmp);

function resetHard(): void {
  git(fx.dir, ['reset', '-q', '--hard', 'HEAD']);
  git(fx.dir, ['clean', '-fdq']);
}

describe('pre-commit hook on raw shell commits', () => {
  it('rejects a file without a description and names the problem', () => {
    writeFileSync(join(fx.dir, 'notes.md'), '---\nlimit: 5\n---\nbody\n');
    git(fx.dir, ['add', 'notes.md']);
    const r = rawCommit('raw');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("notes.md: missing required field 'description'");
    resetHard();
  });

  it('rejects unknown keys, missing frontmatter and flat skills, reporting all at once', () => {
    writeFileSync(join(fx.dir, 'system/a.md'), '---\ndescription: a\ncolour: red\n---\n');
    writeFileSync(join(fx.dir, 'system/b.md'), 'no frontmatter\n');
    writeFileSync(join(fx.dir, 'skills.md'), '---\ndescription: x\n---\n');
    git(fx.dir, ['add', '-A']);
    git(fx.dir, ['mv', '-f', 'skills.md', 'skills-x.md']);
    writeFileSync(join(fx.dir, 'flat.md'), '---\ndescription: x\n---\n');
    git(fx.dir, ['add', '-A']);
    const r = rawCommit('raw');
    expect(r.stderr).toContain("system/a.md: unknown frontmatter key 'colour'");
    expect(r.stderr).toContain('system/b.md: missing frontmatter');
    resetHard();
  });

  it('accepts a valid file and a proper skill folder', () => {
    writeFileSync(join(fx.dir, 'ok.md'), '---\ndescription: fine\n---\nok\n');
    git(fx.dir, ['add', '-A']);
    expect(rawCommit('good').status).toBe(0);
  });

  it('rejects a raw commit that edits a read_only file', () => {
    writeFileSync(join(fx.dir, 'system/locked.md'), '---\ndescription: locked\nread_only: true\n---\nagent text\n');
    git(fx.dir, ['add', '-A']);
    const r = rawCommit('edit');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('system/locked.md: file is read_only and cannot be modified');
    resetHard();
  });

  it('rejects removing or flipping the read_only key', () => {
    writeFileSync(join(fx.dir, 'system/locked.md'), '---\ndescription: locked\n---\noperator text\n');
    git(fx.dir, ['add', '-A']);
    expect(rawCommit('unlock').status).not.toBe(0);
    resetHard();
    writeFileSync(join(fx.dir, 'notes2.md'), '---\ndescription: n\nread_only: false\n---\n');
    git(fx.dir, ['add', '-A']);
    expect(rawCommit('set').stderr).toContain("'read_only' is a protected field and cannot be set");
    resetHard();
  });

  it('rejects deleting a read_only file', () => {
    unlinkSync(join(fx.dir, 'system/locked.md'));
    git(fx.dir, ['add', '-A']);
    const r = rawCommit('delete');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('system/locked.md: file is read_only and cannot be deleted');
    resetHard();
  });

  it('rejects renaming a read_only file', () => {
    renameSync(join(fx.dir, 'system/locked.md'), join(fx.dir, 'system/moved.md'));
    git(fx.dir, ['add', '-A']);
    const r = rawCommit('rename');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('system/locked.md: file is read_only and cannot be renamed');
    resetHard();
    expect(readFileSync(join(fx.dir, 'system/locked.md'), 'utf8')).toContain('operator text');
  });

  it('gitmem hooks are reinstalled when the library opens a repo whose hooks are missing or stale', async () => {
    const hook = join(fx.dir, '.git/hooks/pre-commit');
    rmSync(hook);
    await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env });
    expect(readFileSync(hook, 'utf8')).toContain('gitmem pre-commit hook');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    chmodSync(hook, 0o755);
    git(fx.dir, ['config', 'core.hooksPath', '/nowhere']);
    await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env });
    expect(readFileSync(hook, 'utf8')).toContain('gitmem pre-commit hook');
    writeFileSync(join(fx.dir, 'bad.md'), 'x\n');
    git(fx.dir, ['add', '-A']);
    expect(rawCommit('bad').status).not.toBe(0);
    resetHard();
  });
});

describe('a failed commit leaves no residue', () => {
  it('restores the work tree and index when the commit step fails', async () => {
    const real = createGitRunner({ env: fx.env });
    const failing: GitRunner = {
      ...real,
      run: real.run,
      exec: async (op, o) => {
        if (op.args[0] === 'update-ref') throw new Error('simulated crash before the ref moved');
        return real.exec(op, o);
      },
    };
    const memory = await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env, git: failing });
    const before = {
      head: git(fx.dir, ['rev-parse', 'HEAD']),
      index: git(fx.dir, ['ls-files', '-s']),
      human: readFileSync(join(fx.dir, 'system/human.md'), 'utf8'),
    };
    await expect(
      memory.tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'system/human',
        old_string: 'yet',
        new_string: 'already',
      }),
    ).rejects.toThrow(/simulated/);
    await expect(
      memory.tool({ command: 'create', reason: 'r', file_path: 'notes/new', description: 'n' }),
    ).rejects.toThrow(/simulated/);
    expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    expect(git(fx.dir, ['ls-files', '-s'])).toBe(before.index);
    expect(git(fx.dir, ['rev-parse', 'HEAD'])).toBe(before.head);
    expect(readFileSync(join(fx.dir, 'system/human.md'), 'utf8')).toBe(before.human);
  });

  it('undoes the branch move when staging fails after the ref moved', async () => {
    const real = createGitRunner({ env: fx.env });
    const failing: GitRunner = {
      ...real,
      exec: async (op, o) => {
        if (op.args[0] === 'update-index') {
          await new Promise((r) => setTimeout(r, 150)); // let update-ref win the race
          throw new Error('simulated staging failure');
        }
        return real.exec(op, o);
      },
    };
    const memory = await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env, git: failing });
    const head = git(fx.dir, ['rev-parse', 'HEAD']);
    await expect(
      memory.tool({ command: 'create', reason: 'r', file_path: 'notes/staged', description: 'n' }),
    ).rejects.toThrow(/staging/);
    expect(git(fx.dir, ['rev-parse', 'HEAD'])).toBe(head);
    expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });

  it('a write the format rules reject is refused before anything is written', async () => {
    const before = git(fx.dir, ['rev-parse', 'HEAD']);
    const err = await fx.memory
      .tool({ command: 'create', reason: 'r', file_path: 'skills/flat', description: 'x' })
      .catch((e: unknown) => e);
    expect(isMemoryError(err, 'VALIDATION_FAILED')).toBe(true);
    expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    expect(git(fx.dir, ['rev-parse', 'HEAD'])).toBe(before);
  });
});

describe('prompt compilation', () => {
  it('compiles from the committed revision only, byte-identical for the same commit', async () => {
    const a = await fx.memory.compilePrompt({ mode: 'local-memfs' });
    writeFileSync(join(fx.dir, 'system/human.md'), '---\ndescription: dirty\n---\nUNCOMMITTED SECRET\n');
    const b = await fx.memory.compilePrompt({ mode: 'local-memfs' });
    expect(b).toBe(a);
    expect(b).not.toContain('UNCOMMITTED SECRET');
    resetHard();
    const other = await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env });
    expect(await other.compilePrompt({ mode: 'local-memfs' })).toBe(a);
    expect(a).toContain('<self>');
    expect(a).toContain(git(fx.dir, ['rev-parse', 'HEAD']));
  });

  it('an unknown preset is an error', async () => {
    const err = await fx.memory.compilePrompt({ preset: 'nope' }).catch((e: unknown) => e);
    expect(isMemoryError(err, 'UNKNOWN_PRESET')).toBe(true);
  });
});
