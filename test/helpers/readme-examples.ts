// The README's code examples: each fenced block that follows an `<!-- example: <name> … -->` marker.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const README = join(resolve(import.meta.dirname, '..', '..'), 'README.md');

/** The code of the fenced block (```ts or ```js) after `<!-- example: name … -->`. */
export function readmeExample(name: string): string {
  const m = new RegExp(`<!-- example: ${name}\\b[^>]*-->\\n\`\`\`(?:ts|js)\\n([\\s\\S]*?)\`\`\``).exec(
    readFileSync(README, 'utf8'),
  );
  if (!m?.[1]) throw new Error(`README has no example ${name}`);
  return m[1];
}
