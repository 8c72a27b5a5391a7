// Bundles the executables into dist/bin so a CLI call loads one file, not ~60 ES modules: start-up time is
// part of every CLI write. The core commands and the hook are CommonJS (Node loads CJS faster than ESM);
// heavy commands (sync, workers, dream, MCP) stay ES modules, code-split, imported only when invoked.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const HEAVY = ['remote', 'clone', 'sync', 'mirror', 'conflicts', 'worker', 'dream', 'mcp'];
const common = { bundle: true, platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning' };
// import.meta.url has no CJS equivalent; give it the bundle's own URL.
const cjs = {
  ...common,
  format: 'cjs',
  define: { 'import.meta.url': '__gitmemUrl' },
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

rmSync('dist/bin', { recursive: true, force: true }); // no stale chunks from earlier builds
await build({
  ...common,
  entryPoints: HEAVY.map((name) => `src/cli/commands/${name}.ts`),
  outdir: 'dist/bin/esm',
  outbase: 'src',
  splitting: true,
  format: 'esm',
  chunkNames: 'chunks/[name]-[hash]',
});
await build({ ...cjs, entryPoints: ['src/cli/main.ts'], outfile: 'dist/bin/gitmem.cjs', plugins: [heavyCommandsExternal] });
await build({ ...cjs, entryPoints: ['src/hooks/pre-commit-main.ts'], outfile: 'dist/bin/pre-commit.cjs' });
