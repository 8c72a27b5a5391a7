import { describe, expect, it } from 'vitest';
import { hookCommand, mcpServer } from './command-line.js';
import {
  addHooks,
  addMcpServer,
  addSetting,
  listHooks,
  readSetting,
  removeHooks,
  removeMcpServer,
  removeSetting,
  type HookEntry,
} from './json-settings.js';

const P = '/u/.claude/settings.json';
const launch = { node: '/usr/bin/node', bin: '/opt/gitmem/dist/bin/gitmem.cjs' };
const entries = (l: typeof launch & { agent?: string } = launch): HookEntry[] => [
  { event: 'SessionStart', command: hookCommand(l, 'claude-code', 'session-start'), timeout: 15 },
  { event: 'Stop', command: hookCommand(l, 'claude-code', 'turn-end'), timeout: 10 },
  { event: 'SessionEnd', command: hookCommand(l, 'claude-code', 'session-end'), timeout: 10 },
];

const USER = `{
    "model": "opus",
    "permissions": {"allow": ["Bash(ls:*)"]},
    "hooks": {
        "Stop": [
            {"matcher": "", "hooks": [{"type": "command", "command": "notify-send done"}]}
        ]
    },
    "env": { "A": "1" }
}
`;

describe('JSON hook settings', () => {
  it('adds our groups and keeps the user hooks and every other key byte-identical', () => {
    const out = addHooks(P, USER, 'claude-code', entries());
    const parsed = JSON.parse(out) as { hooks: Record<string, unknown[]>; permissions: unknown };
    expect(parsed.hooks['Stop']).toHaveLength(2);
    expect(parsed.hooks['Stop']?.[0]).toEqual({
      matcher: '',
      hooks: [{ type: 'command', command: 'notify-send done' }],
    });
    expect(parsed.hooks['SessionStart']).toEqual([
      { hooks: [{ type: 'command', command: entries()[0]?.command, timeout: 15 }] },
    ]);
    // The user's lines are all still there, unchanged and in order.
    for (const line of USER.split('\n')) expect(out).toContain(line);
    expect(out.startsWith('{\n    "model": "opus",\n    "permissions": {"allow": ["Bash(ls:*)"]},\n')).toBe(true);
    expect(listHooks(P, out, 'claude-code').size).toBe(3);
  });

  it('is idempotent: a second run returns the very same text', () => {
    const once = addHooks(P, USER, 'claude-code', entries());
    expect(addHooks(P, once, 'claude-code', entries())).toBe(once);
  });

  it('leaves our entry alone when only its formatting or key order differs', () => {
    const stop = entries()[1] as HookEntry;
    const text = `{"hooks":{"Stop":[{"hooks":[{"timeout":10,"type":"command","command":${JSON.stringify(stop.command)}}]}]}}`;
    expect(addHooks(P, text, 'claude-code', [stop])).toBe(text);
  });

  it('replaces an older gitmem entry (another install path or agent) instead of adding a second', () => {
    const old = addHooks(P, USER, 'claude-code', entries({ node: '/old/node', bin: '/old/gitmem/bin/gitmem.cjs' }));
    const out = addHooks(P, old, 'claude-code', entries({ ...launch, agent: 'work' }));
    const hooks = (JSON.parse(out) as { hooks: Record<string, unknown[]> }).hooks;
    expect(hooks['SessionStart']).toHaveLength(1);
    expect(hooks['Stop']).toHaveLength(2);
    expect(out).not.toContain('/old/');
    expect(listHooks(P, out, 'claude-code').get('Stop')).toMatch(/ --agent 'work'$/);
  });

  it('removes exactly what it added: the text comes back byte for byte', () => {
    const out = addHooks(P, USER, 'claude-code', entries());
    expect(removeHooks(P, out, 'claude-code')).toBe(USER);
  });

  it('leaves the hooks of another harness alone', () => {
    const out = addHooks(P, USER, 'claude-code', entries());
    expect(removeHooks(P, out, 'codex')).toBe(out);
  });

  it('creates a new file, and adds to an empty object and a one-line document', () => {
    expect(JSON.parse(addHooks(P, undefined, 'claude-code', entries()))).toHaveProperty('hooks.SessionEnd');
    const oneLine = addHooks(P, '{"a":1}', 'claude-code', entries());
    expect(oneLine.includes('\n')).toBe(false);
    expect(removeHooks(P, oneLine, 'claude-code')).toBe('{"a":1}');
    expect(removeHooks(P, addHooks(P, '{\n  "a": [1,2]\n}\n', 'claude-code', entries()), 'claude-code')).toBe(
      '{\n  "a": [1,2]\n}\n',
    );
  });

  it('refuses malformed JSON naming file:line:col', () => {
    expect(() => addHooks(P, '{\n  "a": 1,\n  "b" 2\n}', 'claude-code', entries())).toThrow(
      /settings\.json:3:7: not valid JSON \(ColonExpected\)/,
    );
    expect(() => addHooks(P, '{\n  // note\n  "a": 1\n}', 'claude-code', entries())).toThrow(/:2:3: not valid JSON/);
    expect(() => addHooks(P, '[1]', 'claude-code', entries())).toThrow(/:1:1: the top level must be a JSON object/);
  });

  it('refuses a hooks value that is not an object, or an event that is not an array', () => {
    expect(() => addHooks(P, '{\n  "hooks": []\n}', 'claude-code', entries())).toThrow(
      /:2:12: "hooks" must be a JSON object/,
    );
    expect(() => addHooks(P, '{"hooks": {"Stop": {}}}', 'claude-code', entries())).toThrow(
      /"hooks.Stop" must be a JSON array/,
    );
  });
});

