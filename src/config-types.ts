/**
 * The shape of gitmem's configuration (GitmemConfig and its parts), apart from config.ts, which reads it: the
 * layers above take it as a type only, and config.ts keeps the readings. Import it through config.ts, the door.
 */
import type { TreeLimits } from './blocks/tree-limits.js';
import type { GitmemConfigFile } from './llm/config.js';
import type { GitCredentials } from './sync/credentials.js';

/** An environment as gitmem reads it (a name is unset or a string). */
export type Env = Record<string, string | undefined>;

/** The agent the environment names (used when a call names none; see memfs/scope.ts). */
export interface ConfiguredAgent {
  /** GITMEM_AGENT_ID, else AGENT_ID. */
  id?: string;
  /** GITMEM_MEMORY_DIR, else MEMORY_DIR: absolute, a relative value resolved against the caller's directory. */
  memoryDir?: string;
  /** GITMEM_AGENT_NAME, else AGENT_NAME: the display name of the agent's commits. */
  name?: string;
}

/** Where models come from besides `--model` and the config file. */
export interface ModelSettings {
  /** GITMEM_MODEL. */
  spec?: string;
  /** GITMEM_OPENAI_BASE_URL. */
  openaiBaseUrl?: string;
}

/** How the CLI daemon behaves. */
export interface DaemonSettings {
  /** False with GITMEM_DAEMON=0|off|false|no. */
  enabled: boolean;
  /** GITMEM_DAEMON_IDLE as given (checked by `gitmem daemon run`). */
  idleSeconds?: string;
  /** GITMEM_DAEMON_TRACE=1. */
  trace: boolean;
  /** Where its socket and log live (`$XDG_RUNTIME_DIR/gitmem-<uid>`, else the temp dir's); none on Windows. */
  runtimeDir?: string;
}

/** The sandbox switches as they are set (the sandbox reads them from the confined child's environment). */
export interface SandboxSettings {
  /** False only with GITMEM_FS_SANDBOX=0|false. */
  enabled: boolean;
  /** GITMEM_SANDBOX_READ as given. */
  readPaths?: string;
  /** GITMEM_SANDBOX: this process runs inside a gitmem sandbox (its backend's name). */
  inside?: string;
  /**
   * GITMEM_SHELL_SANDBOX: true (1/true/yes/on) or false (0/false/no/off) when set, else undefined (then the
   * config file's `sandbox.shell` decides; off by default): whether `sandbox exec` may run the agent's shell.
   */
  shell?: boolean;
}

/** gitmem's configuration for one caller (see {@link loadConfig}). */
export interface GitmemConfig {
  /** The home (`--home`/option, else GITMEM_HOME, else ~/.gitmem), absolute. */
  readonly home: string;
  /** Who named the home: the caller (`--home`, an option), GITMEM_HOME, or nobody (~/.gitmem). */
  readonly homeSource: 'option' | 'env' | 'default';
  readonly agent: Readonly<ConfiguredAgent>;
  /** The memory tree's caps (GITMEM_TREE_*; out-of-range values fall back to the default). */
  readonly treeLimits: Readonly<TreeLimits>;
  readonly model: Readonly<ModelSettings>;
  readonly sandbox: Readonly<SandboxSettings>;
  readonly daemon: Readonly<DaemonSettings>;
  /** GITMEM_DEBUG is set. */
  readonly debug: boolean;
  /** GITMEM_FSYNC: true/false when it says on/off, else undefined (the repository's gitmem.fsync decides). */
  readonly fsync: boolean | undefined;
  /** False with GITMEM_FAST_PATHS=0|false|no|off: every fast path takes its plain git path (fast-paths.ts). */
  readonly fastPaths: boolean;
  /** The environment git and the sandbox are handed (and where provider keys are looked up by name). */
  readonly env: Readonly<Env>;
  /**
   * The git token: GITMEM_GIT_TOKEN (+ GITMEM_GIT_USERNAME / GITMEM_GIT_AUTH_SCHEME), else
   * `<home>/credentials` (CREDENTIALS_INSECURE unless 0600); undefined when there is none. Read on first use.
   */
  credentials(): GitCredentials | undefined;
  /** `$GITMEM_HOME/config` (model, providers, reflection, embeddings); read on first use; {} when absent. */
  file(): GitmemConfigFile;
}

/** Inputs of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** The environment to read (default: this process's). */
  env?: Env;
  /** The caller's directory: relative homes and memory directories resolve against it (default: the process's). */
  cwd?: string;
  /** An explicit home (wins over GITMEM_HOME; an empty one is INVALID_ARGUMENT). */
  home?: string | undefined;
}
