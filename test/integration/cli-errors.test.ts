// One error and exit convention: a failure is one line `gitmem: CODE: message` on stderr (details after it,
// or in --json on stdout), exit 1 — sync and mirror failures included; mirror status tells the last push.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, type CliHome } from '../helpers/cli.js';
import { cleanupTmp, git } from '../helpers/tmp.js';

let h: CliHome;
let remote: string;
beforeAll(() => {
  h = cliHome('local', ['a1']);
  remote = join(h.root, 'remote.git');
  git(h.root, ['init', '-q', '--bare', '-b', 'main', remote]);
});
afterAll(cleanupTmp);

const write = (agent: string, text: string, reason: string) =>
  h.run(['memory', 'create', `notes/${reason}.md`, '--description', 'd', '--text', text, '--reason', reason, '--agent', agent]);

describe('errors on stderr, one line first', () => {
  it('sync without a remote: NO_REMOTE on stderr, nothing on stdout; --json gives the details', () => {
    const r = h.run(['sync', '--agent', 'a1']);
    expect({ code: r.code, error: errorCode(r), out: r.stdout }).toEqual({ code: 1, error: 'NO_REMOTE', out: '' });
    const j = h.run(['sync', '--agent', 'a1', '--json']);
    expect(j.code).toBe(1);
    expect(errorCode(j)).toBe('NO_REMOTE');
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, error: { code: 'NO_REMOTE', data: { status: 'no_remote' } } });
  });

  it('a sync conflict: SYNC_CONFLICT on stderr with the paths after the first line; main unchanged', () => {
    expect(h.run(['remote', 'set', remote, '--agent', 'a1']).code).toBe(0);
    expect(h.run(['sync', '--agent', 'a1'])).toMatchObject({ code: 0 });
    expect(h.run(['clone', remote, '--agent', 'b1']).code).toBe(0);
    const edit = (agent: string, text: string) =>
      h.run(['memory', 'tool', '--agent', agent, '--call', JSON.stringify({ command: 'create', file_path: 'notes/same.md', description: 'same', file_text: text, reason: `from ${agent}` })]);
    expect(edit('a1', 'from a\n').code).toBe(0);
    expect(h.run(['sync', '--agent', 'a1']).code).toBe(0);
    expect(edit('b1', 'from b\n').code).toBe(0);
    const before = h.state('b1');
    const r = h.run(['sync', '--agent', 'b1']);
    expect({ code: r.code, error: errorCode(r), out: r.stdout }).toEqual({ code: 1, error: 'SYNC_CONFLICT', out: '' });
    expect(r.stderr.split('\n').slice(1).join('\n')).toContain('notes/same.md');
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
    expect({ code: push.code, error: errorCode(push), out: push.stdout }).toEqual({ code: 1, error: 'PUSH_FAILED', out: '' });
    const good = join(h.root, 'mirror.git');
    git(h.root, ['init', '-q', '--bare', '-b', 'main', good]);
    expect(h.run(['mirror', 'set', good, '--agent', 'a1']).code).toBe(0);
    expect(JSON.parse(h.run(['mirror', 'status', '--agent', 'a1', '--json']).stdout)).toMatchObject({ last: { ok: true } });
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
    expect({ code: again.code, error: errorCode(again), out: again.stdout }).toEqual({ code: 1, error: 'FILE_EXISTS', out: '' });
  });
});
