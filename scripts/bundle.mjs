// Bundles the executables into dist/bin so a CLI call loads few files, not ~60 ES modules: start-up time
// is part of every CLI write.
//   gitmem.cjs      the entry: hands served calls to the daemon (src/cli/entry.ts); tiny on purpose
//   core.cjs        the CLI itself (src/cli/main.ts), loaded when a call runs in this process
//   pre-commit.cjs  the hook
//   merge-driver.cjs the markdown merge git's merge driver starts where its line merge conflicts
//   mirror-hook.cjs the post-commit hook's mirror push (detached, with the sync credentials)
//   esm/…           the commands src/cli/registry.ts marks `heavy` (sync, workers, dream, MCP, palace…): ES
//                   modules, code-split, imported on demand
// CommonJS because Node loads it faster than ESM. Every bundle carries a build id (a hash of the sources)
// so a CLI only ever talks to a daemon running the same code.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

function buildId() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (!e.name.endsWith('.test.ts')) hash.update(p).update('\0').update(readFileSync(p));
    }
  };
  walk('src');
  hash.update(readFileSync('package.json'));
  return hash.digest('hex').slice(0, 16);
}

// The registry as tsc just compiled it (the build runs tsc first): one list of commands, read here too.
const { COMMANDS } = await import(new URL('../dist/cli/registry.js', import.meta.url).href);
const HEAVY = Object.keys(COMMANDS).filter((name) => COMMANDS[name].heavy === true);
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  define: { __GITMEM_BUILD_ID__: JSON.stringify(buildId()) },
};
// import.meta.url has no CJS equivalent; give it the bundle's own URL.
const cjs = {
  ...common,
  format: 'cjs',
  define: { ...common.define, 'import.meta.url': '__gitmemUrl', __GITMEM_BUNDLED__: 'true' },
  banner: { js: 'const __gitmemUrl = require("node:url").pathToFileURL(__filename).href;' },
};

/** Leaves `import('./commands/<heavy>.js')` in the CJS core, pointing at the ESM build of that command. */
const heavyCommandsExternal = {
  name: 'heavy-commands-external',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^\\./commands/(${HEAVY.join('|')})\\.js$`) }, (args) => ({
      path: `./esm/cli/commands/${args.path.slice('./commands/'.length)}`,
      external: true,
    }));
  },
};

/** In the core, the search engine (memory.ts's `import('./search/search.js')`) stays in its ESM build, loaded on the first search. */
const searchExternal = {
  name: 'search-external',
  setup(b) {
    b.onResolve({ filter: /^\.\/search\/search\.js$/ }, () => ({ path: './esm/search/search.js', external: true }));
  },
};

/** In the entry, `./main.js` is the core bundle next to it. */
const coreExternal = {
  name: 'core-external',
  setup(b) {
    b.onResolve({ filter: /^\.\/main\.js$/ }, () => ({ path: './core.cjs', external: true }));
  },
};

rmSync('dist/bin', { recursive: true, force: true }); // no stale chunks from earlier builds
await build({
  ...common,
  entryPoints: [...HEAVY.map((name) => `src/cli/commands/${name}.ts`), 'src/search/search.ts'],
  outdir: 'dist/bin/esm',
  outbase: 'src',
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
});
await build({
  ...cjs,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/bin/core.cjs',
  plugins: [heavyCommandsExternal, searchExternal],
});
await build({ ...cjs, entryPoints: ['src/cli/entry.ts'], outfile: 'dist/bin/gitmem.cjs', plugins: [coreExternal] });
await build({ ...cjs, entryPoints: ['src/hooks/pre-commit-main.ts'], outfile: 'dist/bin/pre-commit.cjs' });
// The merge driver carries markdown-it (a sandboxed writer's git may run it and sees only gitmem and yaml).
const { packages: _external, ...cjsBundlingDeps } = cjs;
await build({
  ...cjsBundlingDeps,
  external: ['yaml'],
  minifyWhitespace: true,
  entryPoints: ['src/hooks/merge-driver-main.ts'],
  outfile: 'dist/bin/merge-driver.cjs',
});
await build({ ...cjs, entryPoints: ['src/sync/mirror-hook-main.ts'], outfile: 'dist/bin/mirror-hook.cjs' });
