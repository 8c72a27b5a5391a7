/**
 * Secret scanning on every write path, with the seeded corpus of fake credentials and look-alikes: the memory
 * tool (create, str_replace, insert), apply_patch, a raw shell commit through the hook, a background writer's
 * `--no-verify` commit at merge, and sync before pushing a `--no-verify` commit. A refusal is SECRET_DETECTED
 * naming the file, line and rule, never the value, and leaves the repository as it was.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError, type MemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { allowSecrets, disallowSecrets } from '../../../src/hooks/secret-allow.js';
import { setRemote } from '../../../src/sync/remote.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { runMemoryWorker } from '../../../src/worktree/worker.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { fakeSecrets, lookAlikes, type FakeSecret } from '../../helpers/secret-corpus.js';
import { cleanupTmp, git, gitTry, makeTmpDir } from '../../helpers/tmp.js';

const fakes = fakeSecrets();
const looks = lookAlikes();
let fx: MemoryFixture;
const g = (args: string[]): string => git(fx.dir, args, fx.env);
const state = (): string => `${g(['rev-parse', 'HEAD'])}\n${g(['status', '--porcelain'])}\n${g(['ls-files', '-s'])}`;
const md = (body: string): string => `---\ndescription: notes\n---\n${body}`;

/** The refusal of `fn`, asserted to be SECRET_DETECTED naming `path` and the fake's rule, without its value. */
async function refused(fn: () => Promise<unknown>, f: FakeSecret, path: string): Promise<MemoryError> {
  const before = state();
  const err = await fn().then(
    () => new Error('accepted'),
    (e: unknown) => e,
  );
  expect(isMemoryError(err, 'SECRET_DETECTED'), `${f.name}: ${String(err)}`).toBe(true);
  const e = err as MemoryError;
  expect(e.message).toMatch(
    new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: SECRET_DETECTED: .*rule ${f.rule}\\b`),
  );
  const shown = `${e.message}\n${JSON.stringify(e.data)}`;
  expect(shown).not.toContain(f.value);
  expect(shown).not.toContain(f.value.slice(-12));
  expect(state()).toBe(before);
  return e;
}

beforeAll(async () => {
  fx = await memoryFixture('sec');
  await fx.memory.tool({
    command: 'create',
    reason: 'base',
    file_path: 'notes/base.md',
    description: 'base',
    file_text: 'anchor line\nsecond line\n',
  });
});
afterAll(cleanupTmp);

describe('the memory tool and apply_patch refuse every fake credential', () => {
  it.each(fakes.map((f) => [f.name, f] as const))('%s: create, str_replace, insert and apply_patch', async (_n, f) => {
    const m = fx.memory;
    await refused(
      () =>
        m.tool({
          command: 'create',
          reason: 'r',
          file_path: 'notes/new.md',
          description: 'd',
          file_text: `intro\n${f.text}\n`,
        }),
      f,
      'notes/new.md',
    );
    await refused(
      () =>
        m.tool({
          command: 'str_replace',
          reason: 'r',
          file_path: 'notes/base.md',
          old_string: 'anchor line',
          new_string: f.text,
        }),
      f,
      'notes/base.md',
    );
    await refused(
      () => m.tool({ command: 'insert', reason: 'r', file_path: 'notes/base.md', insert_line: 0, insert_text: f.text }),
      f,
      'notes/base.md',
    );
    const added = [
      '*** Begin Patch',
      '*** Add File: notes/p.md',
      '+---',
      '+description: p',
      '+---',
      ...f.text.split('\n').map((l) => `+${l}`),
      '*** End Patch',
    ].join('\n');
    await refused(() => m.applyPatch({ reason: 'r', patch: added }), f, 'notes/p.md');
    const update = [
      '*** Begin Patch',
      '*** Update File: notes/base.md',
      '@@',
      ' anchor line',
      ...f.text.split('\n').map((l) => `+${l}`),
      ' second line',
      '*** End Patch',
    ].join('\n');
    await refused(() => m.applyPatch({ reason: 'r', patch: update }), f, 'notes/base.md');
  });

  it('refuses a reason (the commit message) holding a credential', async () => {
    const f = fakes.find((x) => x.rule === 'github-token') as FakeSecret;
    const e = await refused(
      () =>
        fx.memory.tool({
          command: 'create',
          reason: `saved ${f.text}`,
          file_path: 'notes/r.md',
          description: 'd',
          file_text: 'x\n',
        }),
      f,
      '(reason)',
    );
    expect(e.message).toContain('(reason):1: SECRET_DETECTED');
  });

  it('accepts every look-alike, through the tool and apply_patch', async () => {
    const text = looks.map((l) => l.text).join('\n\n');
    await fx.memory.tool({
      command: 'create',
      reason: 'look-alikes',
      file_path: 'notes/looks.md',
      description: 'not secrets',
      file_text: `${text}\n`,
    });
    const patch = [
      '*** Begin Patch',
      '*** Add File: notes/looks2.md',
      '+---',
      '+description: p',
      '+---',
      ...text.split('\n').map((l) => `+${l}`),
      '*** End Patch',
    ].join('\n');
    await fx.memory.applyPatch({ reason: 'look-alikes again', patch });
    for (const l of looks)
      await fx.memory.tool({
        command: 'str_replace',
        reason: l.name,
        file_path: 'notes/base.md',
        old_string: 'second line',
        new_string: `second line\n${l.text}`,
      });
  });

  it('allows a line carrying the marker, and a fingerprint on the operator allow list', async () => {
    const f = fakes.find((x) => x.rule === 'stripe-key') as FakeSecret;
    await fx.memory.tool({
      command: 'create',
      reason: 'doc',
      file_path: 'notes/doc.md',
      description: 'd',
      file_text: `${f.text} <!-- gitmem:allow-secret -->\n`,
    });
    const e = await refused(
      () =>
        fx.memory.tool({
          command: 'create',
          reason: 'r',
          file_path: 'notes/doc2.md',
          description: 'd',
          file_text: `${f.text}\n`,
        }),
      f,
      'notes/doc2.md',
    );
    const fingerprint = (e.data['secrets'] as Array<{ fingerprint: string }>)[0]?.fingerprint ?? '';
    expect(e.message).toContain(`gitmem secrets allow ${fingerprint}`);
    await allowSecrets(fx.dir, [fingerprint], 'test fixture');
    await fx.memory.tool({
      command: 'create',
      reason: 'allowed',
      file_path: 'notes/doc2.md',
      description: 'd',
      file_text: `${f.text}\n`,
    });
    await disallowSecrets(fx.dir, [fingerprint]);
  });

  it('scans only what a change adds: a secret already committed does not block an unrelated edit', async () => {
    const f = fakes.find((x) => x.rule === 'npm-token') as FakeSecret;
    writeFileSync(join(fx.dir, 'notes/old.md'), md(`old\n${f.text}\nkeep\n`));
    g(['add', '-A']);
    g(['commit', '-q', '--no-verify', '-m', 'operator put a token here']);
    await fx.memory.tool({
      command: 'str_replace',
      reason: 'edit elsewhere',
      file_path: 'notes/old.md',
      old_string: 'keep',
      new_string: 'kept',
    });
    await refused(
      () =>
        fx.memory.tool({
          command: 'insert',
          reason: 'again',
          file_path: 'notes/old.md',
          insert_line: 0,
          insert_text: f.text,
        }),
      f,
      'notes/old.md',
    );
  });
});

describe('a raw shell commit is refused by the hook', () => {
  it('names every fake credential by file, line and rule, and never prints a value', () => {
    const before = g(['rev-parse', 'HEAD']);
    fakes.forEach((f, i) => writeFileSync(join(fx.dir, `notes/raw-${i}.md`), md(`${f.text}\n`)));
    g(['add', '-A']);
    const r = gitTry(fx.dir, ['commit', '-qm', 'raw'], fx.env);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/^gitmem: SECRET_DETECTED: memory rules refused this commit:/m);
    fakes.forEach((f, i) => {
      expect(r.stderr, f.name).toMatch(new RegExp(`notes/raw-${i}\\.md:\\d+: SECRET_DETECTED: .*rule ${f.rule}\\b`));
      expect(r.stderr).not.toContain(f.value);
    });
    expect(g(['rev-parse', 'HEAD'])).toBe(before);
    g(['reset', '-q', '--hard', 'HEAD']);
    g(['clean', '-fdq']);
  });

  it('accepts the look-alikes, the marker and an allowed fingerprint', async () => {
    writeFileSync(join(fx.dir, 'notes/raw-looks.md'), md(`${looks.map((l) => l.text).join('\n')}\n`));
    const f = fakes.find((x) => x.rule === 'anthropic-key') as FakeSecret;
    writeFileSync(join(fx.dir, 'notes/raw-marked.md'), md(`${f.text} # gitmem:allow-secret\n`));
    g(['add', '-A']);
    expect(gitTry(fx.dir, ['commit', '-qm', 'fine'], fx.env).status).toBe(0);
    const jwt = fakes.find((x) => x.rule === 'jwt') as FakeSecret;
    writeFileSync(join(fx.dir, 'notes/raw-jwt.md'), md(`${jwt.text}\n`));
    g(['add', '-A']);
    const r = gitTry(fx.dir, ['commit', '-qm', 'jwt'], fx.env);
    const fingerprint = /fingerprint ([0-9a-f]{16})/.exec(r.stderr)?.[1] ?? '';
    expect(r.status).not.toBe(0);
    await allowSecrets(fx.dir, [fingerprint]);
    expect(gitTry(fx.dir, ['commit', '-qm', 'jwt allowed'], fx.env).status).toBe(0);
    await disallowSecrets(fx.dir, [fingerprint]);
  });
});

