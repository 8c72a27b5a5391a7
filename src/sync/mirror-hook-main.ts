/**
 * Process entry of the post-commit hook's mirror push (see mirror-hook.ts). Detached from the commit: its
 * stdio is closed and its outcome goes to the mirror log. Its configuration is read here, once.
 */
import { loadConfig, resolveCredentials } from '../config.js';
import { createGitRunner } from '../git/runner.js';
import { runMirrorHook } from './mirror-hook.js';

const config = loadConfig({ env: process.env });
void runMirrorHook({
  git: createGitRunner({ env: config.env }),
  cwd: process.cwd(),
  home: { home: config.home, fromEnv: config.homeSource === 'env' },
  credentials: (home) => resolveCredentials({ env: config.env, home }),
});
