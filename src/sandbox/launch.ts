/**
 * The fail-closed launcher: turns a command and a policy into the argv and environment that run it
 * confined. No backend ⇒ an error, never an unconfined run; only an explicit GITMEM_FS_SANDBOX=0 turns the
 * sandbox off, and then loudly. A sentinel in the confined environment refuses nesting.
 */
import { isAbsolute } from 'node:path';
import { MemoryError } from '../errors.js';
import { canMoveTo, insidePath, isWithin, normalizePolicy, withReadPaths, type SandboxPolicy } from './policy.js';
import { renderBwrapArgv } from './bwrap.js';
import { renderSeatbeltArgv } from './seatbelt.js';
import { detectSandboxBackend, type SandboxBackend } from './detect.js';
import { buildConfinedEnv, SANDBOX_SENTINEL } from './env.js';
import { hostFacts, sandboxPlatform } from './host.js';
import { absentReopened, canonicalPath, preparePolicy, type PreparedPolicy } from './prepare.js';
import { parseReadPaths, SANDBOX_READ_ENV, withSystemView } from './system-view.js';

/** A command ready to spawn: run `argv` with exactly `env`. */
export interface ConfinedCommand {
  argv: string[];
  env: Record<string, string>;
  backend: 'bwrap' | 'seatbelt' | 'none';
}

/** Inputs of {@link confineCommand}. */
export interface ConfineOptions {
  command: string[];
  policy: SandboxPolicy;
  /** The caller's environment: source of the allow-listed variables and of the switches below. */
  env: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  /** Where the disabled-sandbox warning goes (default: stderr). */
  onWarning?: (message: string) => void;
  /** Extra variable names to copy from `env` (e.g. the model's API key). */
  passEnv?: string[];
  /**
   * Variables set verbatim in the confined environment. The function form is told where a host path is
   * seen inside (a moved path's new place), for variables that name one.
   */
  extraEnv?: Record<string, string> | ((inside: (hostPath: string) => string) => Record<string, string>);
  /** Working directory inside the sandbox (bwrap `--chdir`, which fails loudly if it is not there); must be visible. */
  cwd?: string;
  /** Skip detection and use this backend (tests, or a caller that already detected). */
  backend?: SandboxBackend;
  /** Extra read-only paths (added to those of GITMEM_SANDBOX_READ in `env`). */
  readPaths?: string[];
  /**
   * Read-only directories shown at a place of their own (SandboxPolicy.movedRoots), e.g. a hook channel made
   * in the host's /tmp, kept out of the private one. bwrap moves them; another backend, or a place another
   * root already holds, shows them where they are (extraEnv's function form says which).
   */
  movedPaths?: Array<{ path: string; inside: string }>;
}

/** The switch that disables confinement. */
export const FS_SANDBOX_SWITCH = 'GITMEM_FS_SANDBOX';

/**
 * Reads GITMEM_FS_SANDBOX: `0`/`false` (any case) turn confinement off; unset, empty, `1`, `true` keep it on;
 * anything else keeps it on too (fail-closed) and says so.
 * @example fsSandboxSwitch('FALSE') // { enabled: false }
 */
export function fsSandboxSwitch(value: string | undefined): { enabled: boolean; note?: string } {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '0' || v === 'false') return { enabled: false };
  if (v === '' || v === '1' || v === 'true') return { enabled: true };
  return {
    enabled: true,
    note: `[gitmem] ${FS_SANDBOX_SWITCH}=${JSON.stringify(value)} is not 0/false/1/true; the sandbox stays ON.`,
  };
}

const DISABLED_WARNING =
  `[gitmem] WARNING: ${FS_SANDBOX_SWITCH}=0 — the background memory writer runs WITHOUT a filesystem sandbox. ` +
  "It can read every agent's memory and write anywhere this user can. Unset the variable to restore confinement.";

function defaultWarn(message: string): void {
  process.stderr.write(`${message}\n`);
}

function refuseNesting(env: Record<string, string | undefined>): void {
  const outer = env[SANDBOX_SENTINEL];
  if (outer !== undefined && outer !== '') {
    throw new MemoryError(
      'SANDBOX_NESTED',
      `refusing to start a sandboxed writer from inside a sandbox (${SANDBOX_SENTINEL}=${outer})`,
      {
        data: { outer },
      },
    );
  }
}

/** Visible inside: in a re-opened root, or in a plain root and no denied one. */
function isVisible(policy: SandboxPolicy, path: string): boolean {
  if (policy.reopenedRoots.some((r) => isWithin(r.path, path))) return true;
  const plain = [...policy.readonlyRoots, ...policy.writableRoots].some((p) => isWithin(p, path));
  return plain && !policy.deniedRoots.some((d) => isWithin(d, path));
}

/** bwrap silently falls back to $HOME when the cwd is hidden; refuse instead. */
function checkCwd(input: string | undefined, policy: SandboxPolicy): string | undefined {
  if (input === undefined) return undefined;
  const cwd = isAbsolute(input) ? canonicalPath(input) : input;
  if (!isAbsolute(cwd) || !isVisible(policy, cwd)) {
    throw new MemoryError('INVALID_ARGUMENT', `working directory ${input} is not visible inside the sandbox`, {
      data: { cwd: input },
    });
  }
  return cwd;
}

function render(backend: SandboxBackend, o: ConfineOptions, prepared: PreparedPolicy, cwd?: string): string[] {
  const { policy, absentReadonly, links, deniedFiles } = prepared;
  if (backend.name === 'bwrap') {
    return renderBwrapArgv(policy, o.command, {
      bwrapPath: backend.path,
      absentReadonly,
      links,
      deniedFiles,
      cwd,
    });
  }
  if (backend.name === 'seatbelt') return renderSeatbeltArgv(policy, o.command);
  throw unavailable(backend.reason);
}

