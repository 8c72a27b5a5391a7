/**
 * The post-commit hook script (mirror push, SPEC §7.3). Owned by the sync work (issue 3); the installer in
 * ./install.ts writes whatever this returns.
 */

/** Shell text of the post-commit hook. Until the mirror lands it does nothing. */
export function postCommitScript(): string {
  return '#!/bin/sh\n# gitmem post-commit hook (mirror push): no mirror support yet.\nexit 0\n';
}
