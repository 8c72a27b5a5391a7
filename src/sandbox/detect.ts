/**
 * Finds a kernel sandbox backend that really works here: sandbox-exec on macOS (absolute path), bubblewrap
 * on Linux found on PATH and proven by running `true` under exactly the argv gitmem renders (namespaces,
 * user-namespace lock-down, capability drop, the allow-listed mounts, the sealed root). Cached per process,
 * because the probe spawns.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { renderBwrapArgv } from './bwrap.js';
import { hostFacts } from './host.js';
import { preparePolicy } from './prepare.js';
import { SANDBOX_EXEC } from './seatbelt.js';
import { withSystemView } from './system-view.js';

/** A usable backend, or why there is none. */
export type SandboxBackend =
  { name: 'bwrap'; path: string } | { name: 'seatbelt'; path: string } | { name: 'none'; reason: string };

/** Inputs of {@link detectSandboxBackend}; the defaults are the real machine. */
export interface DetectOptions {
  platform?: NodeJS.Platform;
  /** Only PATH is read, to find bwrap. */
  env?: Record<string, string | undefined>;
  /** Runs argv and reports success (default: spawnSync, 10 s limit). */
  run?: (argv: string[]) => boolean;
}

const cache = new Map<string, SandboxBackend>();

/**
 * The argv of a confined `true` with nothing but the host view: every flag a real run uses that can fail on
 * a host (a `bwrap` that cannot create namespaces, mount /proc, or drop capabilities fails here).
 * @example probeArgv('/usr/bin/bwrap').at(-1) // 'true'
 */
export function probeArgv(bwrap: string): string[] {
  const empty = {
    readonlyRoots: [],
    writableRoots: [],
    deniedRoots: [],
    reopenedRoots: [],
    allowNetwork: false,
    privateTmp: true,
  };
  const prepared = preparePolicy(withSystemView(empty, hostFacts({}, 'linux')));
  const { absentReadonly, links, deniedFiles } = prepared;
  return renderBwrapArgv(prepared.policy, ['true'], { bwrapPath: bwrap, absentReadonly, links, deniedFiles, cwd: '/' });
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The first executable `name` on a PATH string (absolute entries only; `''`/relative entries are skipped).
 * @example findOnPath('bwrap', '/usr/local/bin:/usr/bin') // '/usr/bin/bwrap' or undefined
 */
export function findOnPath(name: string, pathValue: string | undefined): string | undefined {
  for (const dir of (pathValue ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function defaultRun(argv: string[]): boolean {
  const [cmd, ...args] = argv;
  if (cmd === undefined) return false;
  const r = spawnSync(cmd, args, { stdio: 'ignore', timeout: 10_000, env: { PATH: '/usr/bin:/bin' } });
  return r.status === 0;
}

function detectLinux(pathValue: string | undefined, run: (argv: string[]) => boolean): SandboxBackend {
  const bwrap = findOnPath('bwrap', pathValue);
  if (!bwrap) return { name: 'none', reason: 'bwrap not found on PATH (install bubblewrap)' };
  if (!run([bwrap, '--version'])) return { name: 'none', reason: `${bwrap} --version failed` };
  if (!run(probeArgv(bwrap))) {
    return { name: 'none', reason: `${bwrap} is present but cannot create namespaces or drop capabilities here` };
  }
  return { name: 'bwrap', path: bwrap };
}

/**
 * Detects (once per platform and PATH) which backend confines processes on this machine.
 * @example detectSandboxBackend({ platform: 'win32' }) // { name: 'none', reason: 'no filesystem sandbox backend for platform win32' }
 */
export function detectSandboxBackend(o: DetectOptions = {}): SandboxBackend {
  const platform = o.platform ?? process.platform;
  const pathValue = o.env?.['PATH'];
  const key = `${platform}\0${pathValue ?? ''}`;
  const cached = o.run === undefined ? cache.get(key) : undefined;
  if (cached) return cached;
  let found: SandboxBackend;
  if (platform === 'darwin') {
    found = isExecutableFile(SANDBOX_EXEC)
      ? { name: 'seatbelt', path: SANDBOX_EXEC }
      : { name: 'none', reason: `${SANDBOX_EXEC} not found` };
  } else if (platform === 'linux') {
    found = detectLinux(pathValue, o.run ?? defaultRun);
  } else {
    found = { name: 'none', reason: `no filesystem sandbox backend for platform ${platform}` };
  }
  if (o.run === undefined) cache.set(key, found);
  return found;
}
