import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookClientPerl } from './hook-client-script.js';
import {
  MAX_HOOK_INSTALLS,
  parseHookInstalls,
  planHookInstalls,
  preCommitScript,
  type HookInstall,
} from './pre-commit-script.js';

const inst = (name: string, node = '/usr/bin/node'): HookInstall => ({
  node,
  entry: `/opt/${name}/dist/bin/pre-commit.cjs`,
});
const [a, b, c] = [inst('a'), inst('b'), inst('c')];
const all = (): boolean => true;
const dir = mkdtempSync(join(tmpdir(), 'gitmem-hookscript-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the pre-commit hook text', () => {
  it('round-trips the installs it names, quotes and all', () => {
    const odd = { node: "/n o/it's node", entry: "/p/it's $(x) `y`/dist/bin/pre-commit.cjs" };
    expect(parseHookInstalls(preCommitScript([odd, a]))).toEqual([odd, a]);
  });

  it('names nothing for text gitmem did not write', () => {
    expect(parseHookInstalls(null)).toEqual([]);
    expect(parseHookInstalls("#!/bin/sh\ngitmem_try '/x' '/y/dist/bin/pre-commit.cjs'\n")).toEqual([]);
  });

  it('runs the first install whose entry exists, with its node or the one on PATH', () => {
    const entry = join(dir, 'dist', 'bin', 'pre-commit.cjs');
    execFileSync('mkdir', ['-p', join(dir, 'dist', 'bin')]);
    writeFileSync(entry, 'console.log("ran " + process.argv[1]);\n');
    const hook = join(dir, 'hook');
    writeFileSync(
      hook,
      preCommitScript([
        { node: '/gone/node', entry: '/gone/dist/bin/pre-commit.cjs' },
        { node: '/gone/node', entry },
      ]),
    );
    chmodSync(hook, 0o755);
    expect(execFileSync(hook, { encoding: 'utf8' }).trim()).toBe(`ran ${entry}`);
  });

  it('with none left it fails with one line naming the fix', () => {
    const hook = join(dir, 'hook-none');
    writeFileSync(hook, preCommitScript([a]));
    chmodSync(hook, 0o755);
    const r = spawnSync(hook, { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/no gitmem installation found \(looked for \/opt\/a\/.*\); run any gitmem command/);
  });
});

describe('which installs the hook names', () => {
  it('a plain open keeps the recorded order and adds itself once', () => {
    expect(planHookInstalls([], a, { preferSelf: false, usable: all })).toEqual([a]);
    expect(planHookInstalls([a], b, { preferSelf: false, usable: all })).toEqual([a, b]);
    expect(planHookInstalls([a, b], b, { preferSelf: false, usable: all })).toEqual([a, b]);
    expect(planHookInstalls([b, a], a, { preferSelf: false, usable: all })).toEqual([b, a]);
  });

  it('a confined writer puts its own install first', () => {
    expect(planHookInstalls([a, b], b, { preferSelf: true, usable: all })).toEqual([b, a]);
    expect(planHookInstalls([a], c, { preferSelf: true, usable: all })).toEqual([c, a]);
  });

  it('drops installs that are gone, duplicates, and a gone node of its own entry', () => {
    const usable = (e: string): boolean => e !== a.entry;
    expect(planHookInstalls([a, b, b], c, { preferSelf: false, usable })).toEqual([b, c]);
    expect(planHookInstalls([a], b, { preferSelf: false, usable })).toEqual([b]);
    const oldNode = inst('b', '/old/node');
    expect(
      planHookInstalls([oldNode], b, { preferSelf: false, usable: all, nodeExists: (n) => n !== '/old/node' }),
    ).toEqual([b]);
    expect(planHookInstalls([oldNode], b, { preferSelf: false, usable: all })).toEqual([oldNode]);
  });

  it(`names at most ${MAX_HOOK_INSTALLS}: the preferred one and the latest others`, () => {
    const many = ['1', '2', '3', '4', '5'].map((n) => inst(n));
    const out = planHookInstalls(many, inst('6'), { preferSelf: false, usable: all });
    expect(out.map((i) => i.entry.split('/')[2])).toEqual(['1', '4', '5', '6']);
  });
});

describe('the hook asks a running gitmem first', () => {
  it('keeps the client in one single-quoted shell word', () => {
    expect(hookClientPerl()).not.toContain("'");
    expect(preCommitScript([a])).toContain(`gitmem_ask='${hookClientPerl()}'`);
  });

  it('starts Node when nobody answers, and when perl is missing', () => {
    const entry = join(dir, 'dist', 'bin', 'pre-commit.cjs');
    execFileSync('mkdir', ['-p', join(dir, 'dist', 'bin')]);
    writeFileSync(entry, 'console.log("node ran");\n');
    const hook = join(dir, 'hook-ask');
    writeFileSync(hook, preCommitScript([{ node: process.execPath, entry }]));
    chmodSync(hook, 0o755);
    const noDaemon = { PATH: process.env['PATH'] ?? '', XDG_RUNTIME_DIR: join(dir, 'no-runtime') };
    expect(execFileSync(hook, { encoding: 'utf8', env: noDaemon }).trim()).toBe('node ran');
    expect(execFileSync('/bin/sh', [hook], { encoding: 'utf8', env: { PATH: join(dir, 'empty-path') } }).trim()).toBe(
      'node ran',
    );
  });
});
