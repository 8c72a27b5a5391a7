/**
 * Runs the built `gitmem` executable in a hermetic temp home, either in its own process every call or
 * through a CLI daemon of that home (`daemon` mode: a private runtime dir, GITMEM_DAEMON=1, started up front).
 * Tests written against {@link CliHome} run unchanged in both modes.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { git, hermeticGitEnv, makeTmpDir } from './tmp.js';

export const GITMEM_BIN = join(process.cwd(), 'dist/bin/gitmem.cjs');

export type CliMode = 'local' | 'daemon';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  input?: string | Buffer;
  cwd?: string;
  env?: Record<string, string>;
}

export interface CliHome {
  mode: CliMode;
  root: string;
  home: string;
  env: Record<string, string>;
  run: (args: string[], o?: CliOptions) => CliResult;
  /** Requests the home's daemon has served so far; -1 when none is running. */
  served: () => number;
  memoryDir: (agentId: string) => string;
  /** `git rev-parse HEAD` + `git status --porcelain` of an agent's repo: a fingerprint of "unchanged". */
  state: (agentId: string) => string;
  /** Stops the daemon (if any). */
  close: () => void;
}

/** A 10 s guard: a hung CLI fails the test (status null) instead of hanging it. */
const GUARD_MS = 10_000;

/** Runs the CLI with `env`; output as text. */
export function runGitmem(env: Record<string, string>, args: string[], o: CliOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [GITMEM_BIN, ...args], {
    env: { ...env, ...o.env },
    cwd: o.cwd,
    encoding: 'utf8',
    input: o.input ?? '',
    timeout: GUARD_MS,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A fresh home in `mode`; `agents` are initialised first (always locally).
 * @example const h = cliHome('daemon', ['a1']); h.run(['tree', '--agent', 'a1'])
 */
export function cliHome(mode: CliMode, agents: string[] = []): CliHome {
  const root = makeTmpDir(`gitmem-cli-${mode}-`);
  const home = join(root, 'home');
  const env = {
    ...hermeticGitEnv(root),
    GITMEM_HOME: home,
    GITMEM_DAEMON: mode === 'daemon' ? '1' : '0',
    XDG_RUNTIME_DIR: join(root, 'run'),
  };
  mkdirSync(home);
  const run = (args: string[], o: CliOptions = {}): CliResult => runGitmem(env, args, o);
  for (const a of agents) {
    const r = run(['init', '--agent', a], { env: { GITMEM_DAEMON: '0' } });
    if (r.code !== 0) throw new Error(`init ${a} failed: ${r.stderr}`);
  }
  const served = (): number => {
    const r = run(['daemon', 'status', '--json'], { env: { GITMEM_DAEMON: '1' } });
    const info = JSON.parse(r.stdout) as { running: boolean; served?: number };
    return info.running ? (info.served ?? 0) : -1;
  };
  if (mode === 'daemon') {
    const r = run(['daemon', 'start']);
    if (r.code !== 0) throw new Error(`daemon start failed: ${r.stderr}`);
  }
  const memoryDir = (agentId: string): string => join(home, 'agents', agentId, 'memory');
  return {
    mode,
    root,
    home,
    env,
    run,
    served,
    memoryDir,
    state: (agentId) =>
      `${git(memoryDir(agentId), ['rev-parse', 'HEAD'])}\n${git(memoryDir(agentId), ['status', '--porcelain'])}`,
    close: () => void run(['daemon', 'stop'], { env: { GITMEM_DAEMON: '1' } }),
  };
}

/** The first stderr line is `gitmem: CODE: message`, there is no stack trace, and CODE is returned. */
export function errorCode(r: CliResult): string | undefined {
  const first = r.stderr.split('\n')[0] ?? '';
  if (/\n\s+at /.test(r.stderr)) return `stack trace: ${r.stderr}`;
  return /^gitmem: ([A-Z0-9_]+): \S/.exec(first)?.[1];
}
