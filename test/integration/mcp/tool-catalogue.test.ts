// One tool catalogue, many surfaces: the MCP server (through the official client) and the AI SDK tools list
// exactly the catalogue's names, descriptions and input schemas, and the prompt and the MCP texts list the
// memory tool's commands from the one list; the CLI's `memory` verbs and Anthropic's memory tool take their
// commands and arguments from the same catalogue (its argument rules: tools/memory-arguments.ts), and a command
// added there reaches the CLI with no other edit.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ANTHROPIC_COMMANDS,
  MEMORY_COMMANDS,
  spokenList,
  WRITE_COMMANDS,
} from '../../../src/blocks/memory-commands.js';
import { createAnthropicMemoryHandlers } from '../../../src/adapters/anthropic/index.js';
import { memoryGrammar, memoryUsageLines, spelledArguments } from '../../../src/cli/memory-grammar.js';
import { isMemoryError } from '../../../src/errors.js';
import { applyPatchToolSchema, memoryToolSchema } from '../../../src/memfs/tool-schema.js';
import { APPLY_PATCH_ARGUMENTS, MEMORY_COMMAND_ARGUMENTS } from '../../../src/tools/memory-arguments.js';
import { MEMORY_SPELLINGS, MEMORY_VERB_TABLE, type MemoryVerb } from '../../../src/tools/memory-verbs.js';
import { cleanupTmp } from '../../helpers/tmp.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { compilePrompt } from '../../../src/blocks/compile-prompt.js';
import { memoryTools, MEMORY_TOOL_NAMES } from '../../../src/adapters/ai-sdk/tools.js';
import { createMcpServer } from '../../../src/mcp/server.js';
import { SERVER_INSTRUCTIONS } from '../../../src/mcp/instructions.js';
import type { Memory } from '../../../src/index.js';
import { TOOL_CATALOGUE, TOOL_NAMES, WORDED_TOOL_NAMES } from '../../../src/tools/catalogue.js';
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
    // The tools the prompt's wording names are served (blocks/prompt-surfaces.ts WORDING_TOOLS).
    for (const name of WORDED_TOOL_NAMES) expect(tools.map((t) => t.name)).toContain(name);
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

