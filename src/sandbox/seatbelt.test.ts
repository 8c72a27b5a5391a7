import { describe, expect, it } from 'vitest';
import type { SandboxPolicy } from './policy.js';
import { buildMemoryWriterPolicy } from './writer-policy.js';
import { renderSeatbeltArgv, renderSeatbeltProfile } from './seatbelt.js';

const writer = buildMemoryWriterPolicy({
  gitmemHome: '/h',
  agentId: 'a1',
  memoryDir: '/h/agents/a1/memory',
  worktreesDir: '/h/agents/a1/memory-worktrees',
  stateDirs: ['/h/state'],
});

describe('renderSeatbeltProfile', () => {
  it('renders the memory-writer policy: reads an allow-list, later rules refining earlier ones', () => {
    const { profile, params } = renderSeatbeltProfile(writer);
    expect(profile.split('\n')).toEqual([
      '(version 1)',
      '(allow default)',
      '(deny network*)',
      '(deny file-read* file-write* (subpath "/"))',
      '(allow file-read-metadata)',
      '(allow file-read* file-write* (subpath "/dev"))',
      '(allow file-read* file-write* (subpath "/private/tmp") (subpath "/private/var/folders"))',
      '(allow file-read* (subpath (param "HOME_0")))',
      '(deny file-read* file-write* (subpath (param "DENIED_0")))',
      '(allow file-read-metadata (literal (param "DENIED_0")))',
      '(allow file-read-metadata (literal (param "PASSAGE_0")))',
      '(allow file-read-metadata (literal (param "PASSAGE_1")))',
      '(allow file-read* file-write* (subpath (param "REOPENED_0")))',
      '(allow file-read* file-write* (subpath (param "REOPENED_1")))',
      '(allow file-read* (subpath (param "REOPENED_2")))',
      '(deny file-write* (subpath (param "REOPENED_2")))',
      '(allow file-read* file-write* (subpath (param "REOPENED_3")))',
      '(allow file-read* (subpath (param "REOPENED_4")))',
      '(deny file-write* (subpath (param "REOPENED_4")))',
      '(allow file-read* (subpath (param "REOPENED_5")))',
      '(deny file-write* (subpath (param "REOPENED_5")))',
      '',
    ]);
    expect(params).toEqual([
      ['HOME_0', '/var/empty'],
      ['DENIED_0', '/h'],
      ['PASSAGE_0', '/h/agents'],
      ['PASSAGE_1', '/h/agents/a1'],
      ['REOPENED_0', '/h/state'],
      ['REOPENED_1', '/h/agents/a1/memory-worktrees'],
      ['REOPENED_2', '/h/agents/a1/memory'],
      ['REOPENED_3', '/h/agents/a1/memory/.git'],
      ['REOPENED_4', '/h/agents/a1/memory/.git/hooks'],
      ['REOPENED_5', '/h/agents/a1/memory/.git/config'],
    ]);
  });

  it('allows reading plain roots: read-only ones are visible and unwritable, writable ones both', () => {
    const p: SandboxPolicy = {
      readonlyRoots: ['/usr'],
      writableRoots: ['/out'],
      deniedRoots: [],
      reopenedRoots: [],
      allowNetwork: false,
    };
    const { profile } = renderSeatbeltProfile(p);
    expect(profile).toContain(
      '(allow file-read* file-write* (subpath (param "WRITABLE_0")))\n(allow file-read* (subpath (param "READONLY_0")))\n(deny file-write* (subpath (param "READONLY_0")))',
    );
    expect(profile.indexOf('(deny file-read* file-write* (subpath "/"))')).toBeLessThan(profile.indexOf('READONLY_0'));
  });

  it('never allows reading inside a denied root beyond the metadata of the path itself', () => {
    const { profile } = renderSeatbeltProfile(writer);
    expect(profile).not.toMatch(/allow file-read\* [^\n]*DENIED/);
    expect(profile).not.toMatch(/allow file-read-metadata \(subpath/);
  });

  it('keeps the network open only when allowed and marks read-only roots after writable ones', () => {
    const p: SandboxPolicy = {
      readonlyRoots: ['/w/ro'],
      writableRoots: ['/w'],
      deniedRoots: [],
      reopenedRoots: [],
      allowNetwork: true,
    };
    const { profile } = renderSeatbeltProfile(p);
    expect(profile).not.toContain('network');
    expect(profile).toContain(
      '(allow file-read* file-write* (subpath (param "WRITABLE_0")))\n(allow file-read* (subpath (param "READONLY_0")))',
    );
  });
});

describe('renderSeatbeltArgv', () => {
  it('passes paths as -D parameters and the command after --', () => {
    const argv = renderSeatbeltArgv(writer, ['git', 'status']);
    expect(argv.slice(0, 2)).toEqual(['/usr/bin/sandbox-exec', '-p']);
    expect(argv[2]).toContain('(version 1)');
    expect(argv).toContain('-DDENIED_0=/h');
    expect(argv).toContain('-DREOPENED_3=/h/agents/a1/memory/.git');
    expect(argv.slice(-3)).toEqual(['--', 'git', 'status']);
  });
});
