/**
 * Finds files shipped with the package (prompt texts, the hook entry) from any build layout: the tsc
 * output (dist/<area>/…), the bundled CLI (dist/bin/…), or the TypeScript sources under test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The directory holding gitmem's package.json. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && /"name"\s*:\s*"gitmem"/.test(readFileSync(manifest, 'utf8'))) return (root = dir);
    if (dirname(dir) === dir) throw new Error('gitmem: cannot locate the package root');
  }
}

/**
 * Absolute path of a shipped file given relative to `src/` (e.g. `blocks/prompts/persona.md`): the built
 * copy under dist/ when present, else the source.
 * @example readFileSync(assetPath('reflection/prompts/reflection.md'), 'utf8')
 */
export function assetPath(relative: string): string {
  const built = join(packageRoot(), 'dist', relative);
  return existsSync(built) ? built : join(packageRoot(), 'src', relative);
}
