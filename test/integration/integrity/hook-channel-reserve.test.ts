// A writer's hook channel reserved before its sandbox starts (the directory named in the sandbox's argv)
// and started while the sandbox does: empty until started, then linked and listening; hooks that cannot be
// linked reject the start (the writer is never released); a channel that cannot listen only says so.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readlinkSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveHookChannel } from '../../../src/hooks/serve-hook-validation.js';
import { hookedRepo } from '../../helpers/hooked-repo.js';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

let repo: string;
let env: Record<string, string>;
let gitEnv: Record<string, string>;

function canConnect(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(socket);
    c.once('connect', () => (c.destroy(), resolve(true)));
    c.once('error', () => resolve(false));
  });
}

// Channel directories of this pid namespace in the temp dir, planted before this process's first reserve.
const ns = /\d+/.exec(readlinkSync('/proc/self/ns/pid'))?.[0] as string;
const dead = spawnSync('true').pid as number; // exited and reaped: no process has this pid now
const planted = {
  gone: `gitmem-hook-${ns}-${dead}-old`,
  fresh: `gitmem-hook-${ns}-${dead}-new`,
  live: `gitmem-hook-${ns}-${process.pid}-mine`,
};

beforeAll(async () => {
  const old = new Date(Date.now() - 120_000);
  for (const [k, name] of Object.entries(planted)) {
    mkdirSync(join(tmpdir(), name, 'hooks'), { recursive: true });
    if (k !== 'fresh') utimesSync(join(tmpdir(), name), old, old);
  }
  const root = makeTmpDir('gitmem-hookres-');
  env = hermeticGitEnv(root);
  repo = join(root, 'memory');
  await hookedRepo(repo, env);
  gitEnv = { GIT_DIR: join(repo, '.git'), GIT_COMMON_DIR: join(repo, '.git') };
});

afterAll(() => {
  for (const name of Object.values(planted)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  cleanupTmp();
});

describe('a reserved hook channel', () => {
  it('the first one a process reserves removes the channel directories of dead processes (idle a minute) and only those', () => {
    reserveHookChannel({ launch: sharedShellLauncher(), worktree: repo, gitEnv, env })
      .close()
      .catch(() => undefined);
    expect(Object.values(planted).filter((n) => existsSync(join(tmpdir(), n)))).toEqual([planted.fresh, planted.live]);
  });

  it('has its directory at once, its hooks and socket only once started, and nothing left after close', async () => {
    const ch = reserveHookChannel({ launch: sharedShellLauncher(), worktree: repo, gitEnv, env });
    expect(readdirSync(ch.dir)).toEqual([]);
    expect(ch.env['GITMEM_HOOK_SOCKET']).toBe(ch.socketPath);
    expect(await ch.start()).toBe(true);
    expect(existsSync(join(ch.hooksDir, 'pre-commit'))).toBe(true);
    expect(await canConnect(ch.socketPath)).toBe(true);
    await expect(ch.start()).rejects.toThrow(/starts once/);
    await ch.close();
    expect(existsSync(ch.dir)).toBe(false);
  });

  it('rejects the start when the hooks cannot be linked, and after a close', async () => {
    const gone = reserveHookChannel({ launch: sharedShellLauncher(), worktree: repo, gitEnv, env });
    rmSync(gone.dir, { recursive: true });
    await expect(gone.start()).rejects.toThrow();
    expect(await canConnect(gone.socketPath)).toBe(false);
    await gone.close();
    const closed = reserveHookChannel({ launch: sharedShellLauncher(), worktree: repo, gitEnv, env });
    await closed.close();
    await expect(closed.start()).rejects.toThrow(/not after it was closed/);
    // a directory put in its place (a sandbox would still see the one it bound): refused, nothing linked there
    const swapped = reserveHookChannel({ launch: sharedShellLauncher(), worktree: repo, gitEnv, env });
    rmSync(swapped.dir, { recursive: true });
    mkdirSync(swapped.dir, { mode: 0o700 });
    await expect(swapped.start()).rejects.toThrow(/no longer the hook directory/);
    expect(readdirSync(swapped.dir)).toEqual([]);
    await swapped.close();
  });

  it('resolves false, with the hooks linked, when it cannot listen (the hook then starts Node)', async () => {
    const ch = reserveHookChannel({ launch: sharedShellLauncher(), worktree: repo, gitEnv, env });
    const other = createServer(() => undefined);
    await new Promise<void>((resolve) => other.listen(ch.socketPath, resolve));
    try {
      expect(await ch.start()).toBe(false);
      expect(existsSync(join(ch.hooksDir, 'pre-commit'))).toBe(true);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
      await ch.close();
    }
    expect(existsSync(ch.dir)).toBe(false);
  });
});
