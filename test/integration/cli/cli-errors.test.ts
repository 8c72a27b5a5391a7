// One error and exit convention: a failure is one line `gitmem: CODE: message` on stderr (details after it,
// or in --json on stdout), exit 1 — sync and mirror failures included; mirror status tells the last push.
// And the message speaks the command line: its flags, not the memory tool's argument names.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, type CliHome } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

let h: CliHome;
let remote: string;
beforeAll(() => {
  h = cliHome('local', ['a1']);
  remote = join(h.root, 'remote.git');
  git(h.root, ['init', '-q', '--bare', '-b', 'main', remote]);
});
afterAll(cleanupTmp);

const write = (agent: string, text: string, reason: string) =>
  h.run([
    'memory',
    'create',
    `notes/${reason}.md`,
    '--description',
    'd',
    '--text',
    text,
    '--reason',
    reason,
    '--agent',
    agent,
  ]);

describe('errors on stderr, one line first', () => {
  it('sync without a remote: NO_REMOTE on stderr, nothing on stdout; --json gives the details', () => {
    const r = h.run(['sync', '--agent', 'a1']);
    expect({ code: r.code, error: errorCode(r), out: r.stdout }).toEqual({ code: 1, error: 'NO_REMOTE', out: '' });
    const j = h.run(['sync', '--agent', 'a1', '--json']);
    expect(j.code).toBe(1);
    expect(errorCode(j)).toBe('NO_REMOTE');
    expect(JSON.parse(j.stdout)).toMatchObject({
      ok: false,
      error: { code: 'NO_REMOTE', data: { status: 'no_remote' } },
    });
  });

  it('a sync conflict: SYNC_CONFLICT on stderr with the paths after the first line; main unchanged', () => {
    expect(h.run(['remote', 'set', remote, '--agent', 'a1']).code).toBe(0);
    expect(h.run(['sync', '--agent', 'a1'])).toMatchObject({ code: 0 });
    expect(h.run(['clone', remote, '--agent', 'b1']).code).toBe(0);
    const edit = (agent: string, text: string) =>
      h.run([
        'memory',
        'tool',
        '--agent',
        agent,
        '--call',
        JSON.stringify({
          command: 'create',
          file_path: 'notes/same.md',
          description: 'same',
          file_text: text,
          reason: `from ${agent}`,
        }),
      ]);
    expect(edit('a1', 'from a\n').code).toBe(0);
    expect(h.run(['sync', '--agent', 'a1']).code).toBe(0);
    expect(edit('b1', 'from b\n').code).toBe(0);
    const before = h.state('b1');
    const r = h.run(['sync', '--agent', 'b1']);
    expect({ code: r.code, error: errorCode(r), out: r.stdout }).toEqual({ code: 1, error: 'SYNC_CONFLICT', out: '' });
    expect(r.stderr.split('\n').slice(1).join('\n')).toContain('notes/same.md');
    expect(r.stderr).toContain('gitmem sync --on-conflict keep-branch');
    expect(h.state('b1')).toBe(before);
  });

  it('mirror set whose first push fails exits 1 on stderr; mirror status reports that push', () => {
    const bad = join(h.root, 'no-such-mirror.git');
    const r = h.run(['mirror', 'set', bad, '--agent', 'a1']);
    expect({ code: r.code, error: errorCode(r), out: r.stdout }).toEqual({ code: 1, error: 'PUSH_FAILED', out: '' });
    expect(r.stderr).toContain('gitmem mirror push');
    const status = h.run(['mirror', 'status', '--agent', 'a1', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ last: { ok: false } });
    expect(h.run(['mirror', 'status', '--agent', 'a1']).stdout).toMatch(/last push \(.*\) failed/i);
    const push = h.run(['mirror', 'push', '--agent', 'a1']);
    expect({ code: push.code, error: errorCode(push), out: push.stdout }).toEqual({
      code: 1,
      error: 'PUSH_FAILED',
      out: '',
    });
    const good = join(h.root, 'mirror.git');
    git(h.root, ['init', '-q', '--bare', '-b', 'main', good]);
    expect(h.run(['mirror', 'set', good, '--agent', 'a1']).code).toBe(0);
    expect(JSON.parse(h.run(['mirror', 'status', '--agent', 'a1', '--json']).stdout)).toMatchObject({
      last: { ok: true },
    });
  });

  it('a patch mismatch: the code line first, the preview after it', () => {
    const patch = '*** Begin Patch\n*** Update File: system/human.md\n@@\n-this line is not there\n+x\n*** End Patch\n';
    const r = h.run(['memory', 'apply-patch', '--reason', 'r', '--agent', 'a1'], { input: patch });
    expect({ code: r.code, error: errorCode(r), out: r.stdout }).toEqual({ code: 1, error: 'PATCH_MISMATCH', out: '' });
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).some((l) => l.startsWith('gitmem:'))).toBe(false);
  });

  it('writes that fail leave no trace on stdout', () => {
    const r = write('a1', 'x', 'dup');
    expect(r.code).toBe(0);
    const again = write('a1', 'x', 'dup');
    expect({ code: again.code, error: errorCode(again), out: again.stdout }).toEqual({
      code: 1,
      error: 'FILE_EXISTS',
      out: '',
    });
  });
});

