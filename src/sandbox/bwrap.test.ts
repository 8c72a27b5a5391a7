import { describe, expect, it } from 'vitest';
import type { SandboxPolicy } from './policy.js';
import { buildMemoryWriterPolicy } from './writer-policy.js';
import { renderBwrapArgv } from './bwrap.js';

const writer = buildMemoryWriterPolicy({
  gitmemHome: '/h',
  agentId: 'a1',
  memoryDir: '/h/agents/a1/memory',
  worktreesDir: '/h/agents/a1/memory-worktrees',
  stateDirs: ['/h/state'],
});

/** Pairs/triples of flags as strings, for readable assertions. */
function flags(argv: string[]): string {
  return argv.join(' ');
}

describe('renderBwrapArgv', () => {
  it('renders the memory-writer policy in full: an empty sealed root, only the visible roots bound into it', () => {
    expect(renderBwrapArgv(writer, ['git', 'commit', '-m', 'x y'], { bwrapPath: '/usr/bin/bwrap' })).toEqual([
      '/usr/bin/bwrap',
      ...['--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/empty'],
      ...['--tmpfs', '/h'],
      ...['--bind', '/h/state', '/h/state'],
      ...['--bind', '/h/agents/a1/memory-worktrees', '/h/agents/a1/memory-worktrees'],
      ...['--ro-bind', '/h/agents/a1/memory', '/h/agents/a1/memory'],
      ...['--bind', '/h/agents/a1/memory/.git', '/h/agents/a1/memory/.git'],
      ...['--ro-bind', '/h/agents/a1/memory/.git/hooks', '/h/agents/a1/memory/.git/hooks'],
      ...['--ro-bind', '/h/agents/a1/memory/.git/config', '/h/agents/a1/memory/.git/config'],
      ...['--remount-ro', '/h', '--remount-ro', '/'],
      ...['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session'],
      ...['--cap-drop', 'ALL', '--', 'git', 'commit', '-m', 'x y'],
    ]);
  });

  it('binds a moved root read-only at its own place, after the layers and before the root is sealed', () => {
    const argv = renderBwrapArgv(
      { ...writer, movedRoots: [{ path: '/tmp/gitmem-hook-1', inside: '/run/gitmem-hook' }] },
      ['true'],
    );
    const s = flags(argv);
    expect(s).toContain('--ro-bind /tmp/gitmem-hook-1 /run/gitmem-hook --remount-ro /h --remount-ro /');
    expect(s).not.toContain('/tmp/gitmem-hook-1 /tmp/gitmem-hook-1');
  });

  it('binds a read-only root inside another read-only root only when a writable root lies between them', () => {
    const p: SandboxPolicy = {
      readonlyRoots: ['/usr', '/usr/bin', '/w/ro', '/w/ro/x/deep'],
      writableRoots: ['/w', '/w/ro/x'],
      deniedRoots: [],
      reopenedRoots: [],
      allowNetwork: false,
    };
    const s = flags(renderBwrapArgv(p, ['true']));
    expect(s).toContain('--ro-bind-try /usr /usr');
    expect(s).not.toContain('/usr/bin');
    expect(s).toContain('--ro-bind-try /w/ro /w/ro');
    expect(s).toContain('--bind /w/ro/x /w/ro/x');
    expect(s).toContain('--ro-bind-try /w/ro/x/deep /w/ro/x/deep'); // read-only again inside the writable carve
  });

  it('binds a read-only carve-out inside another only when some root lies between them', () => {
    const reopened = [
      { path: '/m/.git', writable: false },
      { path: '/m/.git/hooks', writable: false }, // covered by .git
      { path: '/m/.git/wt', writable: true },
      { path: '/m/.git/wt/pinned', writable: false }, // read-only again inside the writable carve
    ];
    // (a denied root cannot lie inside a re-opened one: normalizePolicy refuses it)
    const p: SandboxPolicy = {
      readonlyRoots: [],
      writableRoots: [],
      deniedRoots: ['/m'],
      reopenedRoots: reopened,
      allowNetwork: false,
    };
    const s = flags(renderBwrapArgv(p, ['true']));
    expect(s).toContain('--ro-bind /m/.git /m/.git');
    expect(s).not.toContain('/m/.git/hooks');
    expect(s).toContain('--bind /m/.git/wt /m/.git/wt');
    expect(s).toContain('--ro-bind /m/.git/wt/pinned /m/.git/wt/pinned');
    // A writable .git (a repair writer's) keeps its read-only hooks bound.
    const rw = { ...p, reopenedRoots: reopened.map((r) => (r.path === '/m/.git' ? { ...r, writable: true } : r)) };
    expect(flags(renderBwrapArgv(rw, ['true']))).toContain('--ro-bind /m/.git/hooks /m/.git/hooks');
  });

  it('always drops every capability and locks user namespaces, whatever the policy', () => {
    const open: SandboxPolicy = {
      readonlyRoots: [],
      writableRoots: ['/'],
      deniedRoots: [],
      reopenedRoots: [],
      allowNetwork: true,
    };
    const s = flags(renderBwrapArgv(open, ['true']));
    expect(s).toContain('--cap-drop ALL');
    expect(s).toContain('--unshare-all --unshare-user --disable-userns');
    expect(s.startsWith('bwrap --bind / / --dev /dev --proc /proc')).toBe(true);
    expect(s).not.toContain('--remount-ro /');
  });

  it('recreates links, covers denied files with an empty device and skips denied roots nothing shows', () => {
    const p: SandboxPolicy = {
      readonlyRoots: ['/usr', '/etc'],
      writableRoots: [],
      deniedRoots: ['/etc/shadow', '/etc/ssh', '/run/user/1/gitmem-1'],
      reopenedRoots: [],
      allowNetwork: false,
    };
    const s = flags(
      renderBwrapArgv(p, ['true'], { links: [{ path: '/bin', target: 'usr/bin' }], deniedFiles: ['/etc/shadow'] }),
    );
    expect(s).toContain(
      '--ro-bind-try /usr /usr --ro-bind-try /etc /etc --ro-bind /dev/null /etc/shadow --tmpfs /etc/ssh --symlink usr/bin /bin --remount-ro /etc/ssh --remount-ro / ',
    );
    expect(s).not.toContain('gitmem-1');
  });

  it('keeps the network namespace only when the policy allows network', () => {
    expect(renderBwrapArgv(writer, ['true'])).not.toContain('--share-net');
    expect(renderBwrapArgv({ ...writer, allowNetwork: true }, ['true'])).toContain('--share-net');
  });

  it('binds plain roots ancestors first so a read-only dir inside a writable one stays read-only', () => {
    const p: SandboxPolicy = {
      readonlyRoots: ['/w/ro'],
      writableRoots: ['/w'],
      deniedRoots: [],
      reopenedRoots: [],
      allowNetwork: false,
    };
    expect(flags(renderBwrapArgv(p, ['true']))).toContain(
      '--bind /w /w --ro-bind-try /w/ro /w/ro --remount-ro / --unshare-all',
    );
  });

  it('pins a missing read-only carve-out as an empty read-only directory', () => {
    const s = flags(renderBwrapArgv(writer, ['true'], { absentReadonly: ['/h/agents/a1/memory/.git/hooks'] }));
    expect(s).toContain('--tmpfs /h/agents/a1/memory/.git/hooks --remount-ro /h/agents/a1/memory/.git/hooks');
    expect(s).not.toContain('--ro-bind /h/agents/a1/memory/.git/hooks');
  });

  it('seals denied tmpfs read-only only after every carve-out is mounted', () => {
    const argv = renderBwrapArgv(writer, ['true']);
    expect(argv.indexOf('--remount-ro')).toBeGreaterThan(argv.lastIndexOf('/h/agents/a1/memory/.git/config'));
  });

  it('omits the private /tmp when the policy does not ask for it and honours cwd', () => {
    const s = flags(
      renderBwrapArgv({ ...writer, privateTmp: false }, ['pwd'], { cwd: '/h/agents/a1/memory-worktrees/w' }),
    );
    expect(s).not.toContain('--tmpfs /tmp');
    expect(s).toContain('--chdir /h/agents/a1/memory-worktrees/w -- pwd');
  });
});
