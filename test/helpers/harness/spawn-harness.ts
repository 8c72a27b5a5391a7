/**
 * Starting a real harness program for a test: where the pinned binaries are, a minimal environment (nothing
 * of the developer's own HOME, proxies or keys leaks in), stdin closed, output collected, and a timeout that
 * stops the program's whole process group (codex's Node launcher, the native binary, its MCP servers).
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is test/helpers/harness/spawn-harness.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type HarnessName = 'claude' | 'codex';

/** The pinned program as npm installed it: node_modules/.bin/<name>. */
export function harnessBin(name: HarnessName): string {
  return join(REPO_ROOT, 'node_modules', '.bin', name);
}

export interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** What every harness run gets besides its own settings: a PATH (hooks and MCP servers run `node`, `sh`, `git`). */
export function baseEnv(home: string): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', TERM: 'dumb' };
}

/**
 * Runs `bin args` in `cwd` with exactly `env`, stdin at end of file. On `timeoutMs` the process group gets
 * SIGTERM, then SIGKILL 2 s later; the result says `timedOut`. A normal exit leaves the group alone (a hook
 * may have started a detached worker that must outlive the harness).
 */
export function runProcess(
  bin: string,
  args: string[],
  o: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    let timedOut = false;
    const signalGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup('SIGTERM');
      setTimeout(() => signalGroup('SIGKILL'), 2000).unref();
    }, o.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
      });
    });
  });
}

/** Every file under `dir` (recursively) whose name ends with `suffix`, sorted; [] when `dir` is absent. */
export function filesUnder(dir: string, suffix: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(suffix))
    .map((n) => join(dir, n))
    .filter((p) => statSync(p).isFile())
    .sort();
}