describe('errors speak the command line', () => {
  const lines = (r: { stderr: string }) => r.stderr.split('\n')[0] ?? '';
  const file = 'notes/speak.md';

  beforeAll(() => {
    const r = h.run([
      'memory',
      'create',
      file,
      '--description',
      'd',
      '--text',
      'tea tea\nno\ntea\n',
      '--reason',
      'seed',
      '--agent',
      'a1',
    ]);
    expect(r.code).toBe(0);
  });

  it("names the flags a call took, not the memory tool's arguments; memory tool keeps the names it was given", () => {
    const before = h.state('a1');
    const cases: Array<[string[], string, RegExp]> = [
      [['memory', 'str-replace', file, '--new', 'x', '--reason', 'r'], '--old', /old_string/],
      [['memory', 'describe', file, '--description', 'd2'], '--reason', /'reason'/],
      [['memory', 'insert', file, '--line', '99', '--text', 'x', '--reason', 'r'], '--line 99', /insert_line/],
      [['memory', 'insert', file, '--line', '1', '--reason', 'r'], '--text', /insert_text/],
      [['memory', 'rename', file, '../out.md', '--reason', 'r'], '<new-path>', /new_path/],
      [['revert', 'HEAD'], '--reason', /'reason'/],
      [['log', '--since', 'someday'], '--since', /'since'/],
    ];
    for (const [args, flag, schemaName] of cases) {
      const r = h.run([...args, '--agent', 'a1']);
      expect({ args, code: r.code, named: lines(r).includes(flag) }).toEqual({ args, code: 1, named: true });
      expect(lines(r)).not.toMatch(schemaName);
      expect(lines(r)).not.toMatch(/str_replace|update_description/);
    }
    const j = h.run(['memory', 'str-replace', file, '--new', 'x', '--reason', 'r', '--agent', 'a1', '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', data: { field: 'old_string', option: '--old' } },
    });
    const call = { command: 'str_replace', file_path: file, old_string: '', new_string: 'x', reason: 'r' };
    const raw = h.run(['memory', 'tool', '--call', JSON.stringify(call), '--agent', 'a1']);
    expect(lines(raw)).toContain("'old_string'");
    expect(h.state('a1')).toBe(before);
  });

  it('AMBIGUOUS_MATCH lists each matching line once and names --all', () => {
    const r = h.run([
      'memory',
      'str-replace',
      file,
      '--old',
      'tea',
      '--new',
      'coffee',
      '--reason',
      'r',
      '--agent',
      'a1',
    ]);
    expect(errorCode(r)).toBe('AMBIGUOUS_MATCH');
    // Three matches on two lines (the body starts at line 4).
    expect(lines(r)).toContain('matches 3 times');
    expect(lines(r)).toContain('(lines 4, 6)');
    expect(lines(r)).toContain('--all');
    expect(lines(r)).not.toMatch(/replace_all|old_string/);
  });

  it('an unknown agent lists the agents there are', () => {
    const r = h.run(['tree', '--agent', 'a2']);
    expect({ code: r.code, error: errorCode(r) }).toEqual({ code: 1, error: 'MEMORY_DIR_MISSING' });
    expect(lines(r)).toMatch(/no agent "a2"/);
    expect(lines(r)).toMatch(/agents: a1\b/);
    expect(lines(r)).toContain('gitmem init --agent a2');
  });

  it('remote set refuses what is not a remote URL or a repository path, and changes nothing', () => {
    const plainDir = join(h.root, 'plain-dir');
    mkdirSync(plainDir, { recursive: true });
    h.run(['remote', 'remove', '--agent', 'a1']);
    for (const bad of [
      'not a url',
      join(h.root, 'no-such.git'),
      plainDir,
      'https://',
      'ext::sh -c id',
      'file:///nonexistent/x.git',
    ]) {
      const r = h.run(['remote', 'set', bad, '--agent', 'a1']);
      expect({ bad, code: r.code, error: errorCode(r) }).toEqual({ bad, code: 1, error: 'INVALID_ARGUMENT' });
      expect(lines(r)).toContain('is not a git remote');
    }
    expect(h.run(['remote', 'show', '--agent', 'a1']).stdout).toContain('No remote configured');
    for (const good of [
      'git@example.com:me/memory.git',
      'example.com:me/memory.git',
      'https://example.com/me/memory.git',
      remote,
      `file://${remote}`,
    ]) {
      const r = h.run(['remote', 'set', good, '--agent', 'a1']);
      expect({ good, code: r.code, err: r.stderr }).toEqual({ good, code: 0, err: '' });
    }
    expect(h.run(['remote', 'show', '--agent', 'a1']).stdout).toContain(`origin: file://${remote}`);
  });
});
