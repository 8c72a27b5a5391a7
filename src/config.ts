/**
 * gitmem's configuration, read once: every GITMEM_* environment variable and the user's config file
 * (`$GITMEM_HOME/config`, JSON) become one typed object. The composition root (memory.ts) and the CLI build
 * it; the layers below take the values they need as parameters and never read the environment for a
 * setting. The environment itself still travels where it must go whole: into git's processes (`env`), into
 * the sandbox, which builds a confined child's environment from it and reads its three switches from the
 * environment that child would inherit (listed in VARIABLES), and to the provider key lookup, by the
 * variable name the config file names (`providers.<name>.apiKeyEnv`). The configuration's shape (GitmemConfig and
 * its parts) is in config-types.ts; callers import it from here.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { MemoryError } from './errors.js';
import { applyTreeLimits, DEFAULT_TREE_LIMITS, type TreeLimits } from './blocks/tree-limits.js';
import { homeOfRepo } from './hooks/budget-config.js';
import { readGitmemConfig } from './llm/config.js';
import { gitmemRuntimeDir } from './process/runtime-dir.js';
import { credentialsFromToken, readCredentialsFile, type GitCredentials } from './sync/credentials.js';
import type { ConfiguredAgent, DaemonSettings, Env, GitmemConfig, LoadConfigOptions } from './config-types.js';

export type {
  ConfiguredAgent,
  DaemonSettings,
  GitmemConfig,
  LoadConfigOptions,
  ModelSettings,
  SandboxSettings,
} from './config-types.js';

/** Every variable gitmem reads, and what it means (docs/configuration.md lists the same). */
export const VARIABLES: Readonly<Record<string, string>> = Object.freeze({
  GITMEM_HOME: 'the home: agents, credentials, config (default ~/.gitmem)',
  GITMEM_AGENT_ID: 'the agent when none is named (AGENT_ID too)',
  GITMEM_MEMORY_DIR: 'the memory directory when no agent is named; relative to the caller (MEMORY_DIR too)',
  GITMEM_AGENT_NAME: "the display name of the agent's commits (AGENT_NAME too)",
  GITMEM_TREE_MAX_LINES: 'cap of the memory tree in the prompt (2–50,000; default 500)',
  GITMEM_TREE_MAX_CHARS: 'cap of the memory tree in characters (128–5,000,000; default 20,000)',
  GITMEM_TREE_MAX_CHILDREN_PER_DIR: 'entries shown per directory (1–5,000; default 50)',
  GITMEM_GIT_TOKEN: 'a token for HTTPS remotes (else $GITMEM_HOME/credentials, mode 0600)',
  GITMEM_GIT_USERNAME: 'with the token: Basic auth under this user name',
  GITMEM_GIT_AUTH_SCHEME: 'with the token: bearer or basic',
  GITMEM_MODEL: 'the model of reflections and dreams (after --model, before the config file)',
  GITMEM_OPENAI_BASE_URL: 'base URL for openai / openai-compatible models (over the config file)',
  GITMEM_FS_SANDBOX: '0/false runs background writers unconfined, loudly (sandbox switch)',
  GITMEM_SANDBOX_READ: 'extra read-only paths for background writers, colon-separated (sandbox switch)',
  GITMEM_SANDBOX: 'set inside a gitmem sandbox (sandbox marker; a nested writer is refused)',
  GITMEM_SHELL_SANDBOX:
    "1/true/yes/on: `sandbox exec` runs the agent's commands with other agents' memory hidden (over the config file's sandbox.shell; default off)",
  GITMEM_DAEMON: '0/off/false/no: every CLI call runs in its own process, no daemon',
  GITMEM_DAEMON_IDLE: 'seconds a CLI daemon waits for a call before it stops (default 600)',
  GITMEM_DAEMON_TRACE: "1: the daemon logs each call's start and duration",
  GITMEM_DEBUG: 'set: an internal error prints its stack',
  GITMEM_FSYNC: "0/false/no/off: writes are not flushed to disk (over the repository's gitmem.fsync; default on)",
  GITMEM_FAST_PATHS: '0/false/no/off: every fast path (src/fast-paths.ts) gives way to its plain git path (default on)',
});

// The readings the CLI's tiny entry needs before anything else loads (the home, the daemon switch, the
// sandbox mark): pure functions of the environment, so bundling them into the entry costs a few lines.

/**
 * The home from an explicit value, else `GITMEM_HOME`, else `~/.gitmem`; relative values resolve against
 * `cwd`. An explicit empty value is refused (it would silently mean the current directory); a blank
 * `GITMEM_HOME` counts as unset.
 * @example gitmemHome(undefined, { GITMEM_HOME: '/x' }, '/') === '/x'
 */
