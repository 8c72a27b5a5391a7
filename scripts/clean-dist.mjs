// Empties dist/ before a build: tsc never deletes outputs of removed or renamed sources, and whatever is in
// dist/ is what `npm pack` ships.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
