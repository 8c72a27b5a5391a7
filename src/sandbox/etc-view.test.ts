import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEtcViews, planEtcView } from './etc-view.js';
import { preparePolicy, type PreparedPolicy } from './prepare.js';
import type { SandboxPolicy } from './policy.js';

let base: string;
let etc: string;
let parent: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gitmem-etcview-')));
  etc = join(base, 'etc');
  parent = join(base, 'runtime');
  mkdirSync(parent, { mode: 0o700 });
  mkdirSync(join(etc, 'ssl', 'certs'), { recursive: true });
  mkdirSync(join(base, 'zone'));
  writeFileSync(join(base, 'zone', 'UTC'), 'TZif');
  symlinkSync(join(base, 'zone', 'UTC'), join(etc, 'localtime'));
  writeFileSync(join(etc, 'passwd'), 'root:x:0:0::/root:/bin/sh\n');
  writeFileSync(join(etc, 'hosts'), '127.0.0.1 localhost\n', { mode: 0o755 });
  writeFileSync(join(etc, 'ssl', 'certs', 'ca.pem'), 'CERT');
  writeFileSync(join(etc, 'ssl', 'openssl.cnf'), '[openssl]\n');
  writeFileSync(join(etc, 'big.db'), Buffer.alloc(4096, 1));
  writeFileSync(join(etc, 'unreadable'), 'not for you', { mode: 0o044 }); // its owner (us) may not read it
  writeFileSync(join(etc, 'shadow'), 'root:SECRET-HASH:1::::::\n', { mode: 0o600 });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const at = (...p: string[]): string => join(etc, ...p);

function prepared(extra: Partial<SandboxPolicy> = {}): PreparedPolicy {
  return preparePolicy({
    readonlyRoots: [join(base, 'zone'), at('passwd'), at('hosts'), at('localtime'), at('ssl', 'certs'), at('ssl', 'openssl.cnf'), at('big.db'), at('unreadable'), at('missing')],
    writableRoots: [],
    deniedRoots: [at('shadow')],
    reopenedRoots: [],
    allowNetwork: false,
    privateTmp: true,
    ...extra,
  });
}

describe('planEtcView', () => {
  it('copies small readable files, leaves mount points for the rest, takes over the links, and nothing else', () => {
    const plan = planEtcView(prepared(), etc, 1024);
    expect(plan?.entries.map((e) => [e.rel, e.kind])).toEqual([
      ['big.db', 'file'], // over the size cap: bound as before
      ['hosts', 'copy'],
      ['localtime', 'link'],
      ['passwd', 'copy'],
      ['ssl/certs', 'dir'],
      ['ssl/openssl.cnf', 'copy'],
      ['unreadable', 'file'], // unreadable inside today: a copy would show it
    ]);
    expect(plan?.entries).toContainEqual({ rel: 'localtime', kind: 'link', target: join(base, 'zone', 'UTC') });
  });

  it('falls back when the root or an ancestor is a root, or nothing would be copied', () => {
    expect(planEtcView(prepared({ readonlyRoots: [etc] }), etc)).toBeUndefined();
    expect(planEtcView(prepared({ readonlyRoots: [base] }), etc)).toBeUndefined();
    expect(planEtcView(prepared({ readonlyRoots: [at('ssl', 'certs')] }), etc)).toBeUndefined();
    expect(planEtcView(prepared({ writableRoots: ['/'] }), etc)).toBeUndefined();
  });

  it('leaves what lies inside another mount under the root to that mount: a file root in a writable dir stays bound', () => {
    const plan = planEtcView(prepared({ writableRoots: [at('ssl')] }), etc);
    expect(plan?.entries.map((e) => [e.rel, e.kind])).toContainEqual(['ssl', 'dir']);
    expect(plan?.entries.some((e) => e.rel.startsWith('ssl/'))).toBe(false);
  });

  it('shows a denied root it renders as a mount point of its kind (a re-opened entry inside stays its own mount)', () => {
    mkdirSync(at('ssh'), { recursive: true });
    writeFileSync(at('ssh', 'ssh_config'), 'Host *\n');
    const plan = planEtcView(prepared({ deniedRoots: [at('shadow'), at('ssh')], reopenedRoots: [{ path: at('ssh', 'ssh_config'), writable: false }] }), etc);
    expect(plan?.entries.filter((e) => e.rel.startsWith('ssh')).map((e) => [e.rel, e.kind])).toEqual([['ssh', 'dir']]);
  });
});

