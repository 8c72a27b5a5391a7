// The library's front door: `gitmem` exports a curated surface, each name documented with an example;
// the building blocks live behind `gitmem/internals`; importing `gitmem` (and opening a memory, writing,
// reading the prompt) loads none of the model or MCP SDKs, which only the features that need them pull in.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemory, initMemory } from '../../../src/memory.js';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const REPO = resolve(import.meta.dirname, '..', '..', '..');
const HEAVY = /\/node_modules\/(ai|@ai-sdk\/[^/]+|@modelcontextprotocol\/[^/]+)\//;

afterAll(() => cleanupTmp());

/** Runs `body` (an ES module's text) in a fresh Node with a resolve hook recording every module it loads. */
function loadedModules(body: string, env: Record<string, string>): string[] {
  const dir = makeTmpDir('gitmem-loads-');
  const log = join(dir, 'loaded.txt');
  writeFileSync(log, '');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';\n` +
      `export async function resolve(spec, ctx, next) { const r = await next(spec, ctx); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const script = join(dir, 'script.mjs');
  writeFileSync(script, body);
  execFileSync(process.execPath, ['--import', pathToFileURL(register).href, script], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe('the front door', () => {
  it('importing gitmem, opening a memory, writing and compiling the prompt load no model or MCP SDK', () => {
    const home = makeTmpDir('gitmem-home-');
    const env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
    const index = pathToFileURL(join(REPO, 'dist', 'index.js')).href;
    const loaded = loadedModules(
      `const g = await import(${JSON.stringify(index)});\n` +
        `await g.initMemory({ agentId: 'ada' });\n` +
        `const m = await g.createMemory({ agentId: 'ada' });\n` +
        `await m.tool({ command: 'create', file_path: 'notes/tea.md', description: 'Drinks', file_text: 'green tea\\n', reason: 'likes tea' });\n` +
        `await m.compilePrompt(); await m.tree(); await m.log(); await m.status();\n`,
      env,
    );
    expect(loaded.some((u) => u.endsWith('/dist/index.js'))).toBe(true);
    expect(loaded.filter((u) => HEAVY.test(u))).toEqual([]);
  });

  it('gitmem/internals resolves through the package exports and holds the building blocks', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      exports: Record<string, { import: string; types: string }>;
    };
    expect(pkg.exports['./internals']).toEqual({ types: './dist/internals.d.ts', import: './dist/internals.js' });
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const i = await import('gitmem/internals'); console.log(typeof i.createGitRunner, typeof i.validateChanges)",
      ],
      {
        cwd: REPO,
        encoding: 'utf8',
      },
    );
    expect(out.trim()).toBe('function function');
  });

  it('gitmem/internals holds what the project itself uses: at most 100 names at run time', async () => {
    const names = Object.keys(await import(join(REPO, 'dist', 'internals.js')));
    console.info(`[front-door] gitmem/internals: ${names.length} names at run time`);
    expect(names.length).toBeLessThanOrEqual(100);
  });

  it('exports a curated surface of 40 to 60 names, each with a doc comment, every function and class with an example', () => {
    const program = ts.createProgram([join(REPO, 'src', 'index.ts')], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
    });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(join(REPO, 'src', 'index.ts')) as ts.SourceFile;
    const moduleSymbol = checker.getSymbolAtLocation(source) as ts.Symbol;
    const missing: string[] = [];
    const exports = checker.getExportsOfModule(moduleSymbol);
    for (const exported of exports) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const docs = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      const callable = (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class)) !== 0;
      const example = symbol.getJsDocTags(checker).some((t) => t.name === 'example');
      if (!docs) missing.push(`${exported.name}: no doc comment`);
      else if (callable && !example) missing.push(`${exported.name}: no @example`);
    }
    expect(missing).toEqual([]);
    expect(exports.length).toBeGreaterThanOrEqual(40);
    expect(exports.length).toBeLessThanOrEqual(60);
  });

  it.runIf(process.platform === 'linux')(
    'a handle opened with the defaults starts git from a resident shell, never as a fork of the caller',
    async () => {
      const home = makeTmpDir('gitmem-home-');
      const bin = join(home, 'bin');
      mkdirSync(bin);
      const log = join(home, 'parents.txt');
      const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
      // A git on PATH that records which process started it, then is the real git.
      writeFileSync(
        join(bin, 'git'),
        `#!/bin/sh\necho "$PPID" >> ${JSON.stringify(log)}\nexec ${JSON.stringify(realGit)} "$@"\n`,
      );
      chmodSync(join(bin, 'git'), 0o755);
      const base = hermeticGitEnv(home);
      const env = { ...base, PATH: `${bin}:${base['PATH'] ?? process.env['PATH'] ?? ''}` };
      await initMemory({ home, agentId: 'ada', env });
      const memory = await createMemory({ home, agentId: 'ada', env });
      await memory.tool({
        command: 'create',
        file_path: 'notes/tea.md',
        description: 'Drinks',
        file_text: 'green tea\n',
        reason: 'likes tea',
      });
      await memory.log();
      const parents = readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number);
      expect(parents.length).toBeGreaterThan(0);
      expect(parents.filter((pid) => pid === process.pid)).toEqual([]);
    },
  );

  it('the README library example runs as written (against the built package, in a temp home)', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Library\n'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(code).toContain("from 'gitmem'");
    const home = makeTmpDir('gitmem-home-');
    const runnable = code
      .replaceAll("'gitmem'", JSON.stringify(pathToFileURL(join(REPO, 'dist', 'index.js')).href))
      .replaceAll("'/tmp/gm'", JSON.stringify(home));
    const script = join(home, 'example.mjs');
    writeFileSync(script, runnable);
    const out = execFileSync(process.execPath, [script], { cwd: home, env: hermeticGitEnv(home), encoding: 'utf8' });
    expect(out.trim()).toBe('system/human/preferences.md no_remote true');
  });
});