export function gitmemHome(explicit: string | undefined, env: Record<string, string | undefined>, cwd: string): string {
  if (explicit !== undefined && explicit.trim() === '') {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      'the gitmem home is empty: pass a directory (--home . for the current one)',
    );
  }
  return resolve(cwd, explicit ?? (env['GITMEM_HOME']?.trim() || join(env['HOME']?.trim() || homedir(), '.gitmem')));
}

const OFF = new Set(['0', 'off', 'false', 'no']);

/**
 * `GITMEM_DAEMON=0|off|false|no` turns the CLI daemon off.
 * @example daemonSwitchOff({ GITMEM_DAEMON: 'off' }) === true
 */
export function daemonSwitchOff(env: Env): boolean {
  return OFF.has((env['GITMEM_DAEMON'] ?? '').trim().toLowerCase());
}

/**
 * Whether this process runs inside gitmem's sandbox (the sandbox marks the confined child): a daemon runs
 * unconfined, so a call from inside is never handed to one.
 * @example insideSandbox({ GITMEM_SANDBOX: '1' }) === true
 */
export function insideSandbox(env: Env): boolean {
  return Boolean(env['GITMEM_SANDBOX']);
}

const text = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

/**
 * The agent the environment names.
 * @example configuredAgent({ MEMORY_DIR: 'm' }, '/work').memoryDir === '/work/m'
 */
export function configuredAgent(env: Env, cwd: string = process.cwd()): ConfiguredAgent {
  const id = text(env['GITMEM_AGENT_ID']) ?? text(env['AGENT_ID']);
  const dir = text(env['GITMEM_MEMORY_DIR']) ?? text(env['MEMORY_DIR']);
  const name = text(env['GITMEM_AGENT_NAME']) ?? text(env['AGENT_NAME']);
  return { id, memoryDir: dir === undefined ? undefined : resolve(cwd, dir), name };
}

const TREE_LIMITS: ReadonlyArray<{ key: keyof TreeLimits; variable: string; min: number; max: number }> = [
  { key: 'maxLines', variable: 'GITMEM_TREE_MAX_LINES', min: 2, max: 50_000 },
  { key: 'maxChars', variable: 'GITMEM_TREE_MAX_CHARS', min: 128, max: 5_000_000 },
  { key: 'maxChildrenPerDir', variable: 'GITMEM_TREE_MAX_CHILDREN_PER_DIR', min: 1, max: 5_000 },
];

/**
 * The tree caps the environment sets: base-10 integers after trimming; an empty, non-numeric or
 * out-of-range value keeps the default. Explicit options then go through blocks/tree-limits.ts.
 * @example treeLimitsFromEnv({ GITMEM_TREE_MAX_LINES: '40' }).maxLines === 40
 */
export function treeLimitsFromEnv(env: Env): TreeLimits {
  const out: TreeLimits = { ...DEFAULT_TREE_LIMITS };
  for (const spec of TREE_LIMITS) {
    const raw = env[spec.variable]?.trim() ?? '';
    const value = /^\d+$/.test(raw) ? Number.parseInt(raw, 10) : Number.NaN;
    if (value >= spec.min && value <= spec.max) out[spec.key] = value;
  }
  return out;
}

/**
 * The git token: GITMEM_GIT_TOKEN (with GITMEM_GIT_USERNAME ⇒ Basic, GITMEM_GIT_AUTH_SCHEME), else the
 * 0600 file `<home>/credentials`; undefined when there is none.
 * @example resolveCredentials({ env: { GITMEM_GIT_TOKEN: 't' }, home: '/h' })?.scheme === 'bearer'
 */
export function resolveCredentials(input: { env: Env; home: string }): GitCredentials | undefined {
  const token = text(input.env['GITMEM_GIT_TOKEN']);
  if (!token) return readCredentialsFile(input.home);
  const username = text(input.env['GITMEM_GIT_USERNAME']);
  const scheme = text(input.env['GITMEM_GIT_AUTH_SCHEME']);
  return credentialsFromToken({ token, username, scheme });
}

/**
 * The tree caps: explicit option > environment variable > default (see treeLimitsFromEnv, applyTreeLimits).
 * @example resolveTreeLimits({ GITMEM_TREE_MAX_LINES: '40' }, { maxLines: 10 }).maxLines === 10
 */
export function resolveTreeLimits(env: Env, explicit: Partial<TreeLimits> = {}): TreeLimits {
  return applyTreeLimits(treeLimitsFromEnv(env), explicit);
}

/**
 * The CLI daemon's settings for this environment (what the CLI entry needs before loading anything else).
 * @example daemonSettings({ GITMEM_DAEMON: 'off' }).enabled === false
 */
