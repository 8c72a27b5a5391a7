import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { claudeProjectDir, claudeProjectKey, MAX_PROJECT_KEY } from './claude-project-dir.js';

const root = mkdtempSync(join(tmpdir(), 'gitmem-claude-projects-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Java's String.hashCode, computed apart (BigInt, mod 2^32), |h| in base 36. */
function javaHash(s: string): string {
  let h = 0n;
  for (let i = 0; i < s.length; i++) h = (h * 31n + BigInt(s.charCodeAt(i))) & 0xffffffffn;
  const signed = h >= 0x80000000n ? h - 0x100000000n : h;
  return (signed < 0n ? -signed : signed).toString(36);
}

const LONG = `/home/me/${'very-deep_folder.'.repeat(10)}/${'x'.repeat(60)}/projet-été/app`;

describe("Claude Code's project folder", () => {
  it('a short path is its sanitized self; a long one the first 200 characters and the hash of the path', () => {
    expect(claudeProjectKey('/home/me/my_app.v2')).toBe('-home-me-my-app-v2');
    const sanitized = LONG.replace(/[^a-zA-Z0-9]/g, '-');
    expect(sanitized.length).toBeGreaterThan(MAX_PROJECT_KEY);
    expect(claudeProjectKey(LONG)).toBe(`${sanitized.slice(0, MAX_PROJECT_KEY)}-${javaHash(LONG)}`);
    expect(claudeProjectKey(LONG.slice(0, 150))).toBe(LONG.slice(0, 150).replace(/[^a-zA-Z0-9]/g, '-'));
  });

  it('a long path finds the computed folder, else the one folder with its prefix, and refuses to guess between two', () => {
    const projects = join(root, 'projects');
    const prefix = LONG.replace(/[^a-zA-Z0-9]/g, '-').slice(0, MAX_PROJECT_KEY);
    // Nothing there yet: the computed folder (Claude Code has not seen the project).
    expect(claudeProjectDir(projects, LONG)).toBe(join(projects, claudeProjectKey(LONG)));
    // The native build's hash differs: the one folder with the prefix is it; a longer sibling path is not.
    mkdirSync(join(projects, `${prefix}-1k3v9zq`), { recursive: true });
    mkdirSync(join(projects, `${prefix}-other-project`), { recursive: true });
    mkdirSync(join(projects, `${prefix}x`), { recursive: true });
    expect(claudeProjectDir(projects, LONG)).toBe(join(projects, `${prefix}-1k3v9zq`));
    mkdirSync(join(projects, `${prefix}-0abc`), { recursive: true });
    let err: unknown;
    try {
      claudeProjectDir(projects, LONG);
    } catch (e) {
      err = e;
    }
    expect(isMemoryError(err, 'INVALID_ARGUMENT')).toBe(true);
    expect((err as Error).message).toMatch(
      /several Claude Code project folders could be .*-0abc, .*-1k3v9zq; set autoMemoryDirectory/,
    );
    // The computed folder, when it exists, wins over every look-alike.
    mkdirSync(join(projects, claudeProjectKey(LONG)));
    expect(claudeProjectDir(projects, LONG)).toBe(join(projects, claudeProjectKey(LONG)));
    // A short path is never searched for.
    expect(claudeProjectDir(projects, '/a/b')).toBe(join(projects, '-a-b'));
  });
});
