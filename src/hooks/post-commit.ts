/**
 * The post-commit hook script (the mirror push); the installer in ./install.ts writes whatever this
 * returns. The push itself runs in gitmem's mirror-hook process (src/sync/mirror-hook-main.ts), which finds
 * the sync credentials the way the CLI does; a plain `git push` is the fallback when that entry is missing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../assets.js';
import { configValue } from '../git/config-text.js';
import { redactPerlProgram } from '../git/redact.js';

/** Git config key holding the mirror URL. */
export const MIRROR_URL_KEY = 'gitmem.mirror.url';
/** Git config key holding the gitmem home the mirror was set from (where its credentials file is). */
export const MIRROR_HOME_KEY = 'gitmem.mirror.home';
/**
 * True when a repo's config text sets the mirror URL (read as text by the write path: no git process).
 * @example isMirrorConfigured('[gitmem "mirror"]\n\turl = /srv/m.git\n') === true
 */
export function isMirrorConfigured(configText: string): boolean {
  const [section, sub, key] = MIRROR_URL_KEY.split('.') as [string, string, string];
  return (configValue(configText, section, key, sub) ?? '') !== '';
}

/** Log file name inside the git dir. */
export const MIRROR_LOG = 'gitmem-mirror.log';

/** Absolute path of the mirror-hook entry in the built package (bundled, else the tsc output). */
function mirrorHookEntry(): string {
  const bundled = join(packageRoot(), 'dist', 'bin', 'mirror-hook.cjs');
  return existsSync(bundled) ? bundled : join(packageRoot(), 'dist', 'sync', 'mirror-hook-main.js');
}

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Shell text of the post-commit hook: when `gitmem.mirror.url` is set and HEAD is main, push main there
 * in a detached background job (stdio closed, so neither git nor our runner waits for it). The job is
 * gitmem's mirror-hook process, which uses the sync credentials and logs to `.git/gitmem-mirror.log`;
 * without it (the entry is gone), a plain push logs git's output through gitmem's redaction rules, rendered
 * for perl (none of it when perl does not run). Always exits 0.
 * @example writeFileSync('.git/hooks/post-commit', postCommitScript(), { mode: 0o755 })
 */
export function postCommitScript(nodePath: string = process.execPath, entry: string = mirrorHookEntry()): string {
  return `#!/bin/sh
# gitmem post-commit hook: mirrors main to ${MIRROR_URL_KEY} in the background; never delays or fails a commit.
# Managed by gitmem; rewritten when stale, so local edits are lost.
# A confined writer commits in its private worktree; main is mirrored when the harness merges it.
[ -z "$GITMEM_SANDBOX" ] || exit 0
url=$(git config --get ${MIRROR_URL_KEY} 2>/dev/null) || exit 0
[ -n "$url" ] || exit 0
branch=$(git symbolic-ref --quiet --short HEAD 2>/dev/null) || exit 0
[ "$branch" = main ] || exit 0
unset GIT_INDEX_FILE
NODE=${q(nodePath)}
[ -x "$NODE" ] || NODE=node
ENTRY=${q(entry)}
if [ -f "$ENTRY" ] && command -v "$NODE" >/dev/null 2>&1; then
  "$NODE" "$ENTRY" </dev/null >/dev/null 2>&1 &
  exit 0
fi
gitdir=$(git rev-parse --absolute-git-dir 2>/dev/null) || exit 0
sha=$(git rev-parse --short HEAD 2>/dev/null)
log="$gitdir/${MIRROR_LOG}"
(
  out=$(GIT_TERMINAL_PROMPT=0 GCM_INTERACTIVE=never GIT_ASKPASS= SSH_ASKPASS= \\
    git -c commit.gpgsign=false push --quiet "$url" refs/heads/main:refs/heads/main 2>&1)
  code=$?
  out=$(printf '%s\\n' "$out" | perl -pe ${q(redactPerlProgram())} 2>/dev/null) ||
    out='(git output not kept: perl, which removes credentials from it, did not run)'
  if [ -f "$log" ] && [ "$(wc -c <"$log")" -gt 262144 ]; then
    tail -n 400 "$log" >"$log.tmp" && mv "$log.tmp" "$log"
  fi
  printf '\\n--- %s %s on %s ---\\n%s\\n(the gitmem mirror helper %s is missing: pushed without gitmem credentials)\\nexit=%s\\n' \\
    "$(date +%Y-%m-%dT%H:%M:%S%z)" "$sha" "$branch" "$out" "$ENTRY" "$code" >>"$log"
) </dev/null >/dev/null 2>&1 &
exit 0
`;
}
