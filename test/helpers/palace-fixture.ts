/**
 * Shared by the palace tests: a home with agents, the palace started as a real `gitmem palace` process
 * (stopped by its pid), raw HTTP requests with any Host header, and headless Chromium (Debian's, driven by
 * playwright-core; never a downloaded browser). Tests that use the browser are tagged `browser`: without
 * /usr/bin/chromium they skip (one line for the whole run, test/helpers/browser-probe.ts), or the run fails
 * under GITMEM_REQUIRE_BROWSER=1.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { CHROMIUM } from './browser-probe.js';
import { GITMEM_BIN } from './cli.js';
import { hermeticGitEnv, makeTmpDir } from './tmp.js';

export interface PalaceHome {
  home: string;
  env: Record<string, string>;
  /** Runs the CLI; throws on a non-zero exit. */
  cli: (args: string[], input?: string) => string;
  memoryDir: (agent: string) => string;
}

export function palaceHome(agents: string[]): PalaceHome {
  const root = makeTmpDir('gitmem-palace-');
  const home = join(root, 'home');
  mkdirSync(home);
  const env = { ...hermeticGitEnv(root), GITMEM_HOME: home, GITMEM_DAEMON: '0', XDG_RUNTIME_DIR: join(root, 'run') };
  const cli = (args: string[], input = ''): string => {
    const r = spawnSync(process.execPath, [GITMEM_BIN, ...args], { env, input, encoding: 'utf8', timeout: 30_000 });
    if (r.status !== 0) throw new Error(`gitmem ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return r.stdout;
  };
  for (const a of agents) cli(['init', '--agent', a]);
  return { home, env, cli, memoryDir: (a) => join(home, 'agents', a, 'memory') };
}

export interface RunningPalace {
  url: string;
  origin: string;
  port: number;
  token: string;
  child: ChildProcess;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** Starts `gitmem palace` (port 0) and waits for the URL it prints. */
export function startPalaceProcess(h: PalaceHome, args: string[] = []): Promise<RunningPalace> {
  const child = spawn(process.execPath, [GITMEM_BIN, 'palace', ...args], {
    env: h.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`palace did not start: ${err}`)), 20_000);
    child.on('exit', (code) => reject(new Error(`palace exited ${code}: ${err}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:(\d+)\/([A-Za-z0-9_-]+)\/)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      const stop = (): Promise<void> =>
        new Promise((done) => {
          if (child.exitCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
        });
      resolve({
        url: m[1] as string,
        origin: `http://127.0.0.1:${m[2]}`,
        port: Number(m[2]),
        token: m[3] as string,
        child,
        stderr: () => err,
        stop,
      });
    });
  });
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly the headers given (a Host header of our choosing, too). */
export function rawRequest(
  port: number,
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: string; firstChunkOnly?: boolean } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: o.method ?? 'GET',
        headers: { Host: `127.0.0.1:${port}`, ...o.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d.toString();
          if (o.firstChunkOnly) {
            res.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          }
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

/** Chromium as ENVIRONMENT.md says it runs here. */
export async function launchBrowser(): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(makeTmpDir('gitmem-chromium-'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A kept branch like sync's: `gitmem/conflict/<stamp>` from `base`, changing `files`, committed by a shell. */
export function makeKeptBranch(
  h: PalaceHome,
  agent: string,
  name: string,
  base: string,
  files: Record<string, string>,
  message: string,
): string {
  const dir = h.memoryDir(agent);
  const wt = join(makeTmpDir('gitmem-kept-'), 'wt');
  const git = (args: string[], cwd = dir): string => {
    const r = spawnSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd, env: h.env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  git(['worktree', 'add', '--detach', wt, base]);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(wt, path)), { recursive: true });
    writeFileSync(join(wt, path), text);
  }
  git(['add', '-A'], wt);
  git(['commit', '--no-verify', '-q', '-m', message], wt);
  const head = git(['rev-parse', 'HEAD'], wt);
  git(['update-ref', `refs/heads/${name}`, head]);
  git(['worktree', 'remove', '--force', wt]);
  return head;
}

/** `git` in an agent's memory repo. */
export function gitIn(h: PalaceHome, agent: string, args: string[]): string {
  const r = spawnSync('git', ['-c', 'commit.gpgsign=false', ...args], {
    cwd: h.memoryDir(agent),
    env: h.env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}
