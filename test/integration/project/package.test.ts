// What a user installs: the packed tarball ships the built code, README and LICENSE and nothing else (no
// tests, fixtures, sources or source maps), stays within a size budget, declares only dependencies the code
// imports and a Node version that has every API it calls; installed into an empty project, `npx gitmem init`
// and a memory write work, and so does the library import.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installTarball, npmEnv, packDryRun, packTarball } from '../../helpers/packed-install.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const REPO = resolve(import.meta.dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  engines: { node: string };
  files: string[];
  scripts: Record<string, string>;
  repository?: { type: string; url: string };
  homepage: string;
  bugs?: { url: string };
};

/** The GitHub repository `repository` names: https://github.com/<owner>/<name>. */
const GITHUB = /^git\+(https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?))\.git$/.exec(pkg.repository?.url ?? '');

/** Every link and image target of the README outside code (inline `](…)`, reference `[x]: …`, `<img src>`). */
function readmeTargets(): string[] {
  const text = readFileSync(join(REPO, 'README.md'), 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)/g)],
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)],
    ...[...text.matchAll(/<img[^>]*\ssrc=["']([^"']+)/g)],
  ].map((m) => m[1] as string);
}

/**
 * Budgets: ~0.7 MB packed / ~2.4 MB unpacked once the read side and search landed; the merge driver (a 240 kB
 * bundle carrying markdown-it, so a confined writer's git can run it) and the Memory Palace (its page bundle is
 * 176 KB minified, 70 KB gzipped: markdown-it with its entity tables ~100 KB, DOMPurify 32 KB, Preact 14 KB; its
 * server ships as library code and in the CLI's chunk) took it to ~1.0 / ~3.2 MB; the front door's
 * internals entry, the harness adapters, conflict resolution and `doctor` to ~1.22 / ~3.9 MB (the CLI's core bundle alone is 660 KB); the
 * work-tree watcher of the clean check (memfs/fsmonitor, also in the CLI's bundles) to ~4.2 MB unpacked; the
 * incremental tree/prompt models, the hook's fast path (daemon socket, writer channel, perl client), the in-process
 * pack of a writer's objects and the durable write's staging to ~1.36 / ~4.43 MB (the CLI's core bundle 827 KB); the
 * sandbox's /etc view, the direct import of a writer's objects (strict object readers) and its hook's in-process
 * staged diff (an index reader) to ~1.44 / ~4.70 MB; gitmem connect / disconnect / config and the harness hooks
 * (src/harness: settings edits that keep the user's bytes, in dist/harness and again in the CLI's bundle) to
 * ~1.58 / ~5.15 MB; removing the writer's in-process pack and direct import, then adding the index layout, Claude
 * Code's auto memory, defrag, reflection over several conversations, settings by key, skill roots, the agent's
 * own shell, writer refs with the integrator, partial and scoped clones and shared repositories to ~1.71 /
 * ~5.68 MB; the lease integrator, shared-repository patches, credentials for partial clones, the index layout's
 * session context and migration checks, and the catalogue-generated CLI verbs, less the index-aside write, to
 * ~1.78 / ~5.92 MB. The budgets are that plus a margin. A jump past them is worth a look.
 */
const MAX_PACKED = 1_820_000;
const MAX_UNPACKED = 6_050_000;

/**
 * The page's libraries: bundled into dist/palace/assets at build time, so never runtime dependencies. markdown-it
 * is bundled into the page too, but it is a runtime dependency anyway (the markdown merge parses with it).
 */
const PAGE_LIBRARIES = ['preact', 'htm', 'dompurify'];
const PAGE_BUNDLED = [...PAGE_LIBRARIES, 'markdown-it'];

/** Node APIs newer than 20.0 that the sources may call, with the release that added them. */
const LATE_APIS: Array<{ pattern: RegExp; since: [number, number]; name: string }> = [
  { pattern: /process\.getBuiltinModule\(/, since: [20, 16], name: 'process.getBuiltinModule' },
  { pattern: /AbortSignal\.any\(/, since: [20, 3], name: 'AbortSignal.any' },
  { pattern: /\bstyleText\(/, since: [20, 12], name: 'util.styleText' },
  { pattern: /readdir(?:Sync)?\([^)]*recursive:/, since: [20, 1], name: 'fs.readdir recursive' },
  { pattern: /\bglobSync\(|\bfs\.glob\(/, since: [22, 0], name: 'fs.glob' },
  { pattern: /Promise\.withResolvers\(/, since: [22, 0], name: 'Promise.withResolvers' },
  { pattern: /\b(?:Object|Map)\.groupBy\(/, since: [21, 0], name: 'Object.groupBy' },
  { pattern: /Array\.fromAsync\(/, since: [22, 0], name: 'Array.fromAsync' },
];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const sources = sourceFiles(join(REPO, 'src')).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

describe('the published package', () => {
  it('ships dist, README, LICENSE and package.json only: no tests, fixtures, sources or maps', () => {
    const { files, size, unpackedSize } = packDryRun();
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'dist/index.js',
        'dist/bin/gitmem.cjs',
        'dist/bin/pre-commit.cjs',
      ]),
    );
    const stray = paths.filter((p) => !(p.startsWith('dist/') || ['LICENSE', 'README.md', 'package.json'].includes(p)));
    expect(stray).toEqual([]);
    expect(
      paths.filter(
        (p) =>
          /\.test\.|(^|\/)(test|tests|fixtures|__tests__)\//.test(p) ||
          p.endsWith('.map') ||
          (/\.ts$/.test(p) && !p.endsWith('.d.ts')),
      ),
    ).toEqual([]);
    expect(size).toBeLessThan(MAX_PACKED);
    expect(unpackedSize).toBeLessThan(MAX_UNPACKED);
  });

  it("ships the Memory Palace page built (script, style, the bundled libraries' licences); its libraries are dev dependencies only", () => {
    const paths = packDryRun().files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'dist/palace/assets/palace.js',
        'dist/palace/assets/palace.css',
        'dist/palace/assets/LICENSES.txt',
      ]),
    );
    const dev = pkg.devDependencies;
    for (const lib of PAGE_LIBRARIES) {
      expect(Object.keys(pkg.dependencies), lib).not.toContain(lib);
      expect(Object.keys(dev), lib).toContain(lib);
    }
    expect(Object.keys(pkg.dependencies)).not.toContain('playwright-core');
    const licences = readFileSync(join(REPO, 'dist', 'palace', 'assets', 'LICENSES.txt'), 'utf8');
    for (const lib of PAGE_BUNDLED) expect(licences, lib).toMatch(new RegExp(`^${lib}\n-+\n`, 'm'));
  });

  it('is MIT licensed with a LICENSE file naming the authors', () => {
    const text = readFileSync(join(REPO, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^MIT License/);
    expect(text).toContain('Copyright (c) 2026 the gitmem authors');
  });

  it('names its repository, homepage and issue tracker: one GitHub repository', () => {
    expect(pkg.repository?.type).toBe('git');
    expect(GITHUB, pkg.repository?.url).not.toBeNull();
    expect(pkg.homepage).toBe(`${GITHUB?.[1]}#readme`);
    expect(pkg.bugs?.url).toBe(`${GITHUB?.[1]}/issues`);
  });

  it('the README works on the registry page: no relative link or image; those into the repository name files it has', () => {
    const targets = readmeTargets();
    expect(targets.filter((t) => !/^(https?:|mailto:|#)/.test(t))).toEqual([]);
    const [base, owner, name] = [GITHUB?.[1], GITHUB?.[2], GITHUB?.[3]];
    const intoRepo = new RegExp(
      `^(?:${base}/blob/main/|https://raw\\.githubusercontent\\.com/${owner}/${name}/main/)([^#?]+)`,
    );
    const files = targets.map((t) => intoRepo.exec(t)?.[1]).filter((f): f is string => f !== undefined);
    expect(files).toEqual(expect.arrayContaining(['docs/palace.png', 'ARCHITECTURE.md']));
    for (const file of files) expect(existsSync(join(REPO, file)), file).toBe(true);
  });

  it("ai is a required peer (one copy with the harness's) whose range holds the dev copy the suite checks; what gitmem builds itself has caret ranges", () => {
    expect(Object.keys(pkg.dependencies)).not.toContain('ai');
    const floor = /^\^6\.0\.(\d+)$/.exec(pkg.peerDependencies['ai'] ?? '');
    expect(floor, pkg.peerDependencies['ai']).not.toBeNull();
    expect(pkg.peerDependenciesMeta['ai']?.optional).not.toBe(true); // npm installs it for `npm i -g gitmem`
    const dev = /^6\.0\.(\d+)$/.exec(pkg.devDependencies['ai'] ?? '');
    expect(Number(dev?.[1])).toBeGreaterThanOrEqual(Number(floor?.[1]));
    for (const dep of [
      '@ai-sdk/anthropic',
      '@ai-sdk/openai',
      '@ai-sdk/openai-compatible',
      '@modelcontextprotocol/sdk',
      'zod',
    ]) {
      expect(pkg.dependencies[dep], dep).toMatch(/^\^\d+\.\d+\.\d+$/);
    }
    expect(pkg.peerDependenciesMeta['@anthropic-ai/sdk']?.optional).toBe(true);
    expect(pkg.devDependencies['@anthropic-ai/sdk']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('a registry install runs none of its scripts, and the build stamp is not shipped', () => {
    for (const hook of ['preinstall', 'install', 'postinstall']) expect(pkg.scripts[hook], hook).toBeUndefined();
    expect(packDryRun().files.map((f) => f.path)).not.toContain('dist/.build-stamp');
  });

  it('declares only dependencies the code imports', () => {
    const unused = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].filter(
      (dep) =>
        !sources.some(({ text }) =>
          [`from '${dep}'`, `from '${dep}/`, `('${dep}')`, `('${dep}/`].some((form) => text.includes(form)),
        ),
    );
    expect(unused).toEqual([]);
  });

  it('engines names a Node that has every late API the sources call', () => {
    const floor = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(pkg.engines.node);
    expect(floor, pkg.engines.node).not.toBeNull();
    const [major, minor] = [Number(floor?.[1]), Number(floor?.[2])];
    for (const api of LATE_APIS) {
      const user = sources.find(({ text }) => api.pattern.test(text));
      if (!user) continue;
      const ok = major > api.since[0] || (major === api.since[0] && minor >= api.since[1]);
      expect(
        ok,
        `${api.name} (Node ${api.since.join('.')}) is used in ${user.file} but engines says ${pkg.engines.node}`,
      ).toBe(true);
    }
  });
});

describe('installed from the tarball into an empty project', () => {
  let project: string;
  let env: Record<string, string>;
  beforeAll(() => {
    const root = makeTmpDir('gitmem-pack-');
    project = join(root, 'project');
    // better-sqlite3 gets this checkout's native build rather than compiling SQLite again (minutes, offline).
    installTarball(packTarball(join(root, 'tarball')), project, { nativeFromCheckout: true });
    env = { ...hermeticGitEnv(root), ...npmEnv({ HOME: root }), GITMEM_HOME: join(root, 'home'), GITMEM_DAEMON: '0' };
  }, 60_000);
  afterAll(() => cleanupTmp());

  const npx = (args: string[]) =>
    spawnSync('npx', ['--no', '--', 'gitmem', ...args], { cwd: project, env, encoding: 'utf8' });

  it('npx gitmem init and a memory write work', () => {
    const init = npx(['init', '--agent', 'ada']);
    expect(init.status, init.stderr).toBe(0);
    const write = npx([
      'memory',
      'create',
      'notes/tea.md',
      '--description',
      'Drinks',
      '--text',
      'green tea\n',
      '--reason',
      'Ada likes green tea',
      '--agent',
      'ada',
    ]);
    expect(write.status, write.stderr).toBe(0);
    const memoryDir = join(env['GITMEM_HOME'] as string, 'agents', 'ada', 'memory');
    expect(git(memoryDir, ['log', '-1', '--format=%s'], env)).toBe('Ada likes green tea');
    expect(readFileSync(join(memoryDir, '.git', 'hooks', 'pre-commit'), 'utf8')).toContain(
      join(project, 'node_modules', 'gitmem', 'dist', 'bin', 'pre-commit.cjs'),
    );
  });

  it('gitmem palace --export works from the installed package: the page needs none of its dev dependencies', () => {
    const out = join(project, 'palace.html');
    const r = npx(['palace', '--export', out, '--agent', 'ada']);
    expect(r.status, r.stderr).toBe(0);
    for (const lib of [...PAGE_LIBRARIES, 'playwright-core'])
      expect(existsSync(join(project, 'node_modules', lib)), lib).toBe(false);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('notes/tea.md');
    expect(html).toMatch(/<script type="module">.{10000,}<\/script>/s);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it('installing gitmem alone brings ai, its required peer, for reflection and the CLI: one copy, where gitmem finds it', () => {
    expect(existsSync(join(project, 'node_modules', 'ai', 'package.json'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'gitmem', 'node_modules', 'ai'))).toBe(false);
    const script = "import('ai').then((m) => console.log(typeof m.generateText))";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: join(project, 'node_modules', 'gitmem', 'dist'),
      env,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('function');
  });

  it('the harness subpaths load from the installed package, gitmem/anthropic without the Anthropic SDK installed', () => {
    expect(existsSync(join(project, 'node_modules', '@anthropic-ai', 'sdk'))).toBe(false); // an optional peer: not installed
    const script =
      "Promise.all([import('gitmem/anthropic'), import('gitmem/ai-sdk')]).then(([a, s]) => console.log(typeof a.createAnthropicMemoryHandlers, typeof s.withMemory, typeof s.memoryTools))";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      env,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('function function function');
  });

  it('the library import works from the installed package', () => {
    const script =
      "import('gitmem').then(async (g) => { const m = await g.createMemory({ agentId: 'ada' }); console.log((await m.log({ limit: 1 }))[0].reason); })";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      env,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('Ada likes green tea');
  });

  it('the gitmem/mcp subpath imports from the installed package', () => {
    const script =
      "import('gitmem/mcp').then((m) => console.log(typeof m.createMcpServer, typeof m.startMcpHttpServer))";
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      env,
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('function function');
  });
});
