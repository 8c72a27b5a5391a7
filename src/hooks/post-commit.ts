/**
 * The post-commit hook script (mirror push, SPEC §7.3). Owned by the sync work (issue 3); the installer in
 * ./install.ts writes whatever this returns.
 */

/** Git config key holding the mirror URL. */
export const MIRROR_URL_KEY = 'gitmem.mirror.url';
/**
 * True when a repo's config text sets the mirror URL (read as text by the write path: no git process).
 * @example isMirrorConfigured('[gitmem "mirror"]\n\turl = /srv/m.git\n') === true
 */
export function isMirrorConfigured(configText: string): boolean {
  const [section, sub, key] = MIRROR_URL_KEY.split('.');
  const block = new RegExp(`\\[${section}\\s+"${sub}"\\][^[]*?^\\s*${key}\\s*=\\s*\\S`, 'im');
  return block.test(configText);
}

/** Log file name inside the git dir. */
export const MIRROR_LOG = 'gitmem-mirror.log';

/**
 * Shell text of the post-commit hook: when `gitmem.mirror.url` is set and HEAD is main, push main there
 * in a detached background job (stdio closed, so neither git nor our runner waits for it), appending a
 * header, git's (credential-scrubbed) output and `exit=<code>` to `.git/gitmem-mirror.log`. Always exits 0.
 * @example writeFileSync('.git/hooks/post-commit', postCommitScript(), { mode: 0o755 })
 */
export function postCommitScript(): string {
  return `#!/bin/sh
# gitmem post-commit hook: mirrors main to ${MIRROR_URL_KEY} in the background; never delays or fails a commit.
# Managed by gitmem; rewritten when stale, so local edits are lost.
url=$(git config --get ${MIRROR_URL_KEY} 2>/dev/null) || exit 0
[ -n "$url" ] || exit 0
branch=$(git symbolic-ref --quiet --short HEAD 2>/dev/null) || exit 0
[ "$branch" = main ] || exit 0
gitdir=$(git rev-parse --absolute-git-dir 2>/dev/null) || exit 0
sha=$(git rev-parse --short HEAD 2>/dev/null)
log="$gitdir/${MIRROR_LOG}"
unset GIT_INDEX_FILE
(
  out=$(GIT_TERMINAL_PROMPT=0 GCM_INTERACTIVE=never GIT_ASKPASS= SSH_ASKPASS= \\
    git -c commit.gpgsign=false push --quiet "$url" refs/heads/main:refs/heads/main 2>&1)
  code=$?
  out=$(printf '%s' "$out" | sed -E 's#(://[^/:@ ]+):[^@/ ]+@#\\1:***@#g')
  if [ -f "$log" ] && [ "$(wc -c <"$log")" -gt 262144 ]; then
    tail -n 400 "$log" >"$log.tmp" && mv "$log.tmp" "$log"
  fi
  printf '\\n--- %s %s on %s ---\\n%s\\nexit=%s\\n' "$(date +%Y-%m-%dT%H:%M:%S%z)" "$sha" "$branch" "$out" "$code" >>"$log"
) </dev/null >/dev/null 2>&1 &
exit 0
`;
}
