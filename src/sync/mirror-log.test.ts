import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendMirrorLog, lastMirrorPush } from './mirror-log.js';

const dir = mkdtempSync(join(tmpdir(), 'gitmem-mirror-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the mirror log', () => {
  it('writes every line of an entry through the redaction: header and git output alike', () => {
    const own = mkdtempSync(join(dir, 'redact-'));
    const branch = 'ghp_abcdefghijklmnopqrstuvwxyz0123'; // a ref name may look like a token, too
    const output = "fatal: unable to access 'http://127.0.0.1:9/m.git?access_token=Zq9secret1/': Failed to connect";
    appendMirrorLog(own, { commit: 'abc1234', branch, trigger: 'post-commit', ok: false, output }, []);
    const text = readFileSync(join(own, 'gitmem-mirror.log'), 'utf8');
    expect(text).not.toMatch(/Zq9secret1|abcdefghijklmnopqrstuvwxyz0123/);
    expect(text).toContain("unable to access 'http://127.0.0.1:9/m.git?access_token=<redacted>'");
  });

  it('reads back the last complete push, from the hook or from mirror push', () => {
    appendMirrorLog(dir, { commit: 'abc1234', branch: 'main', trigger: 'post-commit', ok: true, output: '' }, []);
    appendMirrorLog(
      dir,
      {
        commit: 'def5678',
        branch: 'main',
        trigger: 'mirror push',
        ok: false,
        output: 'remote said tok-secret-1\nrejected',
      },
      ['tok-secret-1'],
    );
    const text = readFileSync(join(dir, 'gitmem-mirror.log'), 'utf8');
    expect(text).not.toContain('tok-secret-1');
    expect(lastMirrorPush(text)).toMatchObject({
      commit: 'def5678',
      trigger: 'mirror push',
      ok: false,
      output: expect.stringMatching(/rejected$/),
    });
    expect(lastMirrorPush(`${text}\n--- 2026-12-01T12:00:00+0000 0000000 on main ---\n`)?.commit).toBe('def5678'); // still running
    expect(lastMirrorPush('\n--- 2026-12-01T12:00:00+0100 1111111 on main ---\nTo /srv/m.git\nexit=0\n')).toEqual({
      at: '2026-12-01T12:00:00+0100',
      commit: '1111111',
      branch: 'main',
      trigger: 'post-commit',
      ok: true,
      output: 'To /srv/m.git',
    });
    expect(lastMirrorPush('')).toBeNull();
  });
});
