// `npm ci` builds once: `npm test`, `npm run demo`, `npm run bench` and `prepare` build only when dist/ is
// missing or older than what the build reads (scripts/build-stamp.mjs). Checked on a small project whose
// `build` counts its runs, with this repository's stamp script, then on this package's own scripts.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { npmEnv } from '../../helpers/packed-install.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';

const REPO = resolve(import.meta.dirname, '..', '..', '..');
const STAMP_SCRIPT = 'node scripts/build-stamp.mjs';

/** A build that records each run and starts from an empty dist/ (as clean-dist does); `fail` makes it fail. */
const BUILD = `import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
appendFileSync('builds.log', 'built\\n');
rmSync('dist', { recursive: true, force: true });
if (existsSync('fail')) process.exit(3);
mkdirSync('dist');
writeFileSync('dist/index.js', 'export {};\\n');
`;

let project: string;
beforeEach(() => {
  project = makeTmpDir('gitmem-stamp-');
  mkdirSync(join(project, 'scripts'));
  mkdirSync(join(project, 'src', 'lib'), { recursive: true });
  cpSync(join(REPO, 'scripts', 'build-stamp.mjs'), join(project, 'scripts', 'build-stamp.mjs'));
  writeFileSync(join(project, 'scripts', 'build.mjs'), BUILD);
  writeFileSync(join(project, 'src', 'lib', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(project, 'src', 'lib', 'a.test.ts'), 'test\n');
  writeFileSync(join(project, 'tsconfig.json'), '{}\n');
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify(
      {
        name: 'stamped',
        private: true,
        type: 'module',
        scripts: { build: `node scripts/build.mjs && ${STAMP_SCRIPT} write`, pretest: `${STAMP_SCRIPT} ensure` },
      },
      null,
      2,
    ),
  );
});
afterAll(() => cleanupTmp());

const builds = (): number => readFileSync(join(project, 'builds.log'), 'utf8').split('\n').filter(Boolean).length;
/** `ensure` as npm runs it (from a script: npm_execpath set), so the build goes through `npm run build`. */
function ensure(): void {
  execFileSync('npm', ['run', '--silent', 'pretest'], { cwd: project, env: npmEnv(), stdio: 'pipe' });
}

describe('the build stamp', () => {
  it('builds when dist/ has no stamp, then not again while nothing the build reads changed', () => {
    ensure();
    expect(builds()).toBe(1);
    ensure();
    ensure();
    expect(builds()).toBe(1);
    expect(spawnSync(process.execPath, ['scripts/build-stamp.mjs', 'check'], { cwd: project }).status).toBe(0);
  });

  it('builds again after a source, a config or a build script changed, and after dist/ was removed', () => {
    ensure();
    appendFileSync(join(project, 'src', 'lib', 'a.ts'), 'export const b = 2;\n');
    ensure();
    expect(builds()).toBe(2);
    writeFileSync(join(project, 'src', 'lib', 'new.ts'), 'export {};\n');
    ensure();
    expect(builds()).toBe(3);
    writeFileSync(join(project, 'tsconfig.json'), '{ "compilerOptions": {} }\n');
    ensure();
    expect(builds()).toBe(4);
    appendFileSync(join(project, 'scripts', 'build-stamp.mjs'), '// changed\n');
    ensure();
    expect(builds()).toBe(5);
    rmSync(join(project, 'dist'), { recursive: true });
    ensure();
    expect(builds()).toBe(6);
  });

  it('a test file is not a build input: changing one builds nothing', () => {
    ensure();
    appendFileSync(join(project, 'src', 'lib', 'a.test.ts'), 'more\n');
    ensure();
    expect(builds()).toBe(1);
  });

  it('a failed build leaves no stamp, so the next command builds again', () => {
    ensure();
    appendFileSync(join(project, 'src', 'lib', 'a.ts'), 'export const b = 2;\n');
    writeFileSync(join(project, 'fail'), '');
    expect(() => ensure()).toThrow();
    expect(spawnSync(process.execPath, ['scripts/build-stamp.mjs', 'check'], { cwd: project }).status).toBe(1);
    rmSync(join(project, 'fail'));
    ensure();
    expect(builds()).toBe(3);
    expect(spawnSync(process.execPath, ['scripts/build-stamp.mjs', 'check'], { cwd: project }).status).toBe(0);
  });
});

describe("this package's scripts", () => {
  const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;

  it('the build ends by writing the stamp; prepare, test, demo and bench build through `ensure` only', () => {
    expect(scripts['build']).toMatch(new RegExp(`&& ${STAMP_SCRIPT} write$`));
    for (const name of ['prepare', 'test', 'demo', 'bench']) {
      expect(scripts[name], name).toMatch(new RegExp(`^${STAMP_SCRIPT} ensure\\b`));
      expect(scripts[name], name).not.toContain('npm run build');
    }
  });
});
