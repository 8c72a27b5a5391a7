import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp } from '../../test/helpers/tmp.js';
import { backoffDelay, buildGitArgv } from '../git/runner.js';
import { agentIdFromUrl } from './clone.js';
import { timeStamp } from './refs.js';
import { normalizeRemoteUrl, remoteProblem } from './remote.js';
import { conflictSummary, parseStatusV2 } from './repo-state.js';

afterAll(cleanupTmp); // the temp repo of the config-parsing case

describe('sync pure helpers', () => {
  it('parses porcelain v2 status: head, upstream, ahead/behind, changes, unmerged, renames', () => {
    const out = [
      '# branch.oid 1111111111111111111111111111111111111111',
      '# branch.head main',
      '# branch.upstream origin/main',
      '# branch.ab +2 -3',
      '1 .M N... 100644 100644 100644 aaa bbb system/a b.md',
      '2 R. N... 100644 100644 100644 aaa bbb R100 new.md',
      'old.md',
      'u UU N... 100644 100644 100644 100644 aaa bbb ccc system/c.md',
      '? notes.txt',
      '',
    ].join('\0');
    expect(parseStatusV2(out)).toEqual({
      oid: '1111111111111111111111111111111111111111',
      branch: 'main',
      upstream: 'origin/main',
      ahead: 2,
      behind: 3,
      changed: ['system/a b.md', 'new.md', 'notes.txt'],
      unmerged: ['system/c.md'],
    });
    expect(parseStatusV2('# branch.oid (initial)\0# branch.head (detached)\0')).toMatchObject({
      oid: null,
      branch: null,
      upstream: null,
      ahead: null,
    });
  });

  it('summarises conflict state as sync reports it first, listing ten files then a count', () => {
    const paths = Array.from({ length: 12 }, (_, i) => `f${i}.md`);
    expect(conflictSummary({ mergeInProgress: false, rebaseInProgress: true, unmerged: paths })).toBe(
      `rebase in progress; conflicted file(s): ${paths.slice(0, 10).join(', ')}, and 2 more`,
    );
    expect(conflictSummary({ mergeInProgress: false, rebaseInProgress: false, unmerged: [] })).toBeUndefined();
  });

  it('normalizes remote URLs and refuses embedded credentials', () => {
    expect(normalizeRemoteUrl(' https://github.com/me/mem.git/ ', '/x')).toBe('https://github.com/me/mem.git');
    expect(normalizeRemoteUrl('git@github.com:me/mem.git', '/x')).toBe('git@github.com:me/mem.git');
    expect(normalizeRemoteUrl('../remote.git', '/srv/a')).toBe('/srv/remote.git');
    expect(() => normalizeRemoteUrl('https://me:tok@github.com/me/mem.git', '/')).toThrow(/embedded credentials/);
    expect(() => normalizeRemoteUrl('https://ghp_abcdefghijklmnop@github.com/x.git', '/')).toThrow(
      /embedded credentials/,
    );
    try {
      normalizeRemoteUrl('https://me:tok-SECRET-1@github.com/x.git', '/');
    } catch (err) {
      expect((err as Error).message).not.toContain('tok-SECRET-1');
    }
    expect(() => normalizeRemoteUrl('  ', '/')).toThrow(/empty/);
  });

  it('takes an scp-like address as git does (a colon before any slash), never a helper transport or a host starting with -', () => {
    expect(normalizeRemoteUrl('github.com:me/mem.git', '/x')).toBe('github.com:me/mem.git');
    expect(normalizeRemoteUrl('[::1]:mem.git', '/x')).toBe('[::1]:mem.git');
    expect(normalizeRemoteUrl('ext::sh -c id', '/x')).toBe('/x/ext::sh -c id');
    expect(normalizeRemoteUrl('-oProxyCommand=x:y', '/x')).toBe('/x/-oProxyCommand=x:y');
    expect(normalizeRemoteUrl('./a:b', '/x')).toBe('/x/a:b');
  });

  it('remoteProblem: a URL must name a host, anything local must be an existing git repository', () => {
    expect(remoteProblem('https://github.com/me/mem.git')).toBeUndefined();
    expect(remoteProblem('git@github.com:me/mem.git')).toBeUndefined();
    expect(remoteProblem('https:')).toMatch(/does not exist/);
    expect(remoteProblem('ssh://-oProxyCommand=x/y')).toMatch(/names no host/);
    expect(remoteProblem('/nonexistent/mem.git')).toMatch(/does not exist/);
    expect(remoteProblem('file:///nonexistent/mem.git')).toMatch(/does not exist/);
    expect(remoteProblem('/')).toMatch(/is not a git repository/);
    expect(remoteProblem('/etc/hostname')).toMatch(/not a directory|does not exist/);
  });

  it('refuses credentials in a URL query string or fragment, naming the parameter, never the value', () => {
    for (const q of [
      '?access_token=S3CRET-v',
      '?ref=x&private_token=S3CRET-v',
      '?sig=S3CRET-v',
      '#token=S3CRET-v',
      '?X-Amz-Signature=S3CRET-v',
    ]) {
      let message = '';
      try {
        normalizeRemoteUrl(`https://h.example/x.git${q}`, '/');
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, q).toMatch(/query string \(/);
      expect(message, q).not.toContain('S3CRET-v');
    }
    expect(normalizeRemoteUrl('https://h.example/x.git?ref=main', '/')).toBe('https://h.example/x.git?ref=main');
    expect(normalizeRemoteUrl('/srv/a?token=x', '/')).toBe('/srv/a?token=x');
  });

  it('derives agent ids from clone URLs and makes ref-safe timestamps', () => {
    expect(agentIdFromUrl('https://github.com/me/agent-7-memory.git')).toBe('agent-7');
    expect(agentIdFromUrl('git@github.com:me/helper.git')).toBe('helper');
    expect(agentIdFromUrl('/srv/git/bot/')).toBe('bot');
    expect(timeStamp(new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 6)))).toBe('20250102T030405.006Z');
  });

  it('puts signing off first, then caller config (auth travels in the environment); backoff doubles and is capped', () => {
    const argv = buildGitArgv(['push'], { config: ['push.default=simple'] });
    expect(argv.slice(0, 2)).toEqual(['-c', 'commit.gpgsign=false']);
    expect(argv).toContain('push.default=simple');
    expect(argv.join(' ')).not.toMatch(/extraHeader|Authorization/i);
    expect(argv[argv.length - 1]).toBe('push');
    const policy = { attempts: 6, baseDelayMs: 500, maxDelayMs: 3000 };
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(policy, a))).toEqual([500, 1000, 2000, 3000, 3000]);
  });
});

