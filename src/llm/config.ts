/**
 * Reads gitmem's user configuration file, `$GITMEM_HOME/config` (JSON). One reader, so the model layer and
 * the reflection settings agree on where things live.
 *
 * Format (every key optional):
 * ```json
 * {
 *   "model": "openai-compatible:local:qwen3:8b",          // default model spec (after --model and GITMEM_MODEL)
 *   "providers": {
 *     "local":     { "baseURL": "http://127.0.0.1:11434/v1", "apiKeyEnv": "OLLAMA_API_KEY" },
 *     "openai":    { "baseURL": "https://proxy.example/v1" },   // optional override for openai:…
 *     "anthropic": { "baseURL": "https://proxy.example/v1", "apiKeyEnv": "MY_ANTHROPIC_KEY" }
 *   },
 *   "reflection": { "trigger": "step-count", "stepCount": 25, "merge": "auto" }, // read by src/reflection
 *   "projects": { "/home/me/src/app": "work" }            // project git root → agent (gitmem connect --agent)
 * }
 * ```
 * Keys are never stored in the file: `apiKeyEnv` names the environment variable that holds one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';

/** Connection settings of one provider entry. */
export interface ProviderConfig {
  /** Base URL of the API, e.g. `http://127.0.0.1:11434/v1` for Ollama. */
  baseURL?: string;
  /** Name of the environment variable holding the API key. */
  apiKeyEnv?: string;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
}

/** The parsed config file. Unknown keys are kept (other layers own them). */
export interface GitmemConfigFile {
  model?: string;
  providers?: Record<string, ProviderConfig>;
  /** Reflection settings; validated by the reflection layer. */
  reflection?: Record<string, unknown>;
  /** Project git root → the agent its harness hooks use (`gitmem connect --agent`). */
  projects?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * The config file's path under a gitmem home.
 * @example configPath('/home/me/.gitmem') === '/home/me/.gitmem/config'
 */
export function configPath(home: string): string {
  return join(home, 'config');
}

function bad(path: string, why: string, cause?: unknown): never {
  throw new MemoryError('INVALID_ARGUMENT', `invalid gitmem config ${path}: ${why}`, { data: { path }, cause });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkProviders(path: string, providers: unknown): void {
  if (providers === undefined) return;
  if (!isObject(providers)) bad(path, '"providers" must be an object');
  for (const [name, entry] of Object.entries(providers)) {
    if (!isObject(entry)) bad(path, `providers.${name} must be an object`);
    for (const key of ['baseURL', 'apiKeyEnv'] as const) {
      if (entry[key] !== undefined && typeof entry[key] !== 'string')
        bad(path, `providers.${name}.${key} must be a string`);
    }
    if (entry['headers'] !== undefined && !isObject(entry['headers']))
      bad(path, `providers.${name}.headers must be an object`);
  }
}

/** `projects`: project git root → agent id (written by `gitmem connect --agent`, read by the hooks). */
function checkProjects(path: string, projects: unknown): void {
  if (projects === undefined) return;
  if (!isObject(projects)) bad(path, '"projects" must be an object');
  for (const [root, agent] of Object.entries(projects)) {
    if (typeof agent !== 'string') bad(path, `projects[${JSON.stringify(root)}] must be a string (an agent id)`);
  }
}

/**
 * Reads and shape-checks `$GITMEM_HOME/config`. A missing file is an empty config.
 * @example readGitmemConfig('/home/me/.gitmem').model // 'anthropic:claude-sonnet-4-5' or undefined
 */
export function readGitmemConfig(home: string): GitmemConfigFile {
  const path = configPath(home);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return bad(path, (err as Error).message, err);
  }
  return checkGitmemConfig(path, text);
}

/**
 * Parses and shape-checks the text of a config file (what `gitmem config set` validates before it writes).
 * @example checkGitmemConfig('/h/config', '{"model": "openai:gpt-5"}').model === 'openai:gpt-5'
 */
export function checkGitmemConfig(path: string, text: string): GitmemConfigFile {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return bad(path, `not valid JSON (${(err as Error).message})`, err);
  }
  if (!isObject(parsed)) bad(path, 'the top level must be a JSON object');
  if (parsed['model'] !== undefined && typeof parsed['model'] !== 'string') bad(path, '"model" must be a string');
  if (parsed['reflection'] !== undefined && !isObject(parsed['reflection']))
    bad(path, '"reflection" must be an object');
  checkProviders(path, parsed['providers']);
  checkProjects(path, parsed['projects']);
  return parsed as GitmemConfigFile;
}
