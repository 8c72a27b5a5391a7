import { describe, expect, it } from 'vitest';
import { agentOf, hookCommand, isOurHookCommand, isOurMcpServer, mcpServer } from './command-line.js';

const launch = { node: '/usr/bin/node', bin: "/opt/it's gitmem/dist/bin/gitmem.cjs" };

describe('hook command lines and MCP entries written by connect', () => {
  it('are recognised again with or without --agent and --home, quoted values included', () => {
    for (const extra of [{}, { agent: 'a1' }, { home: '/h/my home' }, { agent: "o'neil", home: "/h/it's" }]) {
      const command = hookCommand({ ...launch, ...extra }, 'codex', 'turn-end');
      expect(isOurHookCommand(command, 'codex'), command).toBe(true);
      expect(isOurHookCommand(command, 'claude-code')).toBe(false);
      expect(agentOf(command)).toBe('agent' in extra ? extra.agent : undefined);
      const server = mcpServer({ ...launch, ...extra });
      expect(isOurMcpServer(server)).toBe(true);
      expect(agentOf(server.args)).toBe('agent' in extra ? extra.agent : undefined);
    }
  });

  it('carry the home after the agent, shell-quoted', () => {
    expect(
      hookCommand({ node: '/n', bin: '/g/gitmem.cjs', agent: 'a', home: '/h' }, 'claude-code', 'session-start'),
    ).toBe("'/n' '/g/gitmem.cjs' hook claude-code session-start --agent 'a' --home '/h'");
    expect(mcpServer({ node: '/n', bin: '/g/gitmem.cjs', home: '/h' }).args).toEqual([
      '/g/gitmem.cjs',
      'mcp',
      '--home',
      '/h',
    ]);
  });

  it('do not take a user entry that merely mentions gitmem', () => {
    expect(isOurHookCommand('echo gitmem hook codex turn-end; rm -rf ~', 'codex')).toBe(false);
    expect(isOurHookCommand("rm -rf ~; '/n' '/g/gitmem.cjs' hook codex turn-end", 'codex')).toBe(false);
    expect(isOurHookCommand("'/n' '/g/other.cjs' hook codex turn-end", 'codex')).toBe(false);
    expect(isOurMcpServer({ command: 'node', args: ['/x/gitmem.cjs', 'mcp', '--verbose'] })).toBe(false);
    expect(isOurMcpServer({ command: 'node', args: ['/x/gitmem.cjs', 'mcp', '--agent', 'a', '--agent', 'b'] })).toBe(
      false,
    );
  });
});