/**
 * The policy with the host view (system-view.ts): the runtime, node, gitmem and the added read paths
 * visible read-only; secrets, gitmem homes and the CLI daemon's runtime dirs hidden; an empty home; the moved
 * paths at their place when `backend` is bwrap and the place is free, else read-only where they are.
 */
function withHostView(
  o: ConfineOptions,
  backend: string | undefined,
): { prepared: PreparedPolicy; moved: SandboxPolicy['movedRoots'] } {
  const host = hostFacts(o.env, sandboxPlatform(o.platform ?? process.platform));
  const readPaths = [...parseReadPaths(o.env[SANDBOX_READ_ENV]), ...(o.readPaths ?? [])];
  const viewed = withSystemView(o.policy, host, readPaths);
  if (!o.movedPaths?.length) return { prepared: preparePolicy(viewed), moved: [] };
  let policy = normalizePolicy(viewed);
  const stay: string[] = [];
  for (const m of o.movedPaths) {
    if (backend === 'bwrap' && canMoveTo(policy, m.inside))
      policy = { ...policy, movedRoots: [...(policy.movedRoots ?? []), m] };
    else stay.push(m.path);
  }
  return { prepared: preparePolicy(withReadPaths(policy, stay)), moved: policy.movedRoots };
}

/**
 * What {@link confineCommand} would refuse, without preparing the mounts (no link resolution, nothing
 * rendered): nesting, a bad policy, a missing re-opened root, no backend. A caller runs it before it creates
 * anything the confined run needs, so a refusal leaves nothing behind.
 * @example checkConfinable({ policy, env: process.env }) // throws SANDBOX_UNAVAILABLE without bwrap
 */
export function checkConfinable(o: Omit<ConfineOptions, 'command' | 'cwd' | 'extraEnv' | 'passEnv'>): void {
  refuseNesting(o.env);
  const host = hostFacts(o.env, sandboxPlatform(o.platform ?? process.platform));
  absentReopened(
    normalizePolicy(
      withSystemView(o.policy, host, [...parseReadPaths(o.env[SANDBOX_READ_ENV]), ...(o.readPaths ?? [])]),
    ),
  );
  const sw = fsSandboxSwitch(o.env[FS_SANDBOX_SWITCH]);
  if (!sw.enabled) return;
  const backend = o.backend ?? detectSandboxBackend({ env: o.env, platform: o.platform });
  if (backend.name === 'none') throw unavailable(backend.reason);
}

function unavailable(reason: string): MemoryError {
  return new MemoryError(
    'SANDBOX_UNAVAILABLE',
    `no kernel sandbox is available, refusing to run unconfined: ${reason}`,
    {
      data: { reason, hint: `install bubblewrap, or set ${FS_SANDBOX_SWITCH}=0 to run without confinement` },
    },
  );
}

/**
 * Wraps `command` for the best backend on this machine, or throws.
 * Errors: SANDBOX_NESTED (sentinel set), INVALID_ARGUMENT (empty command / bad policy), MEMORY_DIR_MISSING
 * (a re-opened root is absent), SANDBOX_UNAVAILABLE (no backend; never falls back to an unconfined run).
 * @example
 *   const c = confineCommand({ command: ['git', 'commit', '-m', 'x'], policy, env: process.env });
 *   spawn(c.argv[0], c.argv.slice(1), { env: c.env });
 */
export function confineCommand(o: ConfineOptions): ConfinedCommand {
  refuseNesting(o.env);
  if (!Array.isArray(o.command) || o.command.length === 0 || o.command.some((a) => typeof a !== 'string')) {
    throw new MemoryError('INVALID_ARGUMENT', 'the command to confine must be a non-empty array of strings', {
      data: {},
    });
  }
  const sw = fsSandboxSwitch(o.env[FS_SANDBOX_SWITCH]);
  const backend = sw.enabled ? (o.backend ?? detectSandboxBackend({ env: o.env, platform: o.platform })) : undefined;
  const { prepared, moved } = withHostView(o, backend?.name);
  const { policy } = prepared;
  const cwd = checkCwd(o.cwd, policy);
  const warn = o.onWarning ?? defaultWarn;
  if (sw.note) warn(sw.note);
  const extraEnv =
    typeof o.extraEnv === 'function'
      ? o.extraEnv((p) => insidePath({ ...policy, movedRoots: moved }, p))
      : (o.extraEnv ?? {});
  const env = buildConfinedEnv(o.env, { passEnv: o.passEnv ?? [], extraEnv });
  if (!backend) {
    warn(DISABLED_WARNING);
    return { argv: [...o.command], env: { ...env, [SANDBOX_SENTINEL]: 'none' }, backend: 'none' };
  }
  const argv = render(backend, o, prepared, cwd);
  const name = backend.name as 'bwrap' | 'seatbelt';
  const tmp: Record<string, string> = name === 'bwrap' && policy.privateTmp === true ? { TMPDIR: '/tmp' } : {};
  // HOME is the empty one (never the caller's); what the caller sets explicitly still wins.
  const home: Record<string, string> =
    policy.emptyHome !== undefined && extraEnv['HOME'] === undefined ? { HOME: policy.emptyHome } : {};
  return { argv, env: { ...env, ...tmp, ...home, [SANDBOX_SENTINEL]: name }, backend: name };
}
