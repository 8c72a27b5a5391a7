// An operator adds and changes a protected file without `git commit --no-verify`: `gitmem protect write` and
// `memory.protection.write` commit the file's whole text as the operator (never the agent), with the reason as
// the message, through the memory tool's write path — protection lifted for that one path, every other rule
// kept — and every refusal the agent or the hook prints names that command.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { listProtectedPaths } from '../../../src/hooks/protected.js';
import { createMemory, type Memory } from '../../../src/memory.js';
import { runGitmem } from '../../helpers/cli.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git, gitTry, makeTmpDir } from '../../helpers/tmp.js';

let fx: MemoryFixture;
const run = (args: string[]): string => git(fx.dir, args, fx.env);
const head = (): string => run(['rev-parse', 'HEAD']);
const author = (): string => run(['log', '-1', '--format=%an <%ae>|%cn <%ce>']);
const state = (): string =>
  `${head()}\n${run(['status', '--porcelain', '--untracked-files=all'])}\n${listProtectedPaths(fx.dir).join(',')}`;
const md = (description: string, extra = '', body = 'text\n'): string =>
  `---\ndescription: ${description}\n${extra}---\n${body}`;
const TOKEN = `ghp_${'Zx9Yw8Vu7T'.repeat(3)}123456`;
const HINT = '`gitmem protect write <path>`';

/** An operator commit that bypasses the hook (how a read_only file was set up before protect write). */
function rawCommit(files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(fx.dir, rel, '..'), { recursive: true });
    writeFileSync(join(fx.dir, rel), text);
  }
  run(['add', '-A']);
  run(['commit', '-qm', 'raw', '--no-verify']);
}

async function refusal(p: Promise<unknown>, code: string): Promise<Error> {
  const before = state();
  const err = await p.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e as Error,
  );
  expect(isMemoryError(err) ? err.code : String(err), err.message).toBe(code);
  expect(state()).toBe(before); // nothing committed, nothing left behind, the list unchanged
  return err;
}

/** A handle whose environment names no author: the identity comes from the user's git config, or gitmem's. */
async function openWithoutAuthorEnv(globalConfig?: string): Promise<Memory> {
  const env: Record<string, string> = { ...fx.env };
  delete env['GIT_AUTHOR_NAME'];
  delete env['GIT_AUTHOR_EMAIL'];
  if (globalConfig !== undefined) writeFileSync(env['GIT_CONFIG_GLOBAL'] as string, globalConfig);
  return createMemory({ home: fx.home, agentId: 'agent-1', env });
}

beforeEach(async () => {
  fx = await memoryFixture();
});
afterAll(cleanupTmp);

