/**
 * The environment a confined process starts with: an allow-list copied from the caller's environment plus
 * what the caller adds explicitly — never the whole parent environment (tokens and keys stay outside).
 */

/** Names always passed through when set. */
const BASE_ENV_NAMES: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'NO_COLOR',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_TERMINAL_PROMPT',
  'GIT_OPTIONAL_LOCKS',
];

/** The sentinel set inside every confined process; its presence refuses nesting. */
export const SANDBOX_SENTINEL = 'GITMEM_SANDBOX';

/** Options for {@link buildConfinedEnv}. */
export interface ConfinedEnvOptions {
  /** Extra names to copy from `env` when set (e.g. an API key the worker's model needs). */
  passEnv?: string[];
  /** Values set verbatim, after the copy (win over copied ones). */
  extraEnv?: Record<string, string>;
}

/**
 * Copies the allow-listed names (and every `LC_*`) from `env`, then applies `extraEnv`.
 * @example buildConfinedEnv({ PATH: '/bin', OPENAI_API_KEY: 'k' }) // { PATH: '/bin' }
 */
export function buildConfinedEnv(
  env: Record<string, string | undefined>,
  o: ConfinedEnvOptions = {},
): Record<string, string> {
  const names = new Set([...BASE_ENV_NAMES, ...(o.passEnv ?? [])]);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (names.has(name) || name.startsWith('LC_')) out[name] = value;
  }
  return { ...out, ...(o.extraEnv ?? {}) };
}
