/**
 * Process entry of the post-commit hook's mirror push (see mirror-hook.ts). Detached from the commit: its
 * stdio is closed and its outcome goes to the mirror log.
 */
import { runMirrorHook } from './mirror-hook.js';

void runMirrorHook({ env: process.env, cwd: process.cwd() });
