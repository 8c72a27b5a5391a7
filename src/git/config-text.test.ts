import { describe, expect, it } from 'vitest';
import { configValue, configValues, gitmemConfigValue, parseGitConfig } from './config-text.js';

const TRICKY = [
  '# a comment [remote "origin"]',
  '; another = one',
  '[Core]',
  '\tBare = false',
  '\tfilemode',
  '[remote "origin"] url = "/a b/c" ; trailing comment',
  '\tfetch = +refs/heads/*:refs/remotes/origin/* # also a comment',
  '[remote "Origin"]',
  '\turl = /other-case',
  '[remote.legacy]',
  '\turl = /legacy',
  '[gitmem]',
  '\tagentId = ada',
  '\tnote = "say \\"hi\\"\\tthen\\\\ go" and  more  ',
  '\tsplit = one \\',
  'two',
  '\thash = "a # not a comment; nor this"',
  '[include]',
  '\tpath = elsewhere',
  '[GitMem]',
  '\tAGENTID = bob',
  '',
].join('\n');

describe('the git config text reader', () => {
  it('reads sections, subsections, quotes, escapes, comments and continuations as git does', () => {
    const p = parseGitConfig(TRICKY);
    expect(p.malformed).toBe(false);
    expect(p.includes).toBe(true);
    expect(configValue(p, 'core', 'bare')).toBe('false');
    expect(configValue(p, 'CORE', 'FileMode')).toBe(''); // no `=`: git's implicit true
    expect(configValue(p, 'remote', 'url', 'origin')).toBe('/a b/c');
    expect(configValue(p, 'remote', 'url', 'Origin')).toBe('/other-case'); // subsections are case-sensitive
    expect(configValue(p, 'remote', 'fetch', 'origin')).toBe('+refs/heads/*:refs/remotes/origin/*');
    expect(configValue(p, 'remote', 'url', 'legacy')).toBe('/legacy');
    expect(configValue(p, 'remote', 'url')).toBeUndefined();
    expect(configValues(p, 'gitmem', 'agentid')).toEqual(['ada', 'bob']); // section and key names are case-insensitive
    expect(gitmemConfigValue(TRICKY, 'agentId')).toBe('bob'); // the last one wins
    expect(configValue(p, 'gitmem', 'note')).toBe('say "hi"\tthen\\ go and  more');
    expect(configValue(p, 'gitmem', 'split')).toBe('one two');
    expect(configValue(p, 'gitmem', 'hash')).toBe('a # not a comment; nor this');
    expect(configValue(p, 'include', 'path')).toBe('elsewhere'); // listed, not followed
    expect(p.sections.map((s) => [s.section, s.subsection])).toContainEqual(['remote', 'origin']);
    expect(configValue(p, 'another', 'one')).toBeUndefined(); // commented out
  });

  it('says when the text is no sure answer, and reads CRLF files', () => {
    expect(parseGitConfig('[core]\n\tx = "open\n').malformed).toBe(true);
    expect(parseGitConfig('[core]\n\tx = bad \\q escape\n').malformed).toBe(true);
    expect(parseGitConfig('key = before any section\n').malformed).toBe(true);
    expect(parseGitConfig('[core\n').malformed).toBe(true);
    expect(parseGitConfig('[includeIf "gitdir:/x/"]\n\tpath = y\n').includes).toBe(true);
    expect(parseGitConfig('').entries).toEqual([]);
    expect(configValue('[core]\r\n\thooksPath = /h \r\n', 'core', 'hookspath')).toBe('/h');
  });
});
