import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { buildAgentShellPolicy, confineAgentShell, type AgentShellOptions } from './agent-shell.js';

const root = mkdtempSync(join(tmpdir(), 'gitmem-agent-shell-'));
const home = join(root, 'home');
mkdirSync(join(home, 'agents', 'a1', 'memory'), { recursive: true });
mkdirSync(join(home, 'agents', 'b2', 'memory'), { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bwrap = { name: 'bwrap', path: '/usr/bin/bwrap' } as const;
const base: AgentShellOptions = {
  gitmemHome: home,
  agentId: 'a1',
  command: ['sh', '-c', 'echo hi'],
  env: { PATH: '/usr/bin', SECRET: 'kept' },
  enabled: true,
  cwd: root,
  backend: bwrap,
};

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return isMemoryError(err) ? err.code : String(err);
  }
  return undefined;
}

describe('the agent shell sandbox', () => {
  it('hides every agent but the caller, whose directory comes back writable; the host stays writable', () => {
    const p = buildAgentShellPolicy({ gitmemHome: '/h', agentId: 'a1' });
    expect(p.writableRoots).toEqual(['/']);
    expect(p.deniedRoots).toEqual(['/h/agents']);
    expect(p.reopenedRoots).toEqual([{ path: '/h/agents/a1', writable: true }]);
    expect(p.allowNetwork).toBe(true);
    expect(buildAgentShellPolicy({ gitmemHome: '/h', agentId: undefined }).reopenedRoots).toEqual([]);
  });

  it('refuses agent ids that are not one safe name (.., slashes, control characters)', () => {
    for (const id of ['..', '.', 'a/b', 'a\nb', '', 'x'.repeat(200)])
      expect(codeOf(() => buildAgentShellPolicy({ gitmemHome: '/h', agentId: id }))).toBe('INVALID_AGENT_ID');
  });

  it('renders bwrap: / bound writable, the agents tmpfs sealed after the own dir is bound back, the marker set', () => {
    const c = confineAgentShell(base);
    expect(c.backend).toBe('bwrap');
    const argv = c.argv.join(' ');
    expect(argv).toContain('--bind / /');
    expect(argv).not.toContain('--dev /dev'); // the host's /dev stays: the agent's files may live in /dev/shm
    const agents = argv.indexOf(`--tmpfs ${home}/agents`);
    const own = argv.indexOf(`--bind ${home}/agents/a1 ${home}/agents/a1`);
    const seal = argv.indexOf(`--remount-ro ${home}/agents`);
    expect(agents).toBeGreaterThan(0);
    expect(own).toBeGreaterThan(agents);
    expect(seal).toBeGreaterThan(own);
    expect(argv).not.toContain('--remount-ro / ');
    expect(c.argv.slice(-3)).toEqual(['sh', '-c', 'echo hi']);
    expect(c.env).toMatchObject({ SECRET: 'kept', GITMEM_SANDBOX: 'bwrap' });
  });

  it('hides a home reached through a symbolic link at its real place', () => {
    const link = join(root, 'linked-home');
    symlinkSync(home, link);
    const argv = confineAgentShell({ ...base, gitmemHome: link }).argv.join(' ');
    expect(argv).toContain(`--tmpfs ${home}/agents`);
  });

  it('switched off: SANDBOX_OFF before anything else; no backend: SANDBOX_UNAVAILABLE, never a plain run', () => {
    expect(codeOf(() => confineAgentShell({ ...base, enabled: false }))).toBe('SANDBOX_OFF');
    expect(codeOf(() => confineAgentShell({ ...base, enabled: false, env: { GITMEM_SANDBOX: 'bwrap' } }))).toBe(
      'SANDBOX_OFF',
    );
    expect(codeOf(() => confineAgentShell({ ...base, backend: { name: 'none', reason: 'no bwrap' } }))).toBe(
      'SANDBOX_UNAVAILABLE',
    );
  });

  it('inside a gitmem sandbox already: the command as is, the environment unchanged', () => {
    const c = confineAgentShell({ ...base, env: { PATH: '/bin', GITMEM_SANDBOX: 'bwrap' } });
    expect(c).toEqual({
      argv: ['sh', '-c', 'echo hi'],
      env: { PATH: '/bin', GITMEM_SANDBOX: 'bwrap' },
      backend: 'outer',
    });
  });

  it("refuses an empty command, a NUL in it, and a cwd inside another agent's directory", () => {
    expect(codeOf(() => confineAgentShell({ ...base, command: [] }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => confineAgentShell({ ...base, command: ['a\0b'] }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => confineAgentShell({ ...base, cwd: join(home, 'agents', 'b2', 'memory') }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(codeOf(() => confineAgentShell({ ...base, cwd: join(home, 'agents') }))).toBe('INVALID_ARGUMENT');
    expect(confineAgentShell({ ...base, cwd: join(home, 'agents', 'a1', 'memory') }).backend).toBe('bwrap');
  });
});
