// One tool catalogue, many surfaces: the MCP server (through the official client) and the AI SDK tools list
// exactly the catalogue's names, descriptions and input schemas, and the prompt and the MCP texts list the
// memory tool's commands from the one list.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { MEMORY_COMMANDS, WRITE_COMMANDS } from '../../../src/blocks/memory-commands.js';
import { compilePrompt } from '../../../src/blocks/compile-prompt.js';
import { memoryTools, MEMORY_TOOL_NAMES } from '../../../src/adapters/ai-sdk/tools.js';
import { createMcpServer } from '../../../src/mcp/server.js';
import { SERVER_INSTRUCTIONS } from '../../../src/mcp/instructions.js';
import type { Memory } from '../../../src/index.js';
import { TOOL_CATALOGUE, TOOL_NAMES } from '../../../src/tools/catalogue.js';
import { MEMORY_VERBS } from '../../../src/tools/memory-verbs.js';
import { COMMANDS } from '../../../src/cli/registry.js';

const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('the tool catalogue is what every surface lists', () => {
  it('the MCP server lists every catalogue row: same names, order, descriptions and input schemas', async () => {
    // Listing tools touches no memory: a stand-in handle is enough.
    const server = createMcpServer({ watch: () => ({ close: () => undefined }) } as unknown as Memory);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'catalogue-test', version: '0' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      const row = TOOL_CATALOGUE[t.name as keyof typeof TOOL_CATALOGUE];
      expect(t.description, t.name).toBe(row.description);
      expect(t.inputSchema, t.name).toEqual(plain(row.inputSchema));
    }
    await client.close();
  });

  it('the AI SDK tools are their catalogue rows: same descriptions and input schemas; `at` bounded alike', () => {
    const tools = memoryTools({} as never);
    expect(Object.keys(tools)).toEqual([...MEMORY_TOOL_NAMES]);
    for (const name of MEMORY_TOOL_NAMES) {
      const t = tools[name] as { description?: string; inputSchema: { jsonSchema: unknown } };
      expect(t.description, name).toBe(TOOL_CATALOGUE[name].description);
      expect(plain(t.inputSchema.jsonSchema), name).toEqual(plain(TOOL_CATALOGUE[name].inputSchema));
    }
    for (const name of ['memory_view', 'memory_search'] as const) {
      expect(TOOL_CATALOGUE[name].inputSchema.properties.at, name).toMatchObject({
        type: 'string',
        minLength: 1,
        maxLength: 256,
      });
    }
  });

  it('the prompt, the memory tool description and the MCP instructions list the memory commands from the one list', () => {
    const prompt = compilePrompt([], { surface: 'tools', mode: 'local-memfs', revision: 'abc1234', agentId: 'ada' });
    const listed = /The `memory` tool makes one change and commits it: ([^.]*)\./.exec(prompt)?.[1] ?? '';
    expect(listed.split(', ').map((c) => c.replaceAll('`', ''))).toEqual([...WRITE_COMMANDS]);
    const described = /Commands: ([^;]*); and (\w+) \(a read/.exec(TOOL_CATALOGUE.memory.description);
    expect([...(described?.[1] ?? '').split(', '), described?.[2]]).toEqual([...MEMORY_COMMANDS]);
    const instructed = /the memory tool \(([^;]*); (\w+) reads\)/.exec(SERVER_INSTRUCTIONS);
    expect([...(instructed?.[1] ?? '').split(', '), instructed?.[2]]).toEqual([...MEMORY_COMMANDS]);
  });

  it("the CLI's memory verbs are the grammar's memory sub-commands", () => {
    expect(Object.keys(COMMANDS.memory.grammar.subcommands ?? {})).toEqual([...MEMORY_VERBS]);
  });
});
