// TEMPORARY (replaced by the connect branch's projects.ts)
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readGitmemConfigFile } from './tmp-config.js';
export function agentForProject(home: string, cwd: string, explicit?: string): string | undefined {
  if (explicit) return explicit;
  const projects = (readGitmemConfigFile(home)['projects'] ?? {}) as Record<string, string>;
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return typeof projects[dir] === 'string' ? projects[dir] : undefined;
    if (dirname(dir) === dir) return undefined;
  }
}
