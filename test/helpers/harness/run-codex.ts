/**
 * Runs the real Codex CLI non-interactively (`codex exec --skip-git-repo-check <prompt>`) against a fake
 * Responses server (fake-responses.ts), with a temp HOME and CODEX_HOME. The model provider and the switches
 * that keep codex off the network (analytics, the plugin sync that reaches chatgpt.com and api.github.com,
 * the update check) go on the command line as `-c` overrides, so `$CODEX_HOME/config.toml` and `hooks.json`
 * hold only what a test (or `gitmem connect`) writes there. Rollouts land in
 * `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl`.
 *
 * Hooks: codex runs a hook only when its trust record matches (`[hooks.state."<key>"] trusted_hash` in
 * config.toml) — untrusted ones are skipped without a word. `bypassHookTrust` passes
 * `--dangerously-bypass-hook-trust` (tests only); {@link trustCodexHooks} writes the records instead, as
 * approving them in codex's `/hooks` review would.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseEnv, filesUnder, harnessBin, runProcess, type ProcessResult } from './spawn-harness.js';

export interface CodexRunOptions {
  prompt: string;
  /** The project directory (codex's workspace root; its `.codex/` is read). */
  cwd: string;
  home: string;
  codexHome: string;
  /** The fake's base URL (`FakeResponses.baseURL`, ending in /v1). */
  baseURL: string;
  /**
   * Default `gpt-5.5`, a model codex has metadata for, with the classic request shape: `tools` holds the
   * functions and `tool_search`; MCP tools are deferred (a developer message names `mcp__<server>`). `null`
   * leaves codex's own default (0.169.0: `gpt-6.1-sol`, "code mode": no `tools`, an `additional_tools` input
   * item instead). An unknown slug (`gpt-fake`) falls back to default metadata (with a warning) and offers each
   * MCP server as one `namespace` tool in `tools`.
   */
  model?: string | null;
  /** Pass `--dangerously-bypass-hook-trust` (tests only; `gitmem connect` must never). */
  bypassHookTrust?: boolean;
  /** More CLI arguments, before the prompt (e.g. ['-s', 'workspace-write']). */
  args?: string[];
  env?: Record<string, string>;
  /** Default 90 s. */
  timeoutMs?: number;
}

export interface CodexRun extends ProcessResult {
  /** Rollout files that appeared under `$CODEX_HOME/sessions` during the run. */
  transcripts: string[];
}

/** The environment variable holding the fake provider's API key. */
export const FAKE_KEY_ENV = 'FAKE_RESPONSES_API_KEY';

/** The files of a CODEX_HOME that tests write or read. */
export function codexPaths(codexHome: string) {
  return {
    config: join(codexHome, 'config.toml'),
    hooks: join(codexHome, 'hooks.json'),
    sessions: join(codexHome, 'sessions'),
  };
}

/** The `-c` overrides of every run: the fake provider, and no traffic beyond it. */
export function codexOverrides(baseURL: string, model: string | null): string[] {
  const provider = `{name="gitmem fake",base_url=${JSON.stringify(baseURL)},wire_api="responses",env_key="${FAKE_KEY_ENV}"}`;
  const settings = [
    ...(model === null ? [] : [`model=${JSON.stringify(model)}`]),
    'model_provider="gitmem_fake"',
    `model_providers.gitmem_fake=${provider}`,
    'analytics.enabled=false',
    'features.plugins=false',
    'check_for_update_on_startup=false',
  ];
  return settings.flatMap((s) => ['-c', s]);
}

function codexEnv(o: Pick<CodexRunOptions, 'home' | 'codexHome' | 'env'>): Record<string, string> {
  return { ...baseEnv(o.home), CODEX_HOME: o.codexHome, [FAKE_KEY_ENV]: 'sk-fake-key-for-tests', ...o.env };
}

/**
 * Runs `codex exec` once and reports its output, exit and rollouts.
 * @example const run = await runCodex({ prompt: 'hello', cwd: project, home, codexHome, baseURL: fake.baseURL })
 */
export async function runCodex(o: CodexRunOptions): Promise<CodexRun> {
  const sessions = codexPaths(o.codexHome).sessions;
  const before = new Set(filesUnder(sessions, '.jsonl'));
  const args = [
    'exec',
    '--skip-git-repo-check',
    ...(o.bypassHookTrust === true ? ['--dangerously-bypass-hook-trust'] : []),
    ...codexOverrides(o.baseURL, o.model === undefined ? 'gpt-5.5' : o.model),
    ...(o.args ?? []),
    o.prompt,
  ];
  const result = await runProcess(harnessBin('codex'), args, {
    cwd: o.cwd,
    env: codexEnv(o),
    timeoutMs: o.timeoutMs ?? 90_000,
  });
  return { ...result, transcripts: filesUnder(sessions, '.jsonl').filter((f) => !before.has(f)) };
}

/** One hook as codex's app-server lists it (`hooks/list`). */
export interface CodexHookListing {
  key: string;
  eventName: string;
  command: string;
  currentHash: string;
  trustStatus: string;
}

/** Asks the real codex (`codex app-server`, JSON-RPC on stdio) which hooks apply in `cwd` and their trust. */
export function listCodexHooks(o: {
  cwd: string;
  home: string;
  codexHome: string;
  timeoutMs?: number;
}): Promise<CodexHookListing[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(harnessBin('codex'), ['app-server'], {
      cwd: o.cwd,
      env: codexEnv(o),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('codex app-server did not answer hooks/list'));
    }, o.timeoutMs ?? 30_000);
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let msg: { id?: number; result?: { data: { hooks: CodexHookListing[] }[] }; error?: unknown };
        try {
          msg = JSON.parse(line) as typeof msg;
        } catch {
          continue; // not a protocol line
        }
        if (msg.id !== 2) continue;
        clearTimeout(timer);
        child.stdin.end();
        child.kill('SIGTERM');
        if (msg.result === undefined) reject(new Error(`hooks/list failed: ${JSON.stringify(msg.error)}`));
        else resolve(msg.result.data.flatMap((d) => d.hooks));
      }
    });
    child.on('error', reject);
    const lines = [
      { id: 1, method: 'initialize', params: { clientInfo: { name: 'gitmem-tests', version: '0' } } },
      { method: 'initialized' },
      { id: 2, method: 'hooks/list', params: {} },
    ];
    child.stdin.write(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  });
}

/**
 * Marks every hook codex sees in `cwd` that is not trusted yet as trusted: appends, to
 * `$CODEX_HOME/config.toml`, `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"]` with
 * `trusted_hash` = the hash codex itself reports (what the `/hooks` review writes). Returns the keys.
 */
export async function trustCodexHooks(o: { cwd: string; home: string; codexHome: string }): Promise<string[]> {
  const pending = (await listCodexHooks(o)).filter((h) => h.trustStatus !== 'trusted' && h.trustStatus !== 'managed');
  const toml = pending
    .map((h) => `\n[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.currentHash)}\n`)
    .join('');
  if (toml !== '') appendFileSync(codexPaths(o.codexHome).config, toml);
  return pending.map((h) => h.key);
}
