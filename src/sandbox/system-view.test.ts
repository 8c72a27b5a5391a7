import { describe, expect, it } from 'vitest';
import { normalizePolicy } from './policy.js';
import { buildMemoryWriterPolicy } from './writer-policy.js';
import { parseReadPaths, withSystemView, type HostFacts } from './system-view.js';
import { errorCodeOf } from '../../test/helpers/errors.js';

const writer = buildMemoryWriterPolicy({
  gitmemHome: '/u/.gitmem',
  agentId: 'a1',
  memoryDir: '/u/.gitmem/agents/a1/memory',
  worktreesDir: '/u/.gitmem/agents/a1/memory-worktrees',
});
const host: HostFacts = {
  platform: 'linux',
  runtimeRoots: ['/opt/gitmem', '/usr', '/'],
  userHomes: ['/u'],
  gitmemHomes: ['/u/.gitmem', '/other/home'],
  runtimeDirs: ['/run/user/1/gitmem-1', '/tmp/gitmem-1'],
};

describe('withSystemView', () => {
  const view = normalizePolicy(withSystemView(writer, host, ['/srv/notes']));

  it('makes the runtime, node, gitmem and the added paths visible read-only; never "/" and no /etc beyond its entries', () => {
    expect(view.readonlyRoots).toEqual(
      expect.arrayContaining(['/usr', '/bin', '/etc/passwd', '/opt/gitmem', '/srv/notes']),
    );
    expect(view.readonlyRoots).not.toContain('/');
    expect(view.readonlyRoots).not.toContain('/etc');
    expect(view.readonlyRoots.some((r) => r.startsWith('/home') || r === '/root')).toBe(false);
  });

  it('hides system secrets, credential entries of the homes, every gitmem home and runtime dir', () => {
    expect(view.deniedRoots).toEqual(
      expect.arrayContaining([
        '/etc/shadow',
        '/etc/ssh',
        '/u/.ssh',
        '/u/.netrc',
        '/other/home',
        '/run/user/1/gitmem-1',
        '/tmp/gitmem-1',
      ]),
    );
    expect(view.emptyHome).toBe('/var/empty');
  });

  it('re-opens an added path inside a hidden root, and refuses one that would expose a secret whole', () => {
    expect(withSystemView(writer, host, ['/u/.ssh/known_hosts']).reopenedRoots).toContainEqual({
      path: '/u/.ssh/known_hosts',
      writable: false,
    });
    expect(errorCodeOf(() => normalizePolicy(withSystemView(writer, host, ['/u/.ssh'])))).toBe('INVALID_ARGUMENT');
    expect(errorCodeOf(() => normalizePolicy(withSystemView(writer, host, ['/u/.gitmem'])))).toBe('INVALID_ARGUMENT');
  });

  it('uses the macOS tables on darwin', () => {
    const mac = withSystemView(writer, { ...host, platform: 'darwin' });
    expect(mac.readonlyRoots).toContain('/System');
    expect(mac.deniedRoots).toContain('/private/etc/master.passwd');
  });
});

describe('parseReadPaths', () => {
  it('splits on ":", skips empty entries and refuses relative ones', () => {
    expect(parseReadPaths('/a::/b ')).toEqual(['/a', '/b']);
    expect(parseReadPaths(undefined)).toEqual([]);
    expect(errorCodeOf(() => parseReadPaths('/a:rel'))).toBe('INVALID_ARGUMENT');
  });
});