describe('memory.protection.write: the operator changes what the agent may not', () => {
  it('replaces a read_only file as the operator, with the reason as message; the agent is still refused, told the command', async () => {
    rawCommit({ 'system/rules.md': md('house rules', 'read_only: true\n', 'be kind\n') });
    const memory = await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env });
    const agent = await refusal(
      memory.tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'system/rules',
        old_string: 'kind',
        new_string: 'mean',
      }),
      'READ_ONLY',
    );
    expect(agent.message).toContain(HINT);
    const text = md('house rules', 'read_only: true\n', 'be kind\nbe brief\n');
    const r = await memory.protection.write('system/rules.md', text, { reason: 'House rules: add brevity' });
    expect(r).toMatchObject({ commit: head(), paths: ['system/rules.md'], protected: true });
    expect(run(['show', 'HEAD:system/rules.md'])).toBe(text.trimEnd());
    expect(run(['log', '-1', '--format=%B'])).toBe('House rules: add brevity');
    // The environment's GIT_AUTHOR_* (as for the person's own `git commit`), never the agent's identity.
    expect(author()).toBe('Test User <test@example.com>|Test User <test@example.com>');
    expect(run(['status', '--porcelain'])).toBe('');
    await refusal(
      memory.tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'system/rules',
        old_string: 'brief',
        new_string: 'long',
      }),
      'READ_ONLY',
    );
  });

  it('creates a read_only file and puts it on the protected list, so dropping the key later does not free it', async () => {
    const r = await fx.memory.protection.write(
      'system/limits',
      md('limits', 'read_only: yes\n', 'no more than 3 tools\n'),
      { reason: 'limits' },
    );
    expect(r).toMatchObject({ paths: ['system/limits.md'], protected: true });
    expect(listProtectedPaths(fx.dir)).toEqual(['system/limits.md']);
    // A raw commit that drops the key is refused by the hook, which names the command too.
    writeFileSync(join(fx.dir, 'system/limits.md'), md('limits', '', 'anything goes\n'));
    run(['add', '-A']);
    const hook = gitTry(fx.dir, ['commit', '-qm', 'free it'], fx.env);
    expect(hook.status).not.toBe(0);
    expect(hook.stderr).toContain(
      `system/limits.md: file is read_only and cannot be modified; an operator writes it with ${HINT}`,
    );
    run(['reset', '-q', '--hard']);
    // The operator may drop it; the list keeps the path until `protect remove`.
    const freed = await fx.memory.protection.write('system/limits.md', md('limits', '', 'anything goes\n'), {
      reason: 'relax',
    });
    expect(freed.protected).toBe(true);
    const agent = await refusal(
      fx.memory.tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'system/limits',
        old_string: 'anything',
        new_string: 'nothing',
      }),
      'VALIDATION_FAILED',
    );
    expect(agent.message).toContain(
      `protected (gitmem recorded it as read_only) and cannot be modified; an operator writes it with ${HINT}`,
    );
  });

  it('writes a listed path with no read_only key, and a plain file', async () => {
    await fx.memory.protection.add(['notes/pinned.md']);
    const r = await fx.memory.protection.write('notes/pinned.md', md('pinned', '', 'kept\n'), { reason: 'pin' });
    expect(r).toMatchObject({ paths: ['notes/pinned.md'], protected: true });
    const plain = await fx.memory.protection.write('notes/config.json', '{"strict": true}', { reason: 'config' });
    expect(plain).toMatchObject({ paths: ['notes/config.json'], protected: false });
    expect(run(['show', 'HEAD:notes/config.json'])).toBe('{"strict": true}');
  });

  it('every other rule still holds: a credential, a link, a missing frontmatter, an unknown key, a .git look-alike, no change', async () => {
    rawCommit({ 'system/rules.md': md('rules', 'read_only: true\n') });
    symlinkSync('/etc', join(fx.dir, 'linked'));
    symlinkSync('/etc/hostname', join(fx.dir, 'system/lnk.md'));
    run(['add', '-A']);
    run(['commit', '-qm', 'links', '--no-verify']);
    const memory = await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env });
    const w = (path: string, text: string) => memory.protection.write(path, text, { reason: 'operator' });
    const secret = await refusal(
      w('system/rules.md', md('rules', 'read_only: true\n', `token ${TOKEN}\n`)),
      'SECRET_DETECTED',
    );
    expect(secret.message).not.toContain(TOKEN);
    await refusal(w('system/lnk.md', md('l')), 'PATH_ESCAPE');
    await refusal(w('linked/x.md', md('x')), 'PATH_ESCAPE');
    await refusal(w('system/rules.md', 'no frontmatter\n'), 'VALIDATION_FAILED');
    expect(
      (await refusal(w('system/rules.md', md('rules', 'colour: red\nread_only: true\n')), 'VALIDATION_FAILED')).message,
    ).toContain("unknown frontmatter key 'colour'");
    await refusal(w('.GIT/config', 'x'), 'INVALID_PATH');
    await refusal(w('system/rules.md', md('rules', 'read_only: true\n')), 'NO_CHANGES');
    await refusal(memory.protection.write('system/rules.md', md('rules'), { reason: '  ' }), 'INVALID_ARGUMENT');
    await refusal(w('system/rules.md', 'a\0b'), 'INVALID_ARGUMENT');
  });

  it("the author is the user's git configuration, never the memory's own (which names the agent), else gitmem's operator", async () => {
    expect(run(['config', '--local', 'user.name'])).toBe('agent-1'); // what init recorded
    const configured = await openWithoutAuthorEnv('[user]\n\tname = Ada Operator\n\temail = ada@example.org\n');
    await configured.protection.write('system/a.md', md('a', 'read_only: true\n'), { reason: 'a' });
    expect(author()).toBe('Ada Operator <ada@example.org>|Ada Operator <ada@example.org>');
    const bare = await openWithoutAuthorEnv('');
    await bare.protection.write('system/b.md', md('b', 'read_only: true\n'), { reason: 'b' });
    expect(author()).toBe('gitmem operator <operator@gitmem.local>|gitmem operator <operator@gitmem.local>');
    await bare.protection.write('system/c.md', md('c'), {
      reason: 'c',
      author: { name: 'Grace', email: 'grace@example.org' },
    });
    expect(author()).toBe('Grace <grace@example.org>|Grace <grace@example.org>');
    const history = await bare.history({ path: 'system/b.md' });
    expect(history[0]?.writer).toBe('shell'); // a person's commit, not the agent's
  });
});

