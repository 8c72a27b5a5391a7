// The stable handle offers operations, not its plumbing: no git runner, no configuration on it. What the
// palace used to ask git directly it now asks the handle, which answers as git does; gitmem's own code
// that still needs the runner reaches it through `gitmem/internals` (handleGit).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleGit, handleWiring } from '../../../src/internals.js';
import { createMemory, initMemory, type Memory } from '../../../src/memory.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

let env: Record<string, string>;
let memory: Memory;

afterAll(cleanupTmp);
beforeAll(async () => {
  const home = makeTmpDir('gitmem-home-');
  env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
  await initMemory({ home, agentId: 'ada', env });
  memory = await createMemory({ home, agentId: 'ada', env });
  for (const n of [1, 2, 3])
    await memory.tool({
      command: 'create',
      file_path: `notes/n${n}.md`,
      description: 'd',
      file_text: `${n}\n`,
      reason: `note ${n}`,
    });
});

const gitOut = (args: string[]): string => git(memory.memoryDir, args, env).trim();

describe('the Memory handle', () => {
  it('has no git runner and no configuration on it, listed or not', () => {
    expect('git' in memory).toBe(false);
    expect('config' in memory).toBe(false);
    expect(Object.keys(memory)).not.toContain('git');
    expect(JSON.stringify(Object.keys(memory))).not.toMatch(/"(git|config)"/);
  });

  it('resolves a revision, counts commits and finds a merge base as git does', async () => {
    expect(await memory.resolve('HEAD')).toBe(gitOut(['rev-parse', 'HEAD']));
    expect(await memory.resolve('HEAD~1')).toBe(gitOut(['rev-parse', 'HEAD~1']));
    await expect(memory.resolve('no-such-branch')).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
    expect(await memory.countCommits('HEAD')).toBe(Number(gitOut(['rev-list', '--count', 'HEAD'])));
    expect(await memory.countCommits('HEAD~2..HEAD')).toBe(2);
    git(memory.memoryDir, ['branch', 'side', 'HEAD~2'], env);
    expect(await memory.mergeBase('main', 'side')).toBe(gitOut(['merge-base', 'main', 'side']));
    git(memory.memoryDir, ['checkout', '-q', '--orphan', 'lone'], env);
    git(memory.memoryDir, ['commit', '-q', '-m', 'lone'], env);
    git(memory.memoryDir, ['checkout', '-q', 'main'], env);
    expect(await memory.mergeBase('main', 'lone')).toBeNull();
  });

  it("tells how main's upstream moved (its reflog), none without an upstream", async () => {
    expect(await memory.remote.moves()).toEqual([]);
    const remote = join(makeTmpDir('gitmem-remote-'), 'ada.git');
    git(memory.memoryDir, ['init', '-q', '--bare', '-b', 'main', remote], env);
    await memory.remote.set(remote);
    expect((await memory.syncAfterTurn()).status).toBe('pushed');
    const moves = await memory.remote.moves();
    const reflog = gitOut(['log', '-g', '--format=%ci%x1f%gs', 'refs/remotes/origin/main'])
      .split('\n')
      .map((l) => {
        const [date = '', what = ''] = l.split('\x1f');
        return { date, what };
      });
    expect(moves.length).toBeGreaterThan(0);
    expect(moves).toEqual(reflog.slice(0, 10));
  });

  it('gives gitmem its own runner through internals, a copy of the handle included; refuses anything else', async () => {
    const runner = handleGit(memory);
    expect((await runner.run(['rev-parse', 'HEAD'], { cwd: memory.memoryDir })).stdout.trim()).toBe(
      gitOut(['rev-parse', 'HEAD']),
    );
    expect(handleGit({ ...memory })).toBe(runner);
    expect(handleWiring(memory)?.gitDirs.commonDir).toBe(join(memory.memoryDir, '.git'));
    expect(handleWiring({ memoryDir: memory.memoryDir })).toBeUndefined();
    expect(() => handleGit({ memoryDir: memory.memoryDir })).toThrow(/not a Memory handle/);
  });
});