export function daemonSettings(env: Env): DaemonSettings {
  const idle = text(env['GITMEM_DAEMON_IDLE']);
  const runtimeDir = gitmemRuntimeDir(env);
  return {
    enabled: !daemonSwitchOff(env),
    idleSeconds: idle,
    trace: env['GITMEM_DAEMON_TRACE'] === '1',
    runtimeDir,
  };
}

/**
 * The home a pre-commit hook reads the system/ budget from: GITMEM_HOME of the environment git handed it
 * (gitmem's git runner sets it to the configured home, wiring/open.ts), else the home the repository sits
 * in, else ~/.gitmem — the configured home of the tool write that made the commit, as the other paths use.
 * @example hookHome({ GITMEM_HOME: '/h' }, '/elsewhere/memory') === '/h'
 */
export function hookHome(env: Env, repoDir: string): string {
  const home = text(env['GITMEM_HOME']);
  return home ? resolve(home) : homeOfRepo(repoDir);
}

/**
 * GITMEM_DEBUG is set (an internal error prints its stack).
 * @example debugSwitch({ GITMEM_DEBUG: '1' }) === true
 */
export function debugSwitch(env: Env): boolean {
  return text(env['GITMEM_DEBUG']) !== undefined;
}

const FSYNC_OFF = new Set(['0', 'false', 'no', 'off']);
const FSYNC_ON = new Set(['1', 'true', 'yes', 'on']);

/**
 * GITMEM_FSYNC as a switch: false for 0/false/no/off, true for 1/true/yes/on, else undefined.
 * @example fsyncSwitch({ GITMEM_FSYNC: '0' }) === false
 */
export function fsyncSwitch(env: Env): boolean | undefined {
  const v = env['GITMEM_FSYNC']?.trim().toLowerCase() ?? '';
  return FSYNC_OFF.has(v) ? false : FSYNC_ON.has(v) ? true : undefined;
}

/**
 * GITMEM_FAST_PATHS as a switch: false for 0/false/no/off, else true.
 * @example fastPathsSwitch({ GITMEM_FAST_PATHS: 'off' }) === false
 */
export function fastPathsSwitch(env: Env): boolean {
  return !FSYNC_OFF.has(env['GITMEM_FAST_PATHS']?.trim().toLowerCase() ?? '');
}

/**
 * GITMEM_SHELL_SANDBOX as a switch: true for 1/true/yes/on, false for 0/false/no/off, else undefined.
 * @example shellSandboxSwitch({ GITMEM_SHELL_SANDBOX: 'on' }) === true
 */
export function shellSandboxSwitch(env: Env): boolean | undefined {
  const v = env['GITMEM_SHELL_SANDBOX']?.trim().toLowerCase() ?? '';
  return FSYNC_OFF.has(v) ? false : FSYNC_ON.has(v) ? true : undefined;
}

/**
 * The gitmem sandbox this environment runs inside (GITMEM_SANDBOX, its backend's name), or undefined.
 * @example sandboxMarker({ GITMEM_SANDBOX: 'bwrap' }) === 'bwrap'
 */
export function sandboxMarker(env: Env): string | undefined {
  return text(env['GITMEM_SANDBOX']);
}

function once<T>(read: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: read() }).v;
}

/**
 * Reads the configuration of one caller. Cheap: files (credentials, config) are read on first use only.
 * @example const config = loadConfig({ env: process.env }); config.home // '/home/me/.gitmem'
 */
export function loadConfig(options: LoadConfigOptions = {}): GitmemConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const home = gitmemHome(options.home, env, cwd);
  const fsSwitch = (env['GITMEM_FS_SANDBOX'] ?? '').trim().toLowerCase();
  const readPaths = text(env['GITMEM_SANDBOX_READ']);
  const inside = sandboxMarker(env);
  const model = { spec: text(env['GITMEM_MODEL']), openaiBaseUrl: text(env['GITMEM_OPENAI_BASE_URL']) };
  return Object.freeze({
    home,
    homeSource: options.home !== undefined ? 'option' : text(env['GITMEM_HOME']) ? 'env' : 'default',
    agent: Object.freeze(configuredAgent(env, cwd)),
    treeLimits: Object.freeze(treeLimitsFromEnv(env)),
    model: Object.freeze(model),
    sandbox: Object.freeze({
      enabled: fsSwitch !== '0' && fsSwitch !== 'false',
      readPaths,
      inside,
      shell: shellSandboxSwitch(env),
    }),
    daemon: Object.freeze(daemonSettings(env)),
    debug: debugSwitch(env),
    fsync: fsyncSwitch(env),
    fastPaths: fastPathsSwitch(env),
    env,
    credentials: once(() => resolveCredentials({ env, home })),
    file: once(() => readGitmemConfig(home)),
  });
}
