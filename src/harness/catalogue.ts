/**
 * The one table of harnesses gitmem connects to: which settings files each uses (per scope), which of its
 * hook events gitmem registers and the gitmem event each becomes. The CLI's usage text, connect,
 * disconnect and status are all generated from it, so a new harness is one entry here.
 */
import { join } from 'node:path';
import {
  claudeSubagentFiles,
  parseClaudeCodeFrom,
  parseCodexFrom,
  type SourceType,
  type TranscriptRow,
} from '../internals.js';
import { WRITE_TOOL_MATCHER } from './auto-memory.js';

/** A harness gitmem knows how to connect. */
export type HarnessId = 'claude-code' | 'codex';
/** `user`: the harness's per-user settings; `project`: the files in the project's git root. */
export type Scope = 'user' | 'project';
export const SCOPES: readonly Scope[] = ['user', 'project'];

/** The gitmem side of a hook: what `gitmem hook <harness> <event>` handles. */
export type GitmemEvent =
  'session-start' | 'turn-end' | 'session-end' | 'auto-memory-start' | 'pre-write' | 'post-write';

export interface HookEvent {
  /** The harness's event name (the key under `hooks`). */
  event: string;
  gitmem: GitmemEvent;
  /** Seconds the harness waits for the hook (SessionEnd's default budget is 1.5 s: too short). */
  timeout: number;
  /** The tools the hook is for (PreToolUse / PostToolUse), as the harness's `matcher`. */
  matcher?: string;
}

/** How a settings file is edited: JSON hooks, a JSON `mcpServers` entry, or a TOML `[mcp_servers.gitmem]` table. */
export type FileKind = 'json-hooks' | 'json-mcp' | 'toml-mcp';

export interface SettingsFile {
  kind: FileKind;
  path: string;
  /** Mode of a file connect creates (the harness keeps account data in some of them). */
  mode: number;
}

/** Where the harness's files are: the caller's environment and project root. */
export interface Locations {
  env: Record<string, string | undefined>;
  /** The user's home directory ($HOME). */
  userHome: string;
  /** The git root of the caller's directory (else the directory itself). */
  projectRoot: string;
}

/** How a harness's session transcripts are read (the hooks' reflection job). */
export interface TranscriptSource {
  /** The `gitmem dream --from` source type (its conversation ids match). */
  source: SourceType;
  /** Rows of the complete lines from a byte offset, and the offset after the last one. */
  parseFrom: (path: string, offset: number, now: () => Date) => { rows: TranscriptRow[]; end: number };
  /** Other files of the session read whole each time (their rows are staged once, by id): sub-agents. */
  companions?: (path: string) => string[];
}

export interface Harness {
  id: HarnessId;
  transcripts: TranscriptSource;
  displayName: string;
  events: readonly HookEvent[];
  /** The hook file first, then the MCP file. */
  files: (scope: Scope, where: Locations) => SettingsFile[];
  /**
   * `connect --auto-memory`: the hooks when the harness's own memory folder is the gitmem checkout (they
   * replace `events`), and the settings key that points the harness at it.
   */
  autoMemory?: { events: HookEvent[]; setting: string };
  /** Printed once when connect newly writes the hooks. */
  hooksNotice?: string;
}

const PRIVATE = 0o600;

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v : undefined;
}

function claudeFiles(scope: Scope, where: Locations): SettingsFile[] {
  if (scope === 'project') {
    return [
      { kind: 'json-hooks', path: join(where.projectRoot, '.claude', 'settings.json'), mode: PRIVATE },
      { kind: 'json-mcp', path: join(where.projectRoot, '.mcp.json'), mode: PRIVATE },
    ];
  }
  // Checked against claude 2.1.328: with CLAUDE_CONFIG_DIR set, both files live in that directory.
  const dir = nonEmpty(where.env['CLAUDE_CONFIG_DIR']);
  return [
    { kind: 'json-hooks', path: join(dir ?? join(where.userHome, '.claude'), 'settings.json'), mode: PRIVATE },
    { kind: 'json-mcp', path: join(dir ?? where.userHome, '.claude.json'), mode: PRIVATE },
  ];
}

function codexFiles(scope: Scope, where: Locations): SettingsFile[] {
  const dir =
    scope === 'project'
      ? join(where.projectRoot, '.codex')
      : (nonEmpty(where.env['CODEX_HOME']) ?? join(where.userHome, '.codex'));
  return [
    { kind: 'json-hooks', path: join(dir, 'hooks.json'), mode: PRIVATE },
    { kind: 'toml-mcp', path: join(dir, 'config.toml'), mode: PRIVATE },
  ];
}

/** Every harness, keyed by the name the CLI takes. */
export const HARNESSES: Readonly<Record<HarnessId, Harness>> = {
  'claude-code': {
    id: 'claude-code',
    displayName: 'Claude Code',
    transcripts: { source: 'claude-code', parseFrom: parseClaudeCodeFrom, companions: claudeSubagentFiles },
    // SessionStart without a matcher: every source (startup, resume, clear, compact) re-injects the memory.
    events: [
      { event: 'SessionStart', gitmem: 'session-start', timeout: 15 },
      { event: 'Stop', gitmem: 'turn-end', timeout: 10 },
      { event: 'SessionEnd', gitmem: 'session-end', timeout: 10 },
    ],
    files: claudeFiles,
    autoMemory: {
      // Claude Code loads the checkout's MEMORY.md itself: SessionStart only commits what no hook committed.
      events: [
        { event: 'SessionStart', gitmem: 'auto-memory-start', timeout: 15 },
        { event: 'PreToolUse', gitmem: 'pre-write', timeout: 15, matcher: WRITE_TOOL_MATCHER },
        { event: 'PostToolUse', gitmem: 'post-write', timeout: 15, matcher: WRITE_TOOL_MATCHER },
        { event: 'Stop', gitmem: 'turn-end', timeout: 10 },
        { event: 'SessionEnd', gitmem: 'session-end', timeout: 10 },
      ],
      setting: 'autoMemoryDirectory',
    },
  },
  codex: {
    id: 'codex',
    displayName: 'Codex',
    transcripts: { source: 'codex', parseFrom: parseCodexFrom },
    events: [
      { event: 'SessionStart', gitmem: 'session-start', timeout: 15 },
      { event: 'Stop', gitmem: 'turn-end', timeout: 10 },
    ],
    files: codexFiles,
    hooksNotice:
      'Codex skips hooks it does not trust yet: open /hooks inside codex and approve the gitmem hooks (gitmem never bypasses that gate).',
  },
};

export const HARNESS_IDS = Object.keys(HARNESSES) as HarnessId[];

export function isHarnessId(v: string): v is HarnessId {
  return Object.hasOwn(HARNESSES, v);
}

/** One line per harness for usage texts: `claude-code  Claude Code: SessionStart, Stop, SessionEnd`. */
export function catalogueUsage(): string {
  return HARNESS_IDS.map(
    (id) =>
      `  ${id.padEnd(12)} ${HARNESSES[id].displayName}: hooks ${HARNESSES[id].events.map((e) => e.event).join(', ')} and the MCP server`,
  ).join('\n');
}
