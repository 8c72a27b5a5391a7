/**
 * Real installs of the built package for tests: `npm pack` of this checkout (dist must be built), then an
 * install of the tarball into a fresh project, offline. `npm install <tarball> --offline` would need the
 * registry's package documents, which the npm cache does not hold after an `npm ci`; a lockfile naming the
 * tarball plus the entries of this repository's lockfile that it reaches lets `npm ci --offline` resolve every
 * package from the cache by integrity instead. What it reaches is walked from the tarball's own
 * `dependencies`, `optionalDependencies` and required `peerDependencies` (plus what the consumer asks for
 * itself), so a missing or misplaced dependency still fails the install.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..', '..');

/** The user's npm cache (tests give children a temp HOME, which would hide it). */
const NPM_CACHE = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();

/** Environment for npm children: the real cache, no audit/fund/update chatter, nothing from vitest. */
export function npmEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? '/root',
    npm_config_cache: NPM_CACHE,
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    NODE_OPTIONS: '',
    ...extra,
  };
}

/** `npm pack --dry-run --json` of the checkout: the files and sizes a publish would ship. */
export function packDryRun(): { size: number; unpackedSize: number; files: Array<{ path: string; size: number }> } {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: REPO,
    env: npmEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [info] = JSON.parse(out) as Array<{
    size: number;
    unpackedSize: number;
    files: Array<{ path: string; size: number }>;
  }>;
  if (!info) throw new Error('npm pack --dry-run printed nothing');
  return info;
}

/** Packs the built checkout into `dir`; returns the tarball's path. */
export function packTarball(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
    cwd: REPO,
    env: npmEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [info] = JSON.parse(out) as Array<{ filename: string }>;
  if (!info) throw new Error('npm pack printed nothing');
  return join(dir, info.filename);
}

interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** The versions this repository's lockfile installs, by package name (the top-level copy). */
export function lockedVersion(name: string): string {
  const lock = readJson<{ packages: Record<string, LockEntry> }>(join(REPO, 'package-lock.json'));
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`package-lock.json has no ${name}`);
  return version;
}

/** Where Node finds `name` from the package at lock path `from`: its own node_modules, then each parent's. */
function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
  }
}

