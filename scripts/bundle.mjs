// Bundles the CLI and the pre-commit hook entry into dist/bin (code-split, dependencies external), so a
// CLI call loads a few files instead of ~60 modules: start-up time is part of every CLI write.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/bin', { recursive: true, force: true }); // no stale chunks from earlier builds
await build({
  entryPoints: ['src/cli/main.ts', 'src/hooks/pre-commit-main.ts'],
  outdir: 'dist/bin',
  outbase: 'src',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