describe('readOriginFromConfigFile', () => {
  it('reads origin from a plain config, says null when absent and undefined when unsure', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { makeTmpDir } = await import('../../test/helpers/tmp.js');
    const { readOriginFromConfigFile } = await import('./remote.js');
    const dir = makeTmpDir();
    mkdirSync(join(dir, '.git'));
    const write = (text: string): void => writeFileSync(join(dir, '.git', 'config'), text);
    write(
      '[core]\n\tbare = false\n[remote "upstream"]\n\turl = /x\n[remote "origin"]\n\turl = https://h/mem.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    );
    expect(readOriginFromConfigFile(dir)).toBe('https://h/mem.git');
    write('[core]\n\tbare = false\n[remote "upstream"]\n\turl = /x\n');
    expect(readOriginFromConfigFile(dir)).toBeNull();
    write('[include]\n\tpath = other\n');
    expect(readOriginFromConfigFile(dir)).toBeUndefined();
    write('[remote "origin"]\n\turl = /a ; comment\n');
    expect(readOriginFromConfigFile(dir)).toBe('/a'); // what git reads: the comment dropped
    write('[core]\n\tsshCommand = "ssh -i \\"C:\\\\k\\""\n[remote "origin"]\n\turl = "/a b"\n');
    expect(readOriginFromConfigFile(dir)).toBe('/a b');
    write('[remote "origin"]\n\turl = /a\n\turl = /b\n');
    expect(readOriginFromConfigFile(dir)).toBeUndefined();
    write('[remote "origin"]\n\turl = "/unclosed\n');
    expect(readOriginFromConfigFile(dir)).toBeUndefined();
  });
});