/** What a package needs installed: its dependencies, the optional ones the lockfile holds, its required peers. */
function edges(entry: LockEntry): Array<{ name: string; optional: boolean }> {
  const peers = Object.keys(entry.peerDependencies ?? {}).filter(
    (n) => entry.peerDependenciesMeta?.[n]?.optional !== true,
  );
  return [
    ...Object.keys(entry.dependencies ?? {}).map((name) => ({ name, optional: false })),
    ...peers.map((name) => ({ name, optional: false })),
    ...Object.keys(entry.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
  ];
}

/**
 * The lockfile entries a consumer needs for `roots` (packages at the root) plus everything they reach,
 * resolved the way Node resolves them in this repository's layout, which the consumer reuses.
 */
function closure(
  packages: Record<string, LockEntry>,
  roots: Array<{ from: string; name: string; optional?: boolean }>,
): Record<string, LockEntry> {
  const out: Record<string, LockEntry> = {};
  const queue = [...roots];
  for (let edge = queue.shift(); edge; edge = queue.shift()) {
    const path = resolveIn(packages, edge.from, edge.name);
    if (!path) {
      if (edge.optional) continue; // e.g. a platform package this machine never installed
      throw new Error(`package-lock.json cannot resolve ${edge.name} from ${edge.from || 'the root'}`);
    }
    if (out[path]) continue;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = packages[path] as LockEntry;
    out[path] = entry;
    for (const e of edges(entry)) queue.push({ from: path, name: e.name, optional: e.optional });
  }
  return out;
}

/** `version` satisfies `range` (`x.y.z`, `^x.y.z`, or alternatives joined by `||`: the forms package.json uses). */
function satisfies(version: string, range: string): boolean {
  const parse = (v: string): number[] => v.split('.').map(Number);
  return range.split('||').some((alt) => {
    const r = alt.trim();
    if (/^\d+\.\d+\.\d+$/.test(r)) return r === version;
    const m = /^\^(\d+\.\d+\.\d+)$/.exec(r);
    if (!m?.[1]) throw new Error(`packed-install: cannot read the range ${range}`);
    const [want, have] = [parse(m[1]), parse(version)];
    if (want[0] !== have[0]) return false;
    for (let i = 1; i < 3; i++) if ((have[i] ?? 0) !== (want[i] ?? 0)) return (have[i] ?? 0) > (want[i] ?? 0);
    return true;
  });
}

/** Options of {@link installTarball}. */
export interface InstallOptions {
  /**
   * Packages the consumer depends on itself, as a harness does (`ai`, `@anthropic-ai/sdk`, `typescript`, …),
   * at the versions this repository's lockfile holds. gitmem's peers resolve to these copies.
   */
  with?: string[];
  /**
   * Run no install script, then give better-sqlite3 (the one package here that has one) this checkout's own
   * native build: offline it has no prebuilt binary and compiles SQLite, minutes on two cores. Same version,
   * same Node, so the same binary.
   */
  nativeFromCheckout?: boolean;
}

/**
 * Installs `tarball` into a new project at `projectDir` with `npm ci --offline`: what `npm install gitmem`
 * gives (its dependencies and its required peers, not its optional ones), plus `options.with`.
 */
export function installTarball(tarball: string, projectDir: string, options: InstallOptions = {}): void {
  mkdirSync(projectDir, { recursive: true });
  const pkg = readJson<Record<string, unknown> & LockEntry>(join(REPO, 'package.json'));
  const lock = readJson<{ packages: Record<string, LockEntry> }>(join(REPO, 'package-lock.json'));
  const spec = `file:${tarball}`;
  const own = Object.fromEntries((options.with ?? []).map((name) => [name, lockedVersion(name)]));
  const dependencies = { gitmem: spec, ...own };
  const gitmem = {
    version: pkg['version'],
    resolved: spec,
    license: pkg['license'],
    bin: pkg['bin'],
    engines: pkg['engines'],
    dependencies: pkg.dependencies,
    optionalDependencies: pkg.optionalDependencies,
    peerDependencies: pkg.peerDependencies,
    peerDependenciesMeta: pkg.peerDependenciesMeta,
  };
  // A range the consumer's copy does not meet would give gitmem a second copy: this lockfile cannot say which.
  for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.peerDependencies })) {
    const have = lock.packages[`node_modules/${name}`]?.version;
    if (have && !satisfies(have, range))
      throw new Error(`gitmem wants ${name}@${range}; the lockfile installs ${have}`);
  }
  const roots = [
    ...Object.keys(own),
    ...edges(gitmem)
      .filter((e) => !e.optional)
      .map((e) => e.name),
  ].map((name) => ({ from: '', name }));
  const optional = Object.keys(pkg.optionalDependencies ?? {}).map((name) => ({ from: '', name, optional: true }));
  const packages = {
    '': { name: 'consumer', dependencies },
    'node_modules/gitmem': gitmem,
    ...closure(lock.packages, [...roots, ...optional]),
  };
  writeFileSync(
    join(projectDir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2),
  );
  writeFileSync(
    join(projectDir, 'package-lock.json'),
    JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2),
  );
  const quick = options.nativeFromCheckout ? ['--ignore-scripts'] : [];
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error', ...quick], {
    cwd: projectDir,
    env: npmEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (options.nativeFromCheckout) {
    const release = join('node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(join(projectDir, release), { recursive: true });
    cpSync(join(REPO, release, 'better_sqlite3.node'), join(projectDir, release, 'better_sqlite3.node'));
  }
}

/** A second install at another path (a copy of an installed project: same files, different absolute paths). */
export function copyInstall(projectDir: string, to: string): void {
  cpSync(projectDir, to, { recursive: true, verbatimSymlinks: true });
}