describe("a background writer's --no-verify commit is refused at merge", () => {
  it('is rejected, its branch kept, every fake named, the checkout untouched', async () => {
    const before = state();
    const out = await runMemoryWorker(
      { memoryDir: fx.dir, description: 'leaks' },
      async (ctx) => {
        mkdirSync(join(ctx.worktreeDir, 'notes'), { recursive: true });
        fakes.forEach((f, i) => writeFileSync(join(ctx.worktreeDir, `notes/w-${i}.md`), md(`${f.text}\n`)));
        git(ctx.worktreeDir, ['add', '-A'], fx.env);
        git(ctx.worktreeDir, ['commit', '-q', '--no-verify', '-m', 'skip the hook'], fx.env);
      },
      { git: createGitRunner({ env: fx.env }) },
    );
    expect(out.status).toBe('rejected');
    if (out.status !== 'rejected') return;
    fakes.forEach((f, i) =>
      expect(out.problems.join('\n'), f.name).toMatch(
        new RegExp(`notes/w-${i}\\.md:\\d+: SECRET_DETECTED: .*rule ${f.rule}\\b`),
      ),
    );
    const shown = JSON.stringify(out);
    for (const f of fakes) expect(shown).not.toContain(f.value);
    expect(state()).toBe(before);
    g(['branch', '-D', out.branchName]);
  });
});