describe('createEtcViews', () => {
  it('writes the view once and reuses it; a changed source gets a new directory and the old one is left as it was', async () => {
    const views = createEtcViews({ parent, root: etc, retireMs: 50, maxFileBytes: 1024, warmUp: 0 });
    try {
      const first = views.viewFor(prepared());
      expect(first).toBeDefined();
      const dir1 = first?.dir as string;
      expect(readFileSync(join(dir1, 'passwd'), 'utf8')).toBe(readFileSync(at('passwd'), 'utf8'));
      expect(lstatSync(join(dir1, 'passwd')).mode & 0o777).toBe(0o444);
      expect(lstatSync(join(dir1, 'hosts')).mode & 0o777).toBe(0o555);
      expect(readlinkSync(join(dir1, 'localtime'))).toBe(join(base, 'zone', 'UTC'));
      expect(readdirSync(join(dir1, 'ssl', 'certs'))).toEqual([]);
      expect(existsSync(join(dir1, 'shadow'))).toBe(false);
      expect(first?.copied).toEqual([at('hosts'), at('passwd'), at('ssl', 'openssl.cnf')]);
      expect(views.viewFor(prepared())?.dir).toBe(dir1);

      writeFileSync(at('passwd'), 'root:x:0:0::/root:/bin/sh\nagent:x:1000:1000::/home/agent:/bin/sh\n');
      const second = views.viewFor(prepared());
      expect(second?.dir).not.toBe(dir1);
      expect(readFileSync(join(second?.dir as string, 'passwd'), 'utf8')).toContain('agent:x:1000');
      expect(readFileSync(join(dir1, 'passwd'), 'utf8')).not.toContain('agent'); // an earlier sandbox's view is never edited
      await new Promise((r) => setTimeout(r, 200));
      expect(existsSync(dir1)).toBe(false); // retired, and no sandbox holds it
      expect(existsSync(second?.dir as string)).toBe(true);
    } finally {
      views.close();
    }
    expect(readdirSync(parent)).toEqual([]);
  });

  it('takes a same-size edit whose mtime was put back for a change (the ctime moved)', async () => {
    const views = createEtcViews({ parent, root: etc, warmUp: 0 });
    try {
      utimesSync(at('hosts'), 1_000_000_000, 1_000_000_000); // a whole second: put back exactly below
      const dir1 = views.viewFor(prepared())?.dir;
      await new Promise((r) => setTimeout(r, 20)); // past the filesystem's timestamp granularity
      writeFileSync(at('hosts'), '127.0.0.2 localhost\n');
      utimesSync(at('hosts'), 1_000_000_000, 1_000_000_000);
      expect(lstatSync(at('hosts')).mtimeMs).toBe(1_000_000_000_000);
      const dir2 = views.viewFor(prepared())?.dir;
      expect(dir2).not.toBe(dir1);
      expect(readFileSync(join(dir2 as string, 'hosts'), 'utf8')).toBe('127.0.0.2 localhost\n');
    } finally {
      views.close();
    }
  });

  it('serves the first launch with per-entry binds and writes nothing for it (a one-shot process pays nothing)', () => {
    const views = createEtcViews({ parent, root: etc });
    try {
      expect(views.viewFor(prepared())).toBeUndefined();
      expect(readdirSync(parent)).toEqual([]);
      expect(views.viewFor(prepared())?.dir.startsWith(`${parent}/etcview-`)).toBe(true);
    } finally {
      views.close();
    }
  });

  it('gives per-entry binds when the view cannot be written', () => {
    const views = createEtcViews({ parent: join(base, 'no-such-dir'), root: etc, warmUp: 0 });
    expect(views.viewFor(prepared())).toBeUndefined();
    views.close();
  });
});
