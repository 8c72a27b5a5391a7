import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

let fx: MemoryFixture;
let client: Client;

beforeAll(async () => {
  fx = await memoryFixture('mcp-agent');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(process.cwd(), 'dist/bin/gitmem.cjs'), 'mcp', '--agent', 'mcp-agent'],
    env: fx.env,
    stderr: 'ignore',
  });
  client = new Client({ name: 'gitmem-test', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  cleanupTmp();
});

describe('gitmem mcp (through the official MCP client)', () => {
  it('lists the memory tools with the library schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'memory',
      'memory_apply_patch',
      'memory_tree',
      'memory_search',
      'memory_log',
      'memory_prompt',
      'memory_view',
      'memory_history',
    ]);
    const memory = tools.find((t) => t.name === 'memory');
    expect(memory?.inputSchema.required).toEqual(['command']); // reason: every command but view (the library checks)
  });

  it('a memory call commits with the reason as message', async () => {
    const r = await client.callTool({
      name: 'memory',
      arguments: {
        command: 'create',
        reason: 'learned via MCP',
        file_path: 'notes/mcp.md',
        description: 'MCP note',
        file_text: 'hi',
      },
    });
    expect(r.isError).toBeFalsy();
    expect(git(fx.dir, ['log', '-1', '--format=%s'])).toBe('learned via MCP');
    const tree = await client.callTool({ name: 'memory_tree', arguments: {} });
    expect(JSON.stringify(tree.content)).toContain('mcp.md — MCP note');
  });

  it('a bad call is an isError result with the error code, and the repo is unchanged', async () => {
    const before = git(fx.dir, ['rev-parse', 'HEAD']);
    const r = await client.callTool({
      name: 'memory',
      arguments: { command: 'delete', reason: 'r', file_path: '../etc/passwd' },
    });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain('INVALID_PATH');
    expect(git(fx.dir, ['rev-parse', 'HEAD'])).toBe(before);
  });

  it('applies a patch and serves the compiled prompt', async () => {
    const patch = '*** Begin Patch\n*** Update File: notes/mcp.md\n@@\n-hi\n+hello\n*** End Patch';
    const r = await client.callTool({
      name: 'memory_apply_patch',
      arguments: { reason: 'greet properly', input: patch },
    });
    expect(r.isError).toBeFalsy();
    const prompt = await client.callTool({ name: 'memory_prompt', arguments: { mode: 'local-memfs' } });
    expect(JSON.stringify(prompt.content)).toContain('<self>');
  });
});
