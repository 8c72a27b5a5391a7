/**
 * Config entries carried in git's environment (`GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>`,
 * git ≥ 2.31): what a caller or a confined writer's git must see without a `-c` on its command line.
 */

/**
 * `env` with `entries` as environment config, after those it already carries.
 * @example withGitConfig({}, [['core.hooksPath', '/h']]).GIT_CONFIG_KEY_0 === 'core.hooksPath'
 */
export function withGitConfig(
  env: Readonly<Record<string, string>>,
  entries: ReadonlyArray<readonly [string, string]>,
): Record<string, string> {
  const inherited = Number(env['GIT_CONFIG_COUNT'] ?? '0');
  const first = Number.isSafeInteger(inherited) && inherited > 0 ? inherited : 0;
  const out: Record<string, string> = { ...env, GIT_CONFIG_COUNT: String(first + entries.length) };
  entries.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${first + i}`] = key;
    out[`GIT_CONFIG_VALUE_${first + i}`] = value;
  });
  return out;
}
