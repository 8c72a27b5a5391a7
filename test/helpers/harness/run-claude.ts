/**
 * Runs the real Claude Code non-interactively (`claude -p <prompt>`) against a fake Anthropic server
 * (fake-anthropic.ts), with a temp HOME holding everything it reads and writes: `~/.claude/settings.json`
 * (hooks, permissions), `~/.claude.json` (user MCP servers; Claude Code rewrites this file itself on every
 * start), and the transcripts under `~/.claude/projects/<cwd with non-alphanumerics as '-'>/<session>.jsonl`.
 * Only 127.0.0.1 is contacted (checked under strace: telemetry and nonessential traffic are off).
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { baseEnv, filesUnder, harnessBin, runProcess, type ProcessResult } from './spawn-harness.js';

export interface ClaudeRunOptions {
  prompt: string;
  /** The project directory Claude Code runs in (its `.mcp.json` and `.claude/settings.json` are read). */
  cwd: string;
  /** The temp HOME. */
  home: string;
  /** The fake's base URL (`FakeAnthropic.baseURL`). */
  baseURL: string;
  /**
   * Claude Code's tool search (default off here). On, MCP tools are deferred: the request names them in a
   * system message and offers `ToolSearch` instead of their schemas (a direct call still runs them). Off, every
   * MCP tool is in the request's `tools` as `mcp__<server>__<tool>`.
   */
  toolSearch?: boolean;
  /** More CLI arguments, before the prompt (e.g. ['--allowedTools', 'mcp__gitmem__memory']). */
  args?: string[];
  /** More environment (wins over the defaults). */
  env?: Record<string, string>;
  /** Default 90 s. */
  timeoutMs?: number;
}

export interface ClaudeRun extends ProcessResult {
  /** Where this cwd's transcripts go: `$HOME/.claude/projects/<encoded cwd>`. */
  projectDir: string;
  /** Transcript files (.jsonl, sub-agents' included) that appeared under `$HOME/.claude/projects` during the run. */
  transcripts: string[];
}

/** The files of a Claude Code HOME that tests write or read. */
export function claudePaths(home: string) {
  return {
    settings: join(home, '.claude', 'settings.json'),
    userConfig: join(home, '.claude.json'),
    projects: join(home, '.claude', 'projects'),
  };
}

/** `$HOME/.claude/projects/<cwd>`: Claude Code replaces every non-alphanumeric character of the cwd with '-'. */
export function claudeProjectDir(home: string, cwd: string): string {
  return join(claudePaths(home).projects, realpathSync(cwd).replace(/[^a-zA-Z0-9]/g, '-'));
}

/** Writes `value` as JSON to `path`, making its directory. */
export function writeJsonFile(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** The environment of a run: the fake's URL and a fake key, and every call home switched off. */
export function claudeEnv(
  o: Pick<ClaudeRunOptions, 'home' | 'baseURL' | 'toolSearch' | 'env'>,
): Record<string, string> {
  return {
    ...baseEnv(o.home),
    ANTHROPIC_BASE_URL: o.baseURL,
    ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-tests',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ENABLE_TOOL_SEARCH: o.toolSearch === true ? 'true' : 'false',
    // Wait for MCP servers before the first request, so their tools are in it (else "still connecting").
    MCP_CONNECTION_NONBLOCKING: 'false',
    ...o.env,
  };
}

/**
 * Runs `claude -p <prompt>` once and reports its output, exit and transcripts.
 * @example const run = await runClaude({ prompt: 'hello', cwd: project, home, baseURL: fake.baseURL })
 */
export async function runClaude(o: ClaudeRunOptions): Promise<ClaudeRun> {
  const projects = claudePaths(o.home).projects;
  const before = new Set(filesUnder(projects, '.jsonl'));
  const result = await runProcess(harnessBin('claude'), ['-p', ...(o.args ?? []), o.prompt], {
    cwd: o.cwd,
    env: claudeEnv(o),
    timeoutMs: o.timeoutMs ?? 90_000,
  });
  return {
    ...result,
    projectDir: claudeProjectDir(o.home, o.cwd),
    transcripts: filesUnder(projects, '.jsonl').filter((f) => !before.has(f)),
  };
}
