import { build } from 'esbuild';
await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: '/tmp/cjsb/main.cjs',
  bundle: true, format: 'cjs', platform: 'node', target: 'node20', packages: 'external',
  define: { 'import.meta.url': '__gitmemImportMetaUrl' },
  banner: { js: 'const __gitmemImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});
