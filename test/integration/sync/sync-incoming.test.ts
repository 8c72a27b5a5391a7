/**
 * Nothing arrives unvalidated: commits a sync fetches are checked by the memory rules before main moves to
 * them. A remote that breaks a rule leaves main where it was, is kept on a gitmem/rejected/<time> branch and
 * reported (sync's result, `gitmem conflicts`, doctor), and the next sync reports it again without a new branch.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { listProtectedPaths } from '../../../src/hooks/protected.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { isMemoryError } from '../../../src/errors.js';
import { runDoctor } from '../../../src/doctor/doctor.js';
import { runMain } from '../../helpers/main-io.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const runCli = (args: string[], cliEnv: Record<string, string>) => runMain(args, cliEnv);

const root = makeTmpDir('gitmem-incoming-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const runner = createGitRunner({ env, sleep: async () => undefined });
const TOKEN = ['ghp', '_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('');

/** A machine with a pushed memory, and a raw clone of its remote that pushes whatever it likes. */
async function setup(files: Record<string, string> = {}) {
  const remote = join(makeTmpDir('gitmem-remote-'), 'mem.git');
  g(root, ['init', '-q', '--bare', '-b', 'main', remote]);
  const home = makeTmpDir('gitmem-home-');
  const made = await initMemory({ home, agentId: 'ada', env, git: runner });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(made.memoryDir, path, '..'), { recursive: true });
    writeFileSync(join(made.memoryDir, path), text);
  }
  if (Object.keys(files).length > 0) {
    g(made.memoryDir, ['add', '-A']);
    g(made.memoryDir, ['commit', '-qm', 'operator', '--no-verify']);
  }
  const memory = await createMemory({ home, agentId: 'ada', env, git: runner });
  await memory.remote.set(remote);
  expect((await memory.sync()).status).toBe('pushed');
  const raw = join(makeTmpDir('gitmem-raw-'), 'clone');
  g(root, ['clone', '-q', remote, raw]);
  const push = (edit: () => void, msg: string): string => {
    edit();
    g(raw, ['add', '-A']);
    g(raw, ['commit', '-qm', msg, '--no-verify']);
    g(raw, ['push', '-q', 'origin', 'main']);
    return g(raw, ['rev-parse', 'HEAD']);
  };
  return { memory, dir: made.memoryDir, raw, push, home };
}

describe('sync validates what it fetches', () => {
  it('a link to .git, a token and a file without frontmatter leave main where it was, kept and reported', async () => {
    const s = await setup();
    const before = g(s.dir, ['rev-parse', 'HEAD']);
    const tip = s.push(() => {
      symlinkSync('../../.git', join(s.raw, 'lnk'));
      writeFileSync(join(s.raw, 'notes.md'), `---\ndescription: n\n---\ntoken ${TOKEN}\n`);
      writeFileSync(join(s.raw, 'bare.md'), 'no frontmatter\n');
    }, 'hostile');
    await s.memory.tool({
      command: 'create',
      reason: 'local work',
      file_path: 'notes/local.md',
      description: 'l',
      file_text: 'x\n',
    });
    const local = g(s.dir, ['rev-parse', 'HEAD']);
    const r = await s.memory.sync();
    expect(r.status).toBe('rejected');
    expect(r.error?.code).toBe('REMOTE_REJECTED');
    expect(r.keptBranch).toMatch(/^gitmem\/rejected\//);
    const problems = (r.problems ?? []).join('\n');
    expect(problems).toContain('lnk: symbolic links are not allowed');
    expect(problems).toContain('bare.md: missing frontmatter');
    expect(problems).toContain('SECRET_DETECTED');
    expect(problems).not.toContain(TOKEN);
    expect(g(s.dir, ['rev-parse', 'HEAD'])).toBe(local);
    expect(g(s.dir, ['rev-parse', 'HEAD~1'])).toBe(before);
    expect(g(s.dir, ['rev-parse', `refs/heads/${r.keptBranch}`])).toBe(tip);
    expect(g(s.dir, ['status', '--porcelain'])).toBe('');
    expect((await s.memory.conflicts.list()).map((b) => b.branch)).toEqual([r.keptBranch]);
    const report = await runDoctor({ git: runner, memoryDir: s.dir, home: s.home, env, fix: false, only: ['kept'] });
    expect(JSON.stringify(report)).toContain(r.keptBranch);

    // The CLI says which rules broke and what to do, exit 1.
    const cli = await runCli(['sync', '--agent', 'ada'], { ...env, GITMEM_HOME: s.home });
    expect(cli.code).toBe(1);
    expect(cli.err).toContain('REMOTE_REJECTED');
    expect(cli.err).toContain('  bare.md: missing frontmatter');
    expect(cli.err).toContain('then sync again');

    // The next sync reports the same verdict and keeps the one branch.
    const again = await s.memory.sync();
    expect(again).toMatchObject({ status: 'rejected', keptBranch: r.keptBranch, problems: r.problems });
    expect(g(s.dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/gitmem/rejected/']).split('\n')).toHaveLength(
      1,
    );
    expect(g(s.dir, ['rev-parse', 'HEAD'])).toBe(local);
  });

  it('a remote commit that removes a read_only key is refused; a remote that fixes its own mistake is taken', async () => {
    const s = await setup({ 'ops/locked.md': '---\ndescription: locked\nread_only: true\n---\noperator text\n' });
    expect(listProtectedPaths(s.dir)).toEqual(['ops/locked.md']);
    const before = g(s.dir, ['rev-parse', 'HEAD']);
    s.push(() => writeFileSync(join(s.raw, 'ops/locked.md'), '---\ndescription: locked\n---\nagent text\n'), 'unlock');
    const r = await s.memory.sync();
    expect(r.status).toBe('rejected');
    expect(r.problems?.join('\n')).toContain('ops/locked.md');
    expect(g(s.dir, ['rev-parse', 'HEAD'])).toBe(before);

    // The remote puts the file back and adds a good note: the net change breaks nothing, so it is taken.
    s.push(() => {
      writeFileSync(join(s.raw, 'ops/locked.md'), '---\ndescription: locked\nread_only: true\n---\noperator text\n');
      mkdirSync(join(s.raw, 'notes'), { recursive: true });
      writeFileSync(join(s.raw, 'notes/ok.md'), '---\ndescription: ok\n---\nfine\n');
    }, 'restore');
    const fixed = await s.memory.sync();
    expect(fixed.status).toBe('clean');
    expect(fixed.pulled).toBe(2);
    expect(g(s.dir, ['show', 'HEAD:notes/ok.md'])).toContain('fine');
  });

  it('a clone of a remote whose main breaks the rules is refused and leaves nothing behind', async () => {
    const s = await setup();
    s.push(() => symlinkSync('../../.git', join(s.raw, 'lnk')), 'link');
    const home = makeTmpDir('gitmem-homeB-');
    const err = await cloneMemory({ git: runner, home, url: g(s.dir, ['remote', 'get-url', 'origin']) }).catch(
      (e: unknown) => e,
    );
    expect(isMemoryError(err, 'REMOTE_REJECTED')).toBe(true);
    expect(String((err as Error).message)).toContain('lnk: symbolic links are not allowed');
    expect(existsSync(join(home, 'agents', 'mem', 'memory'))).toBe(false);
  });
});
