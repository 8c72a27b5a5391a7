/**
 * The agent's own shell under real bubblewrap (`sandbox exec`, `sandboxExec`): another agent's memory is
 * invisible, the agent's own is readable and writable, the rest of the host writable as usual; switched off
 * it is refused and nothing runs.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createMemory } from '../../../src/memory.js';
import { sandboxExec, type SandboxExecOptions } from '../../../src/wiring/shell.js';
import { runGitmem } from '../../helpers/cli.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

let root: string;
let home: string;
let scratch: string;
let env: Record<string, string>;

function setup(): void {
  root = makeTmpDir('gitmem-agent-shell-');
  home = join(root, 'home');
  scratch = join(root, 'scratch');
  mkdirSync(scratch);
  for (const id of ['a1', 'b2']) {
    const mem = join(home, 'agents', id, 'memory');
    mkdirSync(join(mem, 'system'), { recursive: true });
    writeFileSync(join(mem, 'system', 'secret.md'), `---\ndescription: x\n---\n${id} private fact\n`);
    git(mem, ['init', '-q']);
  }
  env = { ...hermeticGitEnv(root), GITMEM_HOME: home, GITMEM_DAEMON: '0', GITMEM_SHELL_SANDBOX: '1' };
}

async function exec(script: string, o: Partial<SandboxExecOptions> = {}) {
  return sandboxExec({ command: ['sh', '-c', script], agentId: 'a1', env, cwd: scratch, timeoutMs: 20_000, ...o });
}

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    return isMemoryError(err) ? err.code : String(err);
  }
  return undefined;
}

describe('sandbox exec: the agent shell under real bubblewrap', { tags: ['sandbox'] }, () => {
  beforeAll(setup);
  afterAll(cleanupTmp);

  it("hides another agent's memory; its own stays readable and writable; writes elsewhere are allowed", async () => {
    const b2 = join(home, 'agents', 'b2', 'memory', 'system', 'secret.md');
    const r = await exec(
      `cat ${home}/agents/a1/memory/system/secret.md; cat ${b2} || echo HIDDEN; ls -A ${home}/agents; ` +
        `echo own > ${home}/agents/a1/memory/note.md && echo OWN-WRITTEN; echo out > ${scratch}/out.txt && echo TMP-WRITTEN; ` +
        `touch ${home}/agents/b3 || echo NO-NEW-AGENT; echo $GITMEM_SANDBOX`,
    );
    expect(r.backend).toBe('bwrap');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('a1 private fact');
    expect(r.stdout).not.toContain('b2 private fact');
    expect(r.stdout).toMatch(/^a1$/m);
    expect(r.stdout).not.toMatch(/^b2$/m);
    for (const m of ['HIDDEN', 'OWN-WRITTEN', 'TMP-WRITTEN', 'NO-NEW-AGENT']) expect(r.stdout).toContain(m);
    expect(r.stdout).toMatch(/^bwrap$/m);
    expect(readFileSync(join(home, 'agents', 'a1', 'memory', 'note.md'), 'utf8')).toBe('own\n');
    expect(readFileSync(join(scratch, 'out.txt'), 'utf8')).toBe('out\n');
    expect(existsSync(join(home, 'agents', 'b3'))).toBe(false);
    expect(readFileSync(b2, 'utf8')).toContain('b2 private fact');
  });

  it('cannot reach the hidden memory through a symbolic link made outside the home', async () => {
    const r = await exec(
      `ln -s ${home}/agents/b2 ${scratch}/b2link && cat ${scratch}/b2link/memory/system/secret.md || echo HIDDEN`,
    );
    expect(r.stdout).toContain('HIDDEN');
    expect(r.stdout).not.toContain('b2 private fact');
  });

  it("passes the command's exit code and stdin through", async () => {
    const r = await exec('cat; exit 7', { input: 'piped\n' });
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('piped\n');
  });

  it('switched off (unset, or 0 over a config that says on): SANDBOX_OFF, and nothing ran', async () => {
    const { GITMEM_SHELL_SANDBOX: _on, ...off } = env;
    const marker = join(scratch, 'ran-while-off');
    expect(await codeOf(exec(`touch ${marker}`, { env: off }))).toBe('SANDBOX_OFF');
    writeFileSync(join(home, 'config'), JSON.stringify({ sandbox: { shell: true } }));
    try {
      expect(await codeOf(exec(`touch ${marker}`, { env: { ...off, GITMEM_SHELL_SANDBOX: '0' } }))).toBe('SANDBOX_OFF');
      const r = await exec('echo ON-BY-CONFIG', { env: off });
      expect(r.stdout).toContain('ON-BY-CONFIG');
    } finally {
      writeFileSync(join(home, 'config'), '{}');
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('no backend on PATH, switched on: SANDBOX_UNAVAILABLE, never an unconfined run', async () => {
    const marker = join(scratch, 'ran-unconfined');
    const code = await codeOf(exec(`touch ${marker}`, { env: { ...env, PATH: join(root, 'empty-path') } }));
    expect(code).toBe('SANDBOX_UNAVAILABLE');
    expect(existsSync(marker)).toBe(false);
  });

  it('the handle: memory.sandboxExec runs as its own agent', async () => {
    const memory = await createMemory({ agentId: 'b2', home, env });
    const r = await memory.sandboxExec(['sh', '-c', `ls -A ${home}/agents`], { cwd: scratch, timeoutMs: 20_000 });
    expect(r.backend).toBe('bwrap');
    expect(r.stdout.trim().split('\n')).toEqual(['b2']);
  });

  it('the CLI: gitmem sandbox exec -- …, its exit code, and the refusal when off', () => {
    const r = runGitmem(env, ['sandbox', 'exec', '--agent', 'a1', '--', 'sh', '-c', `ls -A ${home}/agents; exit 3`], {
      cwd: scratch,
    });
    expect(r.code).toBe(3);
    expect(r.stdout.trim().split('\n')).toEqual(['a1']);
    const { GITMEM_SHELL_SANDBOX: _on, ...off } = env;
    const refused = runGitmem(off, ['sandbox', 'exec', '--agent', 'a1', '--', 'true'], { cwd: scratch });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('SANDBOX_OFF');
    expect(refused.stderr).toContain('GITMEM_SHELL_SANDBOX=1');
  });
});