describe('sync refuses to push a --no-verify commit holding a credential', () => {
  it('names commit, file, line and rule, pushes nothing, and pushes once the commit is gone', async () => {
    fx = await memoryFixture('sync'); // a history of its own: the one above holds an operator's --no-verify token
    const remote = join(makeTmpDir('gitmem-secret-remote-'), 'mem.git');
    git(fx.dir, ['init', '-q', '--bare', '-b', 'main', remote], fx.env);
    const runner = createGitRunner({ env: fx.env, sleep: async () => undefined });
    await setRemote({ git: runner, memoryDir: fx.dir, url: remote });
    expect((await syncMemory({ git: runner, memoryDir: fx.dir })).status).toBe('pushed');
    mkdirSync(join(fx.dir, 'notes'), { recursive: true });
    fakes.forEach((f, i) => writeFileSync(join(fx.dir, `notes/s-${i}.md`), md(`${f.text}\n`)));
    g(['add', '-A']);
    g(['commit', '-q', '--no-verify', '-m', 'leak']);
    const leak = g(['rev-parse', 'HEAD']);
    const r = await syncMemory({ git: runner, memoryDir: fx.dir });
    expect(r.status).toBe('push_failed');
    expect(r.error?.code).toBe('SECRET_DETECTED');
    fakes.forEach((f, i) =>
      expect(r.summary, f.name).toMatch(
        new RegExp(`commit ${leak.slice(0, 12)} notes/s-${i}\\.md:\\d+: .*rule ${f.rule}\\b`),
      ),
    );
    for (const f of fakes) expect(JSON.stringify(r)).not.toContain(f.value);
    expect(git(remote, ['rev-parse', 'main'], fx.env)).not.toBe(leak);
    expect(g(['rev-parse', 'HEAD'])).toBe(leak);
    g(['reset', '-q', '--hard', 'HEAD~1']);
    // A credential in a commit message is refused too (the hook never sees messages).
    const slack = fakes.find((x) => x.rule === 'slack-token') as FakeSecret;
    g(['commit', '-q', '--allow-empty', '-m', `note\n\ntoken ${slack.text}`]);
    const m = await syncMemory({ git: runner, memoryDir: fx.dir });
    expect(m.error?.code).toBe('SECRET_DETECTED');
    expect(m.summary).toMatch(/\(commit message\):3: Slack token .*rule slack-token/);
    expect(m.summary).not.toContain(slack.value);
    g(['reset', '-q', '--hard', 'HEAD~1']);
    mkdirSync(join(fx.dir, 'notes'), { recursive: true });
    writeFileSync(join(fx.dir, 'notes/s-looks.md'), md(`${looks.map((l) => l.text).join('\n')}\n`));
    g(['add', '-A']);
    g(['commit', '-q', '--no-verify', '-m', 'look-alikes only']);
    expect((await syncMemory({ git: runner, memoryDir: fx.dir })).status).toBe('pushed');
  });
});