describe('JSON MCP server entry', () => {
  const CLAUDE_JSON = '{\n  "numStartups": 3,\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}';

  it('adds mcpServers.gitmem, is idempotent, and removes it exactly', () => {
    const out = addMcpServer('/u/.claude.json', CLAUDE_JSON, mcpServer(launch));
    expect((JSON.parse(out) as { mcpServers: Record<string, unknown> }).mcpServers['gitmem']).toEqual({
      type: 'stdio',
      command: launch.node,
      args: [launch.bin, 'mcp'],
    });
    expect(addMcpServer('/u/.claude.json', out, mcpServer(launch))).toBe(out);
    expect(removeMcpServer('/u/.claude.json', out)).toBe(CLAUDE_JSON);
  });

  it('replaces an older gitmem server but refuses to overwrite the user own "gitmem" server', () => {
    const old = addMcpServer('/u/.claude.json', CLAUDE_JSON, mcpServer({ node: '/n', bin: '/old/gitmem.cjs' }));
    expect(addMcpServer('/u/.claude.json', old, mcpServer({ ...launch, agent: 'a' }))).toContain('"--agent"');
    const theirs = '{"mcpServers": {"gitmem": {"command": "npx", "args": ["-y", "gitmem-fork"]}}}';
    expect(() => addMcpServer('/u/.claude.json', theirs, mcpServer(launch))).toThrow(
      /:1:27: already has an MCP server named "gitmem"/,
    );
    expect(removeMcpServer('/u/.claude.json', theirs)).toBe(theirs);
  });

  it('removes mcpServers it emptied', () => {
    const out = addMcpServer('/p/.mcp.json', '{\n  "x": 1\n}\n', mcpServer(launch));
    expect(removeMcpServer('/p/.mcp.json', out)).toBe('{\n  "x": 1\n}\n');
  });
});

describe('JSON settings for --auto-memory', () => {
  const auto: HookEntry[] = [
    ...entries(),
    {
      event: 'PreToolUse',
      command: hookCommand(launch, 'claude-code', 'pre-write'),
      timeout: 15,
      matcher: 'Write|Edit|MultiEdit',
    },
  ];

  it('writes the matcher into our group, and drops our hooks on events no longer registered', () => {
    const withAuto = addHooks(P, USER, 'claude-code', auto);
    const parsed = JSON.parse(withAuto) as { hooks: Record<string, Array<Record<string, unknown>>> };
    expect(parsed.hooks['PreToolUse']?.[0]?.['matcher']).toBe('Write|Edit|MultiEdit');
    expect(addHooks(P, withAuto, 'claude-code', auto)).toBe(withAuto);
    const back = addHooks(P, withAuto, 'claude-code', entries());
    expect(back).toBe(addHooks(P, USER, 'claude-code', entries()));
    expect(removeHooks(P, withAuto, 'claude-code')).toBe(USER);
  });

  it('sets autoMemoryDirectory and takes out only a value that names a gitmem checkout', () => {
    const dir = '/u/.gitmem/agents/a1/memory';
    const set = addSetting(P, USER, 'autoMemoryDirectory', dir);
    expect(readSetting(P, set, 'autoMemoryDirectory')).toBe(dir);
    expect(addSetting(P, set, 'autoMemoryDirectory', dir)).toBe(set);
    expect(removeSetting(P, set, 'autoMemoryDirectory')).toBe(USER);
    const mine = addSetting(P, USER, 'autoMemoryDirectory', '/u/notes/memory');
    expect(removeSetting(P, mine, 'autoMemoryDirectory')).toBe(mine);
  });
});
