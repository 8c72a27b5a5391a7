import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfinedEnv } from './env.js';
import { fsSandboxSwitch } from './launch.js';
import { detectSandboxBackend, findOnPath } from './detect.js';

describe('buildConfinedEnv', () => {
  const parent = {
    PATH: '/bin',
    HOME: '/root',
    LC_ALL: 'C',
    GIT_AUTHOR_NAME: 'A',
    OPENAI_API_KEY: 'sk-secret',
    GITMEM_TOKEN: 'tok',
    GIT_CONFIG_PARAMETERS: "'http.extraheader'='Authorization: Bearer x'",
    UNSET: undefined,
  };

  it('copies only allow-listed names, so keys and tokens stay outside', () => {
    expect(buildConfinedEnv(parent)).toEqual({ PATH: '/bin', HOME: '/root', LC_ALL: 'C', GIT_AUTHOR_NAME: 'A' });
  });

  it('adds names the caller passes through and values the caller sets', () => {
    const env = buildConfinedEnv(parent, { passEnv: ['OPENAI_API_KEY', 'MISSING'], extraEnv: { HOME: '/w', X: '1' } });
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/w',
      LC_ALL: 'C',
      GIT_AUTHOR_NAME: 'A',
      OPENAI_API_KEY: 'sk-secret',
      X: '1',
    });
  });
});

describe('fsSandboxSwitch', () => {
  it('disables only on 0/false and stays on (saying so) for unknown values', () => {
    expect(fsSandboxSwitch('0')).toEqual({ enabled: false });
    expect(fsSandboxSwitch(' False ')).toEqual({ enabled: false });
    expect(fsSandboxSwitch(undefined)).toEqual({ enabled: true });
    expect(fsSandboxSwitch('')).toEqual({ enabled: true });
    expect(fsSandboxSwitch('TRUE')).toEqual({ enabled: true });
    const off = fsSandboxSwitch('off');
    expect(off.enabled).toBe(true);
    expect(off.note).toMatch(/stays ON/);
  });
});

describe('detectSandboxBackend', () => {
  const ok = () => true;

  it('reports no backend on platforms without one', () => {
    expect(detectSandboxBackend({ platform: 'win32', run: ok })).toEqual({
      name: 'none',
      reason: 'no filesystem sandbox backend for platform win32',
    });
  });

  it('looks for bwrap on the given PATH only, skipping relative entries', () => {
    expect(detectSandboxBackend({ platform: 'linux', env: { PATH: '/nonexistent:bin:' }, run: ok })).toMatchObject({
      name: 'none',
      reason: expect.stringMatching(/bwrap not found on PATH/),
    });
    expect(findOnPath('sh', 'relative:/bin')).toBe('/bin/sh');
  });

  it('refuses bwrap when the namespace/capability probe fails, and accepts it when both checks pass', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitmem-detect-'));
    try {
      writeFileSync(join(dir, 'bwrap'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      const seen: string[][] = [];
      const versionOnly = (argv: string[]) => (seen.push(argv), argv[1] === '--version');
      expect(detectSandboxBackend({ platform: 'linux', env: { PATH: dir }, run: versionOnly })).toEqual({
        name: 'none',
        reason: `${join(dir, 'bwrap')} is present but cannot create namespaces or drop capabilities here`,
      });
      expect(seen[1]).toEqual(expect.arrayContaining(['--unshare-user', '--disable-userns', '--cap-drop', 'ALL']));
      expect(detectSandboxBackend({ platform: 'linux', env: { PATH: dir }, run: ok })).toEqual({
        name: 'bwrap',
        path: join(dir, 'bwrap'),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
