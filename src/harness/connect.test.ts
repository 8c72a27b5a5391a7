import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect, type ConnectOptions } from './connect.js';
import { connectionsPath, readConnections } from './connections.js';
import { disconnect } from './disconnect.js';
import { agentForProject } from './projects.js';
import { connectStatus } from './status.js';

let root: string;
let home: string;
let userHome: string;
let project: string;
const launch = { node: '/usr/bin/node', bin: '/opt/gitmem/dist/bin/gitmem.cjs' };

const SETTINGS = `{
  "model": "opus",
  "hooks": {
    "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }]
  }
}
`;
const CLAUDE_JSON = '{\n  "numStartups": 7,\n  "oauthAccount": { "emailAddress": "me@example.com" }\n}';
const CODEX_TOML = '# mine\nmodel = "gpt-5"\n\n[mcp_servers.other]\ncommand = "x"'; // no newline at the end

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}
const read = (path: string): string => readFileSync(path, 'utf8');

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'gitmem-connect-'));
  home = join(root, 'gitmem');
  userHome = join(root, 'user');
  project = join(root, 'proj');
  mkdirSync(join(home, 'agents', 'a1', 'memory', '.git'), { recursive: true });
  mkdirSync(join(project, '.git'), { recursive: true });
  mkdirSync(join(project, 'src'));
  write(join(userHome, '.claude', 'settings.json'), SETTINGS);
  write(join(userHome, '.claude.json'), CLAUDE_JSON);
  write(join(userHome, '.codex', 'config.toml'), CODEX_TOML);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const opts = (o: Partial<ConnectOptions> = {}): ConnectOptions => ({
  home,
  harness: 'claude-code',
  env: { HOME: userHome },
  cwd: join(project, 'src'),
  launch,
  ...o,
});

