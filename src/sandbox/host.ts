/**
 * Gathers the host facts a sandbox view is built from (system-view.ts): where node and gitmem are, the
 * user's homes, the gitmem homes and runtime directories the environment names.
 */
import { createRequire } from 'node:module';
import { userInfo } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { packageRoot } from '../assets.js';
import { gitmemRuntimeDirCandidates, RUNTIME_DIR_VARIABLES } from '../process/runtime-dir.js';
import { launcherScratchDirs } from '../process/shell-launcher.js';
import type { HostFacts } from './system-view.js';
import type { SandboxPlatform } from './system-roots.js';

/** Packages the pre-commit hook loads at run time (the bundle keeps dependencies external). */
const HOOK_PACKAGES = ['yaml'];

const packageDirsCache = new Map<string, string[]>();

/** Where the hook's packages are installed: fixed for the life of the process, so looked up once per root. */
function packageDirs(root: string): string[] {
  const hit = packageDirsCache.get(root);
  if (hit !== undefined) return hit;
  const found = lookUpPackageDirs(root);
  packageDirsCache.set(root, found);
  return found;
}

function lookUpPackageDirs(root: string): string[] {
  const req = createRequire(join(root, 'package.json'));
  const out: string[] = [];
  for (const name of HOOK_PACKAGES) {
    try {
      out.push(dirname(req.resolve(`${name}/package.json`)));
    } catch {
      // not installed: the hook reports it when it needs it
    }
  }
  return out;
}

function absolutePaths(values: Array<string | undefined>): string[] {
  return [
    ...new Set(
      values
        .map((v) => v?.trim())
        .filter((v): v is string => !!v && isAbsolute(v))
        .map((v) => resolve(v)),
    ),
  ];
}

let passwdHomeCache: { home: string | undefined } | undefined;

/** The user's home from the password database (asked once per process: an NSS lookup per launch adds up). */
function passwdHome(): string | undefined {
  if (passwdHomeCache !== undefined) return passwdHomeCache.home;
  let home: string | undefined;
  try {
    home = userInfo().homedir;
  } catch {
    home = undefined;
  }
  passwdHomeCache = { home };
  return home;
}

/**
 * What `{ ...process.env, ...env }` says about the runtime directory, without copying the whole process
 * environment at every launch: `env`'s own entries win, an entry set to undefined included.
 */
function runtimeDirEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of RUNTIME_DIR_VARIABLES) out[name] = Object.hasOwn(env, name) ? env[name] : process.env[name];
  return out;
}

/**
 * The facts for `env` on `platform`.
 * @example hostFacts(process.env, 'linux').runtimeRoots // ['/opt/gitmem', '/usr', ...]
 */
export function hostFacts(env: Record<string, string | undefined>, platform: SandboxPlatform): HostFacts {
  const root = packageRoot();
  const userHomes = absolutePaths([env['HOME'], passwdHome()]);
  return {
    platform,
    runtimeRoots: [root, dirname(dirname(process.execPath)), ...packageDirs(root)],
    userHomes,
    gitmemHomes: absolutePaths([env['GITMEM_HOME'], ...userHomes.map((h) => join(h, '.gitmem'))]),
    // and this process's own (its launchers' scratch too: their FIFOs would take a write through a read-only mount)
    runtimeDirs: [
      ...new Set([
        ...gitmemRuntimeDirCandidates(runtimeDirEnv(env)),
        ...gitmemRuntimeDirCandidates(process.env),
        ...launcherScratchDirs(),
      ]),
    ],
  };
}

/**
 * The sandbox platform table a host uses (macOS: Seatbelt; anything else is rendered for bwrap).
 * @example sandboxPlatform('darwin') // 'darwin'
 */
export function sandboxPlatform(platform: NodeJS.Platform): SandboxPlatform {
  return platform === 'darwin' ? 'darwin' : 'linux';
}
