// The suite's sandbox gate (test/helpers/sandbox-probe.ts) and the detection it shares with gitmem: a
// missing bwrap, or one that cannot create namespaces, means "skip" — or a failed run under
// GITMEM_REQUIRE_SANDBOX=1 — and never a confined run that silently is not one.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSandboxBackend, probeArgv } from '../../../src/sandbox/detect.js';
import { sandboxForTests, SKIP_REASON_ENV } from '../../helpers/sandbox-probe.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

function fakeBwrap(script: string): string {
  const dir = makeTmpDir('gitmem-fake-bwrap-');
  writeFileSync(join(dir, 'bwrap'), `#!/bin/sh\n${script}\n`);
  chmodSync(join(dir, 'bwrap'), 0o755);
  return dir;
}

describe.runIf(process.platform === 'linux')('sandbox detection for the suite', () => {
  it('skips with the reason when bwrap is absent, and fails the run under GITMEM_REQUIRE_SANDBOX=1', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/nonexistent' };
    expect(sandboxForTests(env)).toEqual({ usable: false, reason: 'bwrap not found on PATH (install bubblewrap)' });
    expect(env[SKIP_REASON_ENV]).toContain('bwrap not found');
    expect(() => sandboxForTests({ PATH: '/nonexistent', GITMEM_REQUIRE_SANDBOX: '1' })).toThrow(
      /GITMEM_REQUIRE_SANDBOX=1 but no usable sandbox/,
    );
  });

  it('does not trust a bwrap that answers --version but cannot confine', () => {
    const dir = fakeBwrap('[ "$1" = --version ] && exit 0\nexit 1');
    expect(sandboxForTests({ PATH: dir }).reason).toMatch(/present but cannot create namespaces/);
    expect(sandboxForTests({ PATH: fakeBwrap('exit 1') }).reason).toMatch(/--version failed/);
  });

  it('probes with the argv a real run renders: allow-listed mounts, sealed root, namespaces, no capabilities', () => {
    const argv = probeArgv('/usr/bin/bwrap').join(' ');
    for (const flag of [
      '--dev /dev',
      '--proc /proc',
      '--tmpfs /tmp',
      '--ro-bind-try /usr /usr',
      '--remount-ro / ',
      '--unshare-all',
      '--disable-userns',
      '--cap-drop ALL',
    ]) {
      expect(argv).toContain(flag);
    }
    expect(argv).not.toContain('--ro-bind / /');
    expect(argv.endsWith('-- true')).toBe(true);
    const seen: string[][] = [];
    detectSandboxBackend({ platform: 'linux', env: { PATH: '/usr/bin' }, run: (a) => (seen.push(a), true) });
    expect(seen.at(-1)).toEqual(probeArgv(seen.at(-1)?.[0] ?? ''));
  });
});