describe('connect / disconnect', () => {
  it('connects Claude Code, keeps other bytes, backs up, records, and is idempotent', () => {
    const r = connect(opts());
    expect(r.changed).toBe(true);
    expect(r.files.map((f) => f.action)).toEqual(['updated', 'updated']);
    const settings = read(join(userHome, '.claude', 'settings.json'));
    expect(settings).toContain(
      `"command": "'/usr/bin/node' '/opt/gitmem/dist/bin/gitmem.cjs' hook claude-code session-start"`,
    );
    expect(settings).toContain('"command": "notify-send done"');
    expect(read(join(userHome, '.claude', 'settings.json.gitmem-backup'))).toBe(SETTINGS);
    expect(
      read(join(userHome, '.claude.json')).startsWith(
        '{\n  "numStartups": 7,\n  "oauthAccount": { "emailAddress": "me@example.com" },\n  "mcpServers"',
      ),
    ).toBe(true);
    expect(readConnections(home)).toHaveLength(1);
    expect(read(connectionsPath(home))).not.toContain('me@example.com');
    const mtime = statSync(join(userHome, '.claude.json')).mtimeMs;
    const again = connect(opts());
    expect(again.changed).toBe(false);
    expect(statSync(join(userHome, '.claude.json')).mtimeMs).toBe(mtime);
  });

  it('disconnect restores every file byte for byte and is idempotent', () => {
    connect(opts());
    connect(opts({ agent: 'a1' })); // a second connect (another agent) still restores the original bytes
    const r = disconnect({ home, harness: 'claude-code', env: { HOME: userHome }, cwd: project });
    expect(r.changed).toBe(true);
    expect(read(join(userHome, '.claude', 'settings.json'))).toBe(SETTINGS);
    expect(read(join(userHome, '.claude.json'))).toBe(CLAUDE_JSON);
    expect(readConnections(home)).toHaveLength(0);
    expect(disconnect({ home, harness: 'claude-code', env: { HOME: userHome }, cwd: project }).changed).toBe(false);
  });

  it('Codex: creates hooks.json and the TOML block, says to approve hooks once, and disconnect undoes both exactly', () => {
    const env = { HOME: userHome };
    const r = connect(opts({ harness: 'codex', env }));
    expect(r.notices).toEqual([expect.stringMatching(/approve the gitmem hooks/)]);
    expect(r.files.map((f) => f.action)).toEqual(['created', 'updated']);
    expect(statSync(join(userHome, '.codex', 'hooks.json')).mode & 0o777).toBe(0o600);
    expect(connect(opts({ harness: 'codex', env })).notices).toEqual([]);
    disconnect({ home, harness: 'codex', env, cwd: project });
    expect(existsSync(join(userHome, '.codex', 'hooks.json'))).toBe(false);
    expect(read(join(userHome, '.codex', 'config.toml'))).toBe(CODEX_TOML);
  });

  it('a file edited since connect loses only our entries', () => {
    connect(opts());
    const path = join(userHome, '.claude', 'settings.json');
    write(path, read(path).replace('"model": "opus"', '"model": "sonnet"'));
    disconnect({ home, harness: 'claude-code', env: { HOME: userHome }, cwd: project });
    expect(read(path)).toBe(SETTINGS.replace('"model": "opus"', '"model": "sonnet"'));
  });

  it('refuses a malformed second file and writes nothing at all, the first file included', () => {
    write(join(userHome, '.claude.json'), '{\n  "numStartups": 7,\n}');
    expect(() => connect(opts({ agent: 'a1' }))).toThrow(/\.claude\.json:3:1: not valid JSON/);
    expect(read(join(userHome, '.claude', 'settings.json'))).toBe(SETTINGS);
    expect(existsSync(join(userHome, '.claude', 'settings.json.gitmem-backup'))).toBe(false);
    expect(existsSync(connectionsPath(home))).toBe(false);
    expect(existsSync(join(home, 'config'))).toBe(false);
  });

  it('--dry-run shows the change and writes nothing', () => {
    const r = connect(opts({ harness: 'codex', dryRun: true }));
    expect(r.diff).toContain('+[mcp_servers.gitmem]');
    expect(r.diff).toContain('--- /dev/null');
    expect(existsSync(join(userHome, '.codex', 'hooks.json'))).toBe(false);
    expect(read(join(userHome, '.codex', 'config.toml'))).toBe(CODEX_TOML);
    expect(existsSync(connectionsPath(home))).toBe(false);
  });

  it('project scope writes the project files and maps the project to --agent', () => {
    connect(opts({ scope: 'project', agent: 'a1' }));
    expect(read(join(project, '.mcp.json'))).toContain('"--agent",\n        "a1"');
    expect(read(join(project, '.claude', 'settings.json'))).toContain("hook claude-code turn-end --agent 'a1'");
    expect(agentForProject(home, join(project, 'src'))).toBe('a1');
    const status = connectStatus({ home, env: { HOME: userHome }, cwd: project });
    expect(status.harnesses.find((s) => s.harness === 'claude-code' && s.scope === 'project')).toMatchObject({
      connected: true,
      agent: 'a1',
    });
    expect(status.harnesses.find((s) => s.harness === 'claude-code' && s.scope === 'user')).toMatchObject({
      connected: false,
      hooks: [],
    });
    disconnect({ home, harness: 'claude-code', scope: 'project', env: { HOME: userHome }, cwd: project });
    expect(existsSync(join(project, '.mcp.json'))).toBe(false);
    expect(existsSync(join(project, '.claude'))).toBe(false); // the directory connect created goes too
  });

  it('keeps a directory connect created once the user puts a file of theirs in it', () => {
    rmSync(join(userHome, '.codex'), { recursive: true });
    connect(opts({ harness: 'codex' }));
    write(join(userHome, '.codex', 'AGENTS.md'), 'mine');
    disconnect({ home, harness: 'codex', env: { HOME: userHome }, cwd: project });
    expect(existsSync(join(userHome, '.codex', 'hooks.json'))).toBe(false);
    expect(existsSync(join(userHome, '.codex', 'config.toml'))).toBe(false);
    expect(read(join(userHome, '.codex', 'AGENTS.md'))).toBe('mine');
  });

  it('follows CLAUDE_CONFIG_DIR for both files', () => {
    const dir = join(root, 'cfg');
    connect(opts({ env: { HOME: userHome, CLAUDE_CONFIG_DIR: dir } }));
    expect(existsSync(join(dir, 'settings.json'))).toBe(true);
    expect(existsSync(join(dir, '.claude.json'))).toBe(true);
    expect(read(join(userHome, '.claude.json'))).toBe(CLAUDE_JSON);
  });

  it('refuses an unknown harness, scope or agent, and a home without agents', () => {
    expect(() => connect(opts({ harness: 'cursor' }))).toThrow(
      /unknown harness "cursor": use one of claude-code, codex/,
    );
    expect(() => connect(opts({ scope: 'global' }))).toThrow(/--scope must be user or project/);
    expect(() => connect(opts({ agent: 'nobody' }))).toThrow(expect.objectContaining({ code: 'MEMORY_DIR_MISSING' }));
    rmSync(join(home, 'agents'), { recursive: true });
    expect(() => connect(opts())).toThrow(/run `gitmem init` first/);
    expect(existsSync(join(userHome, '.claude', 'settings.json.gitmem-backup'))).toBe(false);
  });
});
