// Two installs of gitmem (two projects, each with the packed tarball installed) used alternately on one
// GITMEM_HOME: the pre-commit hook must run whichever install is at hand, inside the sandbox too (where the
// other install's path is hidden), without rewriting itself on every plain open, and fail naming the fix when
// no install it knows is left. Worker commits, dreams (fake OpenAI-compatible model on loopback) and raw
// commits all go through the hook.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from '../../helpers/fake-openai.js';
import { copyInstall, installTarball, packTarball } from '../../helpers/packed-install.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const sandboxed = spawnSync('bwrap', ['--version']).status === 0;
const root = makeTmpDir('gitmem-installs-');
const home = join(root, 'home');
const env = { ...hermeticGitEnv(root), GITMEM_HOME: home, NODE_OPTIONS: '' };
const memoryDir = join(home, 'agents', 'ada', 'memory');
const hookFile = join(memoryDir, '.git', 'hooks', 'pre-commit');
const installs = { a: join(root, 'project-a'), b: join(root, 'project-b') };
const entryOf = (project: string): string => join(project, 'node_modules', 'gitmem', 'dist', 'bin', 'pre-commit.cjs');
let fake: FakeOpenAI;
let script: (body: Record<string, unknown>) => FakeReply = () => ({ text: 'done.' });
const transcript = join(root, 'session.jsonl');

