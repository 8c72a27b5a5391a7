/**
 * Real installs of the built package for tests: `npm pack` of this checkout (dist must be built), then an
 * install of the tarball into a fresh project, offline. `npm install <tarball> --offline` would need the
 * registry's package documents, which the npm cache does not hold after an `npm ci`; a lockfile naming the
 * tarball plus this repository's locked production dependencies lets `npm ci --offline` resolve every
 * package from the cache by integrity instead. The dependencies are exactly the tarball's own `dependencies`
 * (dev-only packages are left out), so a missing or misplaced dependency still fails the install.
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
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, env: npmEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [info] = JSON.parse(out) as Array<{ size: number; unpackedSize: number; files: Array<{ path: string; size: number }> }>;
  if (!info) throw new Error('npm pack --dry-run printed nothing');
  return info;
}

/** Packs the built checkout into `dir`; returns the tarball's path. */
export function packTarball(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: REPO, env: npmEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [info] = JSON.parse(out) as Array<{ filename: string }>;
  if (!info) throw new Error('npm pack printed nothing');
  return join(dir, info.filename);
}

/** Installs `tarball` into a new project at `projectDir` with `npm ci --offline`. */
export function installTarball(tarball: string, projectDir: string): void {
  mkdirSync(projectDir, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { gitmem: spec } },
    'node_modules/gitmem': { version: pkg['version'], resolved: spec, license: pkg['license'], dependencies: pkg['dependencies'], bin: pkg['bin'], engines: pkg['engines'] },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && entry.dev !== true) packages[path] = entry;
  writeFileSync(join(projectDir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, dependencies: { gitmem: spec } }, null, 2));
  writeFileSync(join(projectDir, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2));
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: projectDir, env: npmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A second install at another path (a copy of an installed project: same files, different absolute paths). */
export function copyInstall(projectDir: string, to: string): void {
  cpSync(projectDir, to, { recursive: true, verbatimSymlinks: true });
}