describe('the CLI and Anthropic surfaces take their commands and arguments from the catalogue', () => {
  afterAll(() => cleanupTmp());
  const schemaArguments = Object.keys(memoryToolSchema.properties).filter((k) => k !== 'command');

  it('every surface offers the one list of memory commands', async () => {
    // MCP and the AI SDK list the memory row's schema (the tests above): its command enum is the list.
    expect(TOOL_CATALOGUE.memory.inputSchema).toBe(memoryToolSchema);
    expect(memoryToolSchema.properties.command.enum).toEqual([...MEMORY_COMMANDS]);
    const sdk = memoryTools({} as never)['memory'] as unknown as {
      inputSchema: { jsonSchema: typeof memoryToolSchema };
    };
    expect(sdk.inputSchema.jsonSchema.properties.command.enum).toEqual([...MEMORY_COMMANDS]);
    // The CLI: one verb per write command (view is `gitmem show`), in the list's order.
    const verbs = MEMORY_VERB_TABLE.filter((v) => v.tool === 'memory');
    expect(verbs.map((v) => v.command)).toEqual([...WRITE_COMMANDS]);
    expect(Object.keys(COMMANDS)).toContain('show');
    // Anthropic's tool: its handlers are the list's Anthropic commands, and its prompt names their writes.
    const handlers = createAnthropicMemoryHandlers({} as never);
    expect(Object.keys(handlers).sort()).toEqual([...ANTHROPIC_COMMANDS].sort());
    const writes = ANTHROPIC_COMMANDS.filter((c) => (WRITE_COMMANDS as readonly string[]).includes(c));
    const prompt = compilePrompt([], {
      surface: 'anthropic',
      mode: 'local-memfs',
      revision: 'abc1234',
      agentId: 'ada',
    });
    expect(prompt).toContain(`${spokenList(writes, '`')} are each saved as one commit`);
  });

  it("the argument rules name exactly the schemas' arguments", () => {
    const used = new Set(Object.values(MEMORY_COMMAND_ARGUMENTS).flatMap((rule) => Object.keys(rule)));
    expect([...used].sort()).toEqual([...schemaArguments].sort());
    expect(Object.keys(MEMORY_SPELLINGS).sort()).toEqual([...schemaArguments].sort());
    expect(Object.keys(APPLY_PATCH_ARGUMENTS).sort()).toEqual(Object.keys(applyPatchToolSchema.properties).sort());
    const required = Object.entries(APPLY_PATCH_ARGUMENTS).filter(([, r]) => r === 'required');
    expect(required.map(([a]) => a).sort()).toEqual([...applyPatchToolSchema.required].sort());
  });

  it("each CLI verb gives exactly its command's arguments, through the registry's grammar and usage", () => {
    const grammar = COMMANDS.memory.grammar;
    const usage = memoryUsageLines();
    for (const v of MEMORY_VERB_TABLE) {
      const expected = v.command === undefined ? APPLY_PATCH_ARGUMENTS : MEMORY_COMMAND_ARGUMENTS[v.command];
      expect(
        spelledArguments(v).map(([arg]) => arg),
        v.verb,
      ).toEqual(Object.keys(expected));
      const line = usage.find((l) => l.startsWith(`  gitmem memory ${v.verb} `)) ?? '';
      const positionals: string[] = [];
      for (const [arg, s] of spelledArguments(v)) {
        if ('positional' in s) {
          positionals.push(s.positional);
          continue;
        }
        const fills = grammar.options?.[s.option]?.fills;
        expect([fills].flat(), `${v.verb} ${arg}`).toContain(arg);
        expect(line, `${v.verb} ${arg}`).toContain(`--${s.option}`);
      }
      expect(grammar.subcommands?.[v.verb], v.verb).toEqual(positionals);
      for (const p of positionals) expect(line, v.verb).toContain(p);
    }
  });

  it('a command added to the catalogue reaches the grammar, the spelling of errors and the usage with no other edit', () => {
    const append: MemoryVerb = {
      verb: 'append',
      tool: 'memory',
      command: 'append_text' as never,
      arguments: { file_path: 'required', insert_text: 'required', replace_all: 'optional', reason: 'required' },
      spellings: MEMORY_SPELLINGS,
    };
    const grammar = memoryGrammar([...MEMORY_VERB_TABLE, append]);
    expect(grammar.subcommands['append']).toEqual(['<path>']);
    expect(grammar.spells['append_text']).toBe('append');
    expect(grammar.options['text']?.fills).toEqual(['file_text', 'insert_text']);
    expect(memoryUsageLines([...MEMORY_VERB_TABLE, append])).toContain(
      '  gitmem memory append <path> --text T [--all] --reason R',
    );
    // An argument the command line cannot give is refused at once, not dropped.
    const unspelled = { ...append, arguments: { view_range: 'optional' as const } };
    expect(() => memoryGrammar([unspelled])).toThrow(/view_range has no command-line spelling/);
  });

  it('the rules say what the memory tool refuses: a call without a required argument names it', async () => {
    const fx = await memoryFixture('catalogue-rules');
    const value: Record<string, unknown> = {
      file_path: 'system/human.md',
      old_path: 'system/human.md',
      new_path: 'notes/moved.md',
      reason: 'a reason',
      description: 'a description',
      old_string: 'no such text anywhere',
      new_string: 'x',
      insert_line: 0,
      insert_text: 'x',
    };
    let checked = 0;
    for (const command of WRITE_COMMANDS) {
      const rule = MEMORY_COMMAND_ARGUMENTS[command] as Readonly<Record<string, string>>;
      for (const left of Object.keys(rule).filter((a) => rule[a] === 'required')) {
        const call: Record<string, unknown> = { command };
        for (const a of Object.keys(rule)) if (a !== left && rule[a] === 'required') call[a] = value[a];
        const err = await fx.memory.tool(call).then(
          () => undefined,
          (e: unknown) => e,
        );
        // A path is refused as INVALID_PATH, any other argument as INVALID_ARGUMENT; either names it.
        expect(
          isMemoryError(err, 'INVALID_ARGUMENT') || isMemoryError(err, 'INVALID_PATH'),
          `${command} without ${left}`,
        ).toBe(true);
        const data = (err as { data: { field?: string; missing?: string[] } }).data;
        expect(data.field ?? data.missing?.[0], `${command} without ${left}`).toBe(left);
        checked++;
      }
    }
    expect(checked).toBe(18);
    // The optional ones may be left out: a plain file from its path and reason alone.
    await expect(fx.memory.tool({ command: 'create', file_path: 'notes/a.json', reason: 'r' })).resolves.toMatchObject({
      paths: ['notes/a.json'],
    });
  });
});