describe('gitmem protect write (CLI)', () => {
  const cli = (args: string[], input?: string) =>
    runGitmem(
      { ...fx.env, GITMEM_HOME: fx.home },
      [...args, '--agent', 'agent-1'],
      input === undefined ? {} : { input },
    );

  it('writes from --text-file or stdin as the operator; refuses a missing reason or text, and a credential, changing nothing', () => {
    rawCommit({ 'system/rules.md': md('house rules', 'read_only: true\n', 'be kind\n') });
    const agent = cli(['memory', 'str-replace', 'system/rules.md', '--old', 'kind', '--new', 'mean', '--reason', 'r']);
    expect(agent.code).toBe(1);
    expect(agent.stderr).toContain(
      `READ_ONLY: memory: system/rules.md is read_only and cannot be modified; an operator writes it with ${HINT}`,
    );
    const file = join(makeTmpDir(), 'rules.md');
    writeFileSync(file, md('house rules', 'read_only: true\n', 'be kind\nbe brief\n'));
    const ok = cli(['protect', 'write', 'system/rules.md', '--text-file', file, '--reason', 'House rules: brevity']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(
      /^protect write committed \([0-9a-f]{7}\)\. system\/rules\.md\nsystem\/rules\.md is on the protected list/,
    );
    expect(run(['log', '-1', '--format=%B'])).toBe('House rules: brevity');
    expect(author()).toBe('Test User <test@example.com>|Test User <test@example.com>');
    const piped = cli(
      ['protect', 'write', 'system/new.md', '--text-file', '-', '--reason', 'from stdin', '--json'],
      md('new', 'read_only: true\n'),
    );
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ paths: ['system/new.md'], protected: true });
    const before = state();
    expect(cli(['protect', 'write', 'system/new.md', '--text-file', file]).stderr).toMatch(/--reason R is required/);
    expect(cli(['protect', 'write', 'system/new.md', '--reason', 'r']).stderr).toMatch(/--text-file F/);
    writeFileSync(file, md('new', 'read_only: true\n', `${TOKEN}\n`));
    const secret = cli(['protect', 'write', 'system/new.md', '--text-file', file, '--reason', 'r']);
    expect(secret.code).toBe(1);
    expect(secret.stderr).toContain('SECRET_DETECTED');
    expect(cli(['protect', 'add', 'x.md', '--reason', 'r']).code).toBe(1);
    expect(state()).toBe(before);
    expect(cli(['protect', 'list']).stdout.trim().split('\n')).toEqual(['system/new.md', 'system/rules.md']);
  });
});
