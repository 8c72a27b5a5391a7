// Copies the prompt texts (markdown) next to the compiled code so `dist` runs on its own.
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.md')) out.push(p);
  }
  return out;
}
if (existsSync('src')) {
  for (const file of walk('src')) cpSync(file, join('dist', file.slice('src/'.length)));
}
