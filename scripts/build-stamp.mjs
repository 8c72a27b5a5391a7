// The build stamp: a hash of everything `npm run build` reads, written into dist/ as the build's last step, so
// `npm test`, `npm run demo`, `npm run bench` and `prepare` build only when dist/ is missing or older than its
// inputs. `npm ci` builds once (through prepare) and the commands after it reuse that dist/.
//   node scripts/build-stamp.mjs write            the build's last step: records the inputs' hash
//   node scripts/build-stamp.mjs check            exit 0 if dist/ is up to date, 1 if not
//   node scripts/build-stamp.mjs ensure [--silent] runs `npm run build` unless dist/ is up to date
// Paths are relative to the working directory (npm runs scripts from the package root).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = join('dist', '.build-stamp');

/**
 * What the build reads: the sources (tests are not built), the package and lock files (bundled libraries,
 * the build id), the compiler configurations and the build scripts themselves.
 */
const INPUT_DIRS = ['src'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const BUILD_SCRIPTS = ['clean-dist.mjs', 'copy-assets.mjs', 'bundle.mjs', 'bundle-palace.mjs', 'build-stamp.mjs'];

function walk(dir, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (!e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** Hash of the build's inputs: each path and its bytes, in a fixed order; a missing file counts as missing. */
function inputsHash() {
  const files = [
    ...INPUT_DIRS.flatMap((d) => (existsSync(d) ? walk(d, []) : [])),
    ...INPUT_FILES,
    ...BUILD_SCRIPTS.map((s) => join('scripts', s)),
  ];
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    hash.update(file).update('\0');
    hash.update(existsSync(file) ? readFileSync(file) : '\0missing\0').update('\0');
  }
  return hash.digest('hex');
}

function upToDate() {
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === inputsHash();
}

function main([command, ...flags]) {
  const silent = flags.includes('--silent');
  if (command === 'write') {
    writeFileSync(STAMP, `${inputsHash()}\n`);
    return 0;
  }
  if (command === 'check') return upToDate() ? 0 : 1;
  if (command === 'ensure') {
    if (upToDate()) {
      if (!silent) process.stderr.write('dist/ is up to date with the sources (dist/.build-stamp): no build\n');
      return 0;
    }
    // The npm that runs this script (npm_execpath), else the one on PATH.
    const npmCli = /npm-cli\.js$/.test(process.env['npm_execpath'] ?? '') ? process.env['npm_execpath'] : undefined;
    const args = ['run', 'build', ...(silent ? ['--silent'] : [])];
    const r = npmCli
      ? spawnSync(process.execPath, [npmCli, ...args], { stdio: 'inherit' })
      : spawnSync('npm', args, { stdio: 'inherit' });
    return r.status ?? 1;
  }
  process.stderr.write('usage: node scripts/build-stamp.mjs write | check | ensure [--silent]\n');
  return 2;
}

process.exitCode = main(process.argv.slice(2));
