/**
 * Which folder under `<Claude config dir>/projects` Claude Code keeps a project in (its sessions, its auto
 * memory in `memory/`). The key is the project path with every non-alphanumeric character as `-`; past 200
 * characters Claude Code keeps the first 200 and appends `-<hash of the path>`. The hash is not one rule
 * across builds (the Node build: a 32-bit string hash in base 36, computed here; the native build hashes
 * otherwise, and v2.1.224 changed how long paths are told apart), so for a long path the folder on disk
 * decides: the computed one if it exists, else the one folder named `<the 200-character prefix>-<hash>`;
 * several such folders are refused rather than guessed between.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';

/** Claude Code's longest key before it truncates and appends a hash. */
export const MAX_PROJECT_KEY = 200;

/** Claude Code's (Node build) path hash: a 32-bit `h * 31 + code unit` over UTF-16, |h| in base 36. */
function pathHash(path: string): string {
  let h = 0;
  for (let i = 0; i < path.length; i++) h = ((h << 5) - h + path.charCodeAt(i)) | 0;
  return Math.abs(h).toString(36);
}

/**
 * Claude Code's project key for a path.
 * @example claudeProjectKey('/home/me/my_app') === '-home-me-my-app'
 */
export function claudeProjectKey(projectRoot: string): string {
  const key = projectRoot.replace(/[^a-zA-Z0-9]/g, '-');
  return key.length <= MAX_PROJECT_KEY ? key : `${key.slice(0, MAX_PROJECT_KEY)}-${pathHash(projectRoot)}`;
}

function directories(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * The project's folder under `projectsDir` (it may not exist: a project Claude Code has not seen). Throws
 * INVALID_ARGUMENT when a long path's prefix names several folders and none is the computed one.
 * @example claudeProjectDir('/h/.claude/projects', '/home/me/app') === '/h/.claude/projects/-home-me-app'
 */
export function claudeProjectDir(projectsDir: string, projectRoot: string): string {
  const key = claudeProjectKey(projectRoot);
  if (key.length <= MAX_PROJECT_KEY) return join(projectsDir, key);
  const names = directories(projectsDir);
  if (names.includes(key)) return join(projectsDir, key);
  const prefix = `${key.slice(0, MAX_PROJECT_KEY)}-`;
  const found = names.filter((n) => n.startsWith(prefix) && /^[a-z0-9]+$/i.test(n.slice(prefix.length))).sort();
  if (found.length === 1 && found[0] !== undefined) return join(projectsDir, found[0]);
  if (found.length > 1)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `several Claude Code project folders could be ${projectRoot} (its path is over ${MAX_PROJECT_KEY} characters, so only their first ${MAX_PROJECT_KEY} are compared): ${found.join(', ')}; set autoMemoryDirectory in Claude Code's settings to the right one's memory folder, then connect again`,
      { data: { candidates: found } },
    );
  return join(projectsDir, key);
}
