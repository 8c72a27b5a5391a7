/**
 * The index layout end to end on real repositories: init records it, and the memory tool, a plain
 * `git commit` through the pre-commit hook, a worker's merge, the compiled prompt, status and a clone synced
 * between two machines all follow it; the system layout keeps its own rules beside it.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/doctor/doctor.js';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory, type Memory } from '../../../src/memory.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { setRemote } from '../../../src/sync/remote.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { runWorkerCommand } from '../../../src/worktree/command-body.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const root = makeTmpDir('gitmem-layout-');
const env = { ...hermeticGitEnv(root) };
const runner = createGitRunner({ env, sleep: async () => undefined });
const topic = (name: string, description: string, body = 'body\n'): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

async function open(
  home: string,
  agentId: string,
  layout?: 'index' | 'system',
): Promise<{ memory: Memory; dir: string }> {
  const r = await initMemory({ home, agentId, env: { ...env, GITMEM_HOME: home }, ...(layout ? { layout } : {}) });
  return { memory: await createMemory({ home, agentId, env: { ...env, GITMEM_HOME: home } }), dir: r.memoryDir };
}

async function refused(fn: () => Promise<unknown>, code: string): Promise<string> {
  const err = await fn().then(
    () => new Error('accepted'),
    (e: unknown) => e,
  );
  expect(isMemoryError(err, code as never), String(err)).toBe(true);
  return (err as Error).message;
}

describe('the index layout', () => {
  const home = makeTmpDir('gitmem-home-');
  let memory: Memory;
  let dir: string;
  const g = (args: string[]): string => git(dir, args, env);

  it('init --layout index records it where every worktree sees it, with a root index and core files', async () => {
    ({ memory, dir } = await open(home, 'idx', 'index'));
    expect(g(['config', '--get', 'gitmem.layout'])).toBe('index');
    expect(g(['ls-tree', '--name-only', 'HEAD']).split('\n').sort()).toEqual(['MEMORY.md', 'human.md', 'persona.md']);
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).not.toMatch(/^---/);
    expect(readFileSync(join(dir, 'persona.md'), 'utf8')).toMatch(/^---\n(?:.*\n)*name: persona\n/);
    expect((await memory.status()).layout).toBe('index');
    await refused(() => initMemory({ home, agentId: 'idx', env, layout: 'system' }), 'INVALID_ARGUMENT');
    await refused(() => initMemory({ home, agentId: 'bad', env, layout: 'flat' as never }), 'INVALID_ARGUMENT');
  });

  it('the tool writes topic files (name filled in), plain indexes, and refuses what the layout forbids', async () => {
    await memory.tool({
      command: 'create',
      reason: 'go notes',
      file_path: 'lang/go.md',
      description: 'Go style',
      file_text: 'gofmt\n',
    });
    expect(readFileSync(join(dir, 'lang/go.md'), 'utf8')).toBe('---\nname: go\ndescription: Go style\n---\ngofmt\n');
    await memory.tool({
      command: 'create',
      reason: 'index lang',
      file_path: 'lang/MEMORY.md',
      file_text: '- [Go](go.md) — Go style\n',
    });
    const head = g(['rev-parse', 'HEAD']);
    expect(
      await refused(
        () =>
          memory.tool({
            command: 'create',
            reason: 'x',
            file_path: 'lang/rust.md',
            file_text: '---\nname: r\ndescription: d\ntype: diary\n---\n',
          }),
        'VALIDATION_FAILED',
      ),
    ).toMatch(/'type' must be one of/);
    await refused(() => memory.tool({ command: 'delete', reason: 'x', file_path: 'MEMORY.md' }), 'VALIDATION_FAILED');
    const long = Array.from({ length: 210 }, (_, i) => `- t${i}`).join('\n');
    expect(
      await refused(
        () =>
          memory.tool({
            command: 'str_replace',
            reason: 'grow',
            file_path: 'MEMORY.md',
            old_string: '# Memory',
            new_string: `# Memory\n${long}`,
          }),
        'BUDGET_EXCEEDED',
      ),
    ).toMatch(/condense it/);
    expect(g(['rev-parse', 'HEAD'])).toBe(head);
    expect(g(['status', '--porcelain'])).toBe('');
  });

  it('memory_apply_patch adds and edits MEMORY.md indexes as plain markdown, as the tool does', async () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: ops/MEMORY.md',
      '+- [Deploy](deploy.md) — how to deploy',
      '*** Add File: ops/deploy.md',
      '+---',
      '+name: deploy',
      '+description: how to deploy',
      '+---',
      '+ship it',
      '*** Update File: MEMORY.md',
      '@@',
      ' # Memory',
      '+- [Ops](ops/MEMORY.md) — deployment notes',
      '*** End Patch',
    ].join('\n');
    await memory.applyPatch({ reason: 'ops notes', input: patch });
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toMatch(/^# Memory\n- \[Ops\]\(ops\/MEMORY\.md\) — /);
    expect(readFileSync(join(dir, 'ops/MEMORY.md'), 'utf8')).toBe('- [Deploy](deploy.md) — how to deploy');
    expect(g(['show', 'HEAD:ops/deploy.md'])).toBe('---\nname: deploy\ndescription: how to deploy\n---\nship it');
    expect(g(['status', '--porcelain'])).toBe('');
  });

  it('a plain git commit goes through the hook with the same rules', () => {
    writeFileSync(join(dir, 'lang/py.md'), '---\ndescription: no name\n---\nx\n');
    g(['add', '-A']);
    const r = gitTry(dir, ['commit', '-qm', 'py'], env);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/lang\/py\.md: missing required field 'name'/);
    writeFileSync(join(dir, 'lang/py.md'), topic('py', 'Python style'));
    g(['add', '-A']);
    g(['commit', '-qm', 'py']);
    expect(g(['log', '-1', '--format=%s'])).toBe('py');
  });

  it('compiles root files into the prompt and lists deferred directories with their index', async () => {
    const prompt = await memory.compilePrompt();
    expect(prompt).toContain('<projection>$MEMORY_DIR/MEMORY.md</projection>');
    expect(prompt).toContain('<directory path="$MEMORY_DIR/lang" index="$MEMORY_DIR/lang/MEMORY.md"/>');
    expect(prompt).not.toContain('gofmt');
  });

  it("a worker's merge follows the layout: a valid topic lands, a frontmatter'd index is rejected", async () => {
    const run = (command: string) =>
      runWorkerCommand({
        launch: sharedShellLauncher(),
        memoryDir: dir,
        gitmemHome: home,
        command,
        env: { ...env, GITMEM_HOME: home },
        git: runner,
        onWarning: () => undefined,
        onOutput: () => undefined,
      });
    // The private worktree checks out the top level (sparse cone): a worker writes core files there.
    const ok = await run(
      `printf -- '---\\nname: ops\\ndescription: ops notes\\n---\\nx\\n' > ops.md && git add -A && git commit -qm ops`,
    );
    expect(ok.status).toBe('merged');
    expect(g(['show', 'HEAD:ops.md'])).toMatch(/name: ops/);
    const head = g(['rev-parse', 'HEAD']);
    // --no-verify: past the worktree's own hook, so the merge's check is what refuses it.
    const bad = await run(
      `printf -- '---\\nname: x\\n---\\n' > MEMORY.md && git add -A && git commit --no-verify -qm idx`,
    );
    expect(bad.status).toBe('rejected');
    if (bad.status === 'rejected')
      expect(bad.problems.join('\n')).toMatch(/MEMORY.md: a MEMORY.md routing index has no frontmatter/);
    expect(g(['rev-parse', 'HEAD'])).toBe(head);
  });

  it('doctor names the layout and every file its nearest index does not link', async () => {
    const report = await runDoctor({ git: runner, memoryDir: dir, home, env, fix: false, only: ['layout'] });
    const layout = report.checks.find((c) => c.check === 'layout');
    expect(layout?.line).toMatch(/^layout: index /);
    expect(layout?.details).toEqual([
      'lang/MEMORY.md: not linked from MEMORY.md',
      'lang/py.md: not linked from lang/MEMORY.md',
    ]);
  });

  it('doctor --fix appends the missing index lines in one commit and removes nothing', async () => {
    const head = g(['rev-parse', 'HEAD']);
    const before = { root: g(['show', 'HEAD:MEMORY.md']), lang: g(['show', 'HEAD:lang/MEMORY.md']) };
    const report = await runDoctor({ git: runner, memoryDir: dir, home, env, fix: true, only: ['layout'] });
    const layout = report.checks.find((c) => c.check === 'layout');
    expect(layout?.status).toBe('ok');
    expect(layout?.fixed).toEqual(['MEMORY.md: linked 1 file(s)', 'lang/MEMORY.md: linked 1 file(s)']);
    expect(g(['rev-parse', 'HEAD~1'])).toBe(head);
    expect(g(['diff', '--name-only', head, 'HEAD']).split('\n').sort()).toEqual(['MEMORY.md', 'lang/MEMORY.md']);
    const root = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
    const lang = readFileSync(join(dir, 'lang/MEMORY.md'), 'utf8');
    expect(root.startsWith(before.root)).toBe(true);
    expect(lang.startsWith(before.lang)).toBe(true);
    expect(root.slice(before.root.length)).toMatch(/^\n?- \[lang\]\(lang\/MEMORY\.md\)\n$/);
    expect(lang.slice(before.lang.length)).toMatch(/^\n?- \[py\]\(py\.md\) — .+\n$/);
    expect(g(['status', '--porcelain'])).toBe('');
    const again = await runDoctor({ git: runner, memoryDir: dir, home, env, fix: true, only: ['layout'] });
    expect(again.checks[0]?.fixed).toBeUndefined();
    expect(g(['rev-parse', 'HEAD~1'])).toBe(head);
  });

  it('a clone takes the layout from the tree and both machines converge through sync', async () => {
    const remote = join(makeTmpDir('gitmem-remote-'), 'idx.git');
    git(root, ['init', '-q', '--bare', '-b', 'main', remote], env);
    await setRemote({ git: runner, memoryDir: dir, url: remote });
    expect((await syncMemory({ git: runner, memoryDir: dir })).status).toBe('pushed');
    const homeB = makeTmpDir('gitmem-homeB-');
    const b = await cloneMemory({ home: homeB, url: remote, agentId: 'idx', git: runner });
    expect(git(b.memoryDir, ['config', '--get', 'gitmem.layout'], env)).toBe('index');
    const memB = await createMemory({ home: homeB, agentId: 'idx', env: { ...env, GITMEM_HOME: homeB } });
    await memB.tool({
      command: 'create',
      reason: 'from B',
      file_path: 'b/notes.md',
      description: 'B notes',
      file_text: 'b\n',
    });
    await memory.tool({
      command: 'create',
      reason: 'from A',
      file_path: 'a/notes.md',
      description: 'A notes',
      file_text: 'a\n',
    });
    expect((await syncMemory({ git: runner, memoryDir: b.memoryDir })).status).toBe('pushed');
    await syncMemory({ git: runner, memoryDir: dir });
    expect(g(['show', 'HEAD:b/notes.md'])).toMatch(/name: notes/);
    const remoteFiles = git(remote, ['ls-tree', '-r', '--name-only', 'main'], env).split('\n');
    expect(remoteFiles).toEqual(expect.arrayContaining(['a/notes.md', 'b/notes.md', 'MEMORY.md']));
  });
});

describe('the system layout beside it', () => {
  it('keeps its rules: init without --layout is system, a root MEMORY.md needs frontmatter there', async () => {
    const home = makeTmpDir('gitmem-home-');
    const { memory, dir } = await open(home, 'sys');
    expect(git(dir, ['config', '--get', 'gitmem.layout'], env)).toBe('system');
    expect((await memory.status()).layout).toBe('system');
    expect(
      await refused(
        () => memory.tool({ command: 'create', reason: 'x', file_path: 'MEMORY.md', file_text: '# x\n' }),
        'INVALID_ARGUMENT',
      ),
    ).toMatch(/description/);
    mkdirSync(join(dir, 'n'), { recursive: true });
    writeFileSync(join(dir, 'n/a.md'), topic('a', 'A').replace('name: a', 'colour: a'));
    git(dir, ['add', '-A'], env);
    const r = gitTry(dir, ['commit', '-qm', 'a'], env);
    expect(r.stderr).toMatch(/unknown frontmatter key 'colour'/);
  });
});