function gitmem(project: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(
      process.execPath,
      [join(project, 'node_modules', 'gitmem', 'dist', 'bin', 'gitmem.cjs'), ...args],
      { cwd: project, env },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
}

const note = (name: string): string => `printf -- '---\\ndescription: ${name}\\n---\\n${name}\\n' > notes-${name}.md`;

/** A dream whose sub-agent writes one file and commits it through the hook (in the sandbox). */
function dreamWrites(name: string): (body: Record<string, unknown>) => FakeReply {
  let step = 0;
  return (body) => {
    const trailer =
      /Reviewed-Transcript: [^"\\]+/.exec(JSON.stringify(body['messages']))?.[0] ?? 'Reviewed-Transcript: ?';
    const replies: FakeReply[] = [
      {
        toolCalls: [
          {
            name: 'shell',
            args: {
              command: `${note(name)} && git add -A && git commit -q -m ${JSON.stringify(`remember ${name}`)} -m ${JSON.stringify(trailer)}`,
            },
          },
        ],
      },
      { text: `Summary: noted ${name}.` },
    ];
    return replies[step++] ?? { text: 'done.' };
  };
}

async function dream(project: string, name: string): Promise<Record<string, unknown>> {
  appendFileSync(
    transcript,
    `${JSON.stringify({ kind: 'user', text: `Remember ${name}.`, source_message_id: `u-${name}` })}\n${JSON.stringify({ kind: 'assistant', text: 'Noted.', source_message_id: `a-${name}` })}\n`,
  );
  script = dreamWrites(name);
  const r = await gitmem(project, [
    'dream',
    '--memory',
    'ada',
    '--from',
    `transcript:${transcript}`,
    '-m',
    'openai-compatible:local:fake-model',
    '--json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  installTarball(packTarball(join(root, 'tarball')), installs.a, { nativeFromCheckout: true }); // no SQLite compile (minutes offline)
  copyInstall(installs.a, installs.b);
  fake = await startFakeOpenAI((body) => script(body));
  writeFileSync(transcript, '');
}, 60_000);

afterAll(async () => {
  await fake?.close();
  cleanupTmp();
});

describe.runIf(sandboxed)('two installs, one home', () => {
  it('init with A, then a worker from B commits through the hook inside the sandbox', async () => {
    expect((await gitmem(installs.a, ['init', '--agent', 'ada'])).code).toBe(0);
    writeFileSync(join(home, 'config'), JSON.stringify({ providers: { local: { baseURL: fake.baseURL } } }));
    const r = await gitmem(installs.b, [
      'worker',
      'run',
      '--agent',
      'ada',
      '--command',
      `${note('from-b')} && git add -A && git commit -qm from-b`,
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^merged: 1 commit/);
    expect(r.stderr).not.toContain('Cannot find module');
  });

  it('then a worker from A, and the hook still refuses what it must (it runs, it does not just pass)', async () => {
    const ok = await gitmem(installs.a, [
      'worker',
      'run',
      '--agent',
      'ada',
      '--command',
      `${note('from-a')} && git add -A && git commit -qm from-a`,
    ]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    const bad = await gitmem(installs.b, [
      'worker',
      'run',
      '--agent',
      'ada',
      '--command',
      'echo x > bad.md && git add -A && git commit -qm bad',
    ]);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('missing frontmatter');
  });

  it('a dream from each install commits through the hook', async () => {
    expect(await dream(installs.b, 'dream-b')).toMatchObject({ success: true, status: 'merged', commitCount: 1 });
    expect(await dream(installs.a, 'dream-a')).toMatchObject({ success: true, status: 'merged', commitCount: 1 });
    const log = git(memoryDir, ['log', '--format=%s'], env);
    for (const s of ['remember dream-a', 'remember dream-b', 'from-a', 'from-b']) expect(log).toContain(s);
  }, 60_000);

  it('plain opens from either install do not rewrite the hook each time', async () => {
    await gitmem(installs.a, ['status', '--agent', 'ada']);
    const text = readFileSync(hookFile, 'utf8');
    const mtime = statSync(hookFile).mtimeMs;
    for (const p of [installs.b, installs.a, installs.b])
      expect((await gitmem(p, ['status', '--agent', 'ada'])).code).toBe(0);
    expect(readFileSync(hookFile, 'utf8')).toBe(text);
    expect(statSync(hookFile).mtimeMs).toBe(mtime);
    for (const p of [installs.a, installs.b]) expect(text).toContain(entryOf(p));
  });

  it('with no install it knows left, a raw commit fails naming the fix; the next open repairs it', async () => {
    const moved = join(root, 'project-c');
    renameSync(installs.a, moved);
    renameSync(installs.b, join(root, 'project-d'));
    writeFileSync(join(memoryDir, 'raw.md'), '---\ndescription: raw\n---\nraw\n');
    git(memoryDir, ['add', 'raw.md'], env);
    const refused = gitTry(memoryDir, ['commit', '-qm', 'raw'], env);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/gitmem pre-commit hook: no gitmem installation found .*run any gitmem command/);
    expect(refused.stderr).not.toContain('Cannot find module');
    expect((await gitmem(moved, ['status', '--agent', 'ada'])).code).toBe(0);
    expect(gitTry(memoryDir, ['commit', '-qm', 'raw'], env).status).toBe(0);
    writeFileSync(join(memoryDir, 'raw.md'), 'no frontmatter\n');
    expect(gitTry(memoryDir, ['commit', '-qam', 'raw2'], env).stderr).toContain('missing frontmatter');
  });

  it('a worker from a broken install (no hook entry) is refused before it starts', async () => {
    const broken = join(root, 'project-e');
    copyInstall(join(root, 'project-c'), broken);
    for (const f of ['bin/pre-commit.cjs', 'hooks/pre-commit-main.js'])
      rmSync(join(broken, 'node_modules', 'gitmem', 'dist', f), { force: true });
    const before = git(memoryDir, ['rev-parse', 'HEAD'], env);
    const r = await gitmem(broken, ['worker', 'run', '--agent', 'ada', '--command', 'true']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^gitmem: HOOKS_UNRUNNABLE: this gitmem install has no pre-commit hook entry/m);
    expect(git(memoryDir, ['rev-parse', 'HEAD'], env)).toBe(before);
    expect(readdirSync(join(home, 'agents', 'ada', 'memory-worktrees'))).toEqual([]);
  });
});
