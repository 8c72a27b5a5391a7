/**
 * Loads the markdown prompt texts shipped next to this module (src/blocks/prompts → dist/blocks/prompts), so
 * the texts stay editable as plain files while the code that uses them stays pure.
 */
import { readFileSync } from 'node:fs';
import { assetPath } from '../assets.js';
import { MemoryError } from '../errors.js';

const cache = new Map<string, string>();
// `name.md` or `folder/name.md`: lowercase, no traversal, always inside prompts/.
const ASSET_NAME = /^(?:[a-z0-9][a-z0-9_-]*\/)?[a-z0-9][a-z0-9_.-]*\.md$/;

/**
 * The text of `prompts/<name>` (CRLF normalised to LF), read once per process.
 * Unknown or unsafe names throw INTERNAL: the asset table is ours, so a miss is a packaging bug.
 * @example loadPromptAsset('gitmem_local_memfs.md').startsWith('You are')
 */
export function loadPromptAsset(name: string): string {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  if (!ASSET_NAME.test(name) || name.includes('..')) {
    throw new MemoryError('INTERNAL', `invalid prompt asset name ${JSON.stringify(name)}`);
  }
  let text: string;
  try {
    text = readFileSync(assetPath(`blocks/prompts/${name}`), 'utf8');
  } catch (err) {
    throw new MemoryError('INTERNAL', `prompt asset ${name} is missing from the package`, {
      cause: err,
      data: { asset: name },
    });
  }
  const normalised = text.replace(/\r\n?/g, '\n');
  cache.set(name, normalised);
  return normalised;
}
