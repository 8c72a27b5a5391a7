// The rules every command shares, where two callers used to apply their own: `gitmem dream` resolves its
// agent by the one default-agent rule (the home's only agent included), and `cloneMemory` as a library call
// prepares the home like the CLI (an unusable home is HOME_UNUSABLE at once, never a spin under /proc).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGitmem } from '../../helpers/cli.js';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

function home(agents: string[]): Record<string, string> {
  const root = makeTmpDir('gitmem-rules-');
  const env = { ...hermeticGitEnv(root), GITMEM_HOME: join(root, 'home') };
  for (const a of agents) expect(runGitmem(env, ['init', '--agent', a]).code).toBe(0);
  return env;
}

describe('gitmem dream picks its agent like every other command', () => {
  it("the home's only agent, without --memory (the run then stops at the missing model, not at the agent)", () => {
    const env = home(['only']);
    const r = runGitmem(env, ['dream', '--json']);
    expect(r.stderr).toMatch(/^gitmem: MODEL_NOT_CONFIGURED: /);
    expect(r.code).toBe(1);
  });

  it('GITMEM_MEMORY_DIR naming an agent of the home, and NO_MEMORY_DIR listing the agents when there are several', () => {
    const env = home(['a1', 'a2']);
    const several = runGitmem(env, ['dream']);
    expect(several.code).toBe(1);
    expect(several.stderr).toMatch(/^gitmem: NO_MEMORY_DIR: .*2 agents \(a1, a2\)/);
    const byDir = runGitmem(
      { ...env, GITMEM_MEMORY_DIR: join(env['GITMEM_HOME'] as string, 'agents', 'a2', 'memory') },
      ['dream'],
    );
    expect(byDir.stderr).toMatch(/^gitmem: MODEL_NOT_CONFIGURED: /);
    const outside = runGitmem({ ...env, GITMEM_MEMORY_DIR: makeTmpDir('gitmem-elsewhere-') }, ['dream']);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/^gitmem: NO_MEMORY_DIR: .*not an agent of the home/);
  });
});

describe('cloneMemory as a library call', () => {
  it('refuses a home under /proc with HOME_UNUSABLE at once', () => {
    const root = makeTmpDir('gitmem-clone-proc-');
    const script = `
      const { cloneMemory } = await import(${JSON.stringify(join(process.cwd(), 'dist/index.js'))});
      try {
        await cloneMemory({ home: '/proc/nope', url: ${JSON.stringify(join(root, 'none.git'))}, agentId: 'x' });
        console.log('cloned?');
      } catch (err) { console.log(err.code); }`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: hermeticGitEnv(root),
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(r.signal).toBeNull(); // a spin would be killed by the timeout
    expect(r.stdout.trim()).toBe('HOME_UNUSABLE');
  });
});
