// The read side over MCP, through the official client: output schemas (the client validates every
// structuredContent), annotations, memory_view / memory_history / the memory tool's view, resources
// gitmem://<agent>/<path> (paginated list, read, subscribe → notifications/resources/updated after a write),
// the compiled prompt as an MCP prompt, and the server's instructions.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

let fx: MemoryFixture;
let client: Client;
const updates: string[] = [];
const textOf = (r: unknown): string => (r as { content?: Array<{ text?: string }> }).content?.[0]?.text ?? '';

beforeAll(async () => {
  fx = await memoryFixture('mcp-reader');
  const adds = Array.from(
    { length: 120 },
    (_, i) => `*** Add File: bulk/f${String(i).padStart(3, '0')}.md\n+---\n+description: bulk ${i}\n+---\n+n${i}\n`,
  ).join('');
  await fx.memory.applyPatch({ reason: 'many files', patch: `*** Begin Patch\n${adds}*** End Patch` });
  await fx.memory.tool({
    command: 'create',
    reason: 'a note',
    file_path: 'notes/watched.md',
    description: 'watched note',
    file_text: 'first\n',
  });
  client = new Client({ name: 'gitmem-read-test', version: '1.0.0' });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(process.cwd(), 'dist/bin/gitmem.cjs'), 'mcp', '--agent', 'mcp-reader'],
      env: fx.env,
      stderr: 'ignore',
    }),
  );
});
afterAll(async () => {
  await client?.close();
  cleanupTmp();
});

describe('MCP read side', () => {
  it('every tool lists an output schema and honest annotations; the server gives instructions', async () => {
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
    for (const t of tools) expect(t.outputSchema?.type, t.name).toBe('object');
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    for (const name of ['memory_tree', 'memory_search', 'memory_log', 'memory_prompt', 'memory_view', 'memory_history'])
      expect(hints[name]).toMatchObject({ readOnlyHint: true });
    for (const name of ['memory', 'memory_apply_patch'])
      expect(hints[name]).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(client.getInstructions()).toMatch(/memory_view[\s\S]*gitmem:\/\/<agent>\/<path>[\s\S]*reason/);
  });

  it("memory_view, the memory tool's view and memory_history return structured content the client validates", async () => {
    const v = await client.callTool({ name: 'memory_view', arguments: { path: 'notes/watched.md' } });
    expect(textOf(v)).toBe(
      "Here's the content of notes/watched.md with line numbers:\n     1\t---\n     2\tdescription: watched note\n     3\t---\n     4\tfirst",
    );
    expect(v.structuredContent).toMatchObject({ kind: 'file', path: 'notes/watched.md', truncated: false });
    const root = await client.callTool({ name: 'memory', arguments: { command: 'view' } });
    expect(textOf(root)).toContain('\tnotes/watched.md — watched note');
    const before = git(fx.dir, ['rev-parse', 'HEAD']);
    const older = await client.callTool({ name: 'memory_view', arguments: { path: 'notes', at: 'HEAD~1' } });
    expect(older.isError).toBe(true);
    expect(textOf(older)).toMatch(/^FILE_NOT_FOUND: /);
    const h = await client.callTool({ name: 'memory_history', arguments: { path: 'notes/watched.md' } });
    expect(h.structuredContent).toMatchObject({
      entries: [{ reason: 'a note', writer: 'agent', files: [{ status: 'A', path: 'notes/watched.md' }] }],
    });
    expect(textOf(h)).toMatch(/^[0-9a-f]{7} \S+ agent mcp-reader: a note\n {4}A notes\/watched\.md$/);
    const log = await client.callTool({ name: 'memory_log', arguments: { limit: 1 } });
    expect(log.structuredContent).toMatchObject({ entries: [{ reason: 'a note' }] });
    expect(git(fx.dir, ['rev-parse', 'HEAD'])).toBe(before);
  });

  it('lists resources in pages from one commit, and reads a non-system file', async () => {
    const first = await client.listResources();
    expect(first.resources).toHaveLength(100);
    expect(first.nextCursor).toBeDefined();
    const second = await client.listResources({ cursor: first.nextCursor });
    const all = [...first.resources, ...second.resources];
    expect(second.nextCursor).toBeUndefined();
    expect(all.map((r) => r.name)).toEqual(git(fx.dir, ['ls-tree', '-r', '--name-only', 'HEAD']).split('\n'));
    const note = all.find((r) => r.name === 'notes/watched.md');
    expect(note).toMatchObject({
      uri: 'gitmem://mcp-reader/notes/watched.md',
      mimeType: 'text/markdown',
      description: 'watched note',
    });
    const read = await client.readResource({ uri: 'gitmem://mcp-reader/notes/watched.md' });
    expect(read.contents).toEqual([
      {
        uri: 'gitmem://mcp-reader/notes/watched.md',
        mimeType: 'text/markdown',
        text: '---\ndescription: watched note\n---\nfirst\n',
      },
    ]);
    await expect(client.readResource({ uri: 'gitmem://someone-else/notes/watched.md' })).rejects.toThrow(
      /Resource not found/,
    );
    await expect(client.readResource({ uri: 'gitmem://mcp-reader/../../etc/passwd' })).rejects.toThrow(
      /Resource not found/,
    );
    await expect(client.listResources({ cursor: 'garbage' })).rejects.toThrow(/cursor/);
  });

  it('a subscriber is told when its file changes on main, and only then', async () => {
    await client.subscribeResource({ uri: 'gitmem://mcp-reader/notes/watched.md' });
    await client.callTool({
      name: 'memory',
      arguments: {
        command: 'create',
        reason: 'other file',
        file_path: 'notes/other.md',
        description: 'o',
        file_text: 'o',
      },
    });
    const r = await client.callTool({
      name: 'memory',
      arguments: {
        command: 'str_replace',
        reason: 'edit watched',
        file_path: 'notes/watched.md',
        old_string: 'first',
        new_string: 'second',
      },
    });
    expect(r.isError).toBeFalsy();
    for (let i = 0; i < 200 && updates.length === 0; i++) await new Promise((res) => setTimeout(res, 25));
    expect(updates).toEqual(['gitmem://mcp-reader/notes/watched.md']);
    expect((await client.readResource({ uri: 'gitmem://mcp-reader/notes/watched.md' })).contents[0]).toMatchObject({
      text: expect.stringContaining('second'),
    });
    await client.unsubscribeResource({ uri: 'gitmem://mcp-reader/notes/watched.md' });
  });

  it('serves the compiled prompt as an MCP prompt', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['system_prompt']);
    const p = await client.getPrompt({ name: 'system_prompt', arguments: { mode: 'standard' } });
    const expected = await fx.memory.compilePrompt({ mode: 'standard' });
    expect(p.messages).toEqual([{ role: 'user', content: { type: 'text', text: expected } }]);
    await expect(client.getPrompt({ name: 'system_prompt', arguments: { mode: 'nope' } })).rejects.toThrow(
      /UNKNOWN_MODE|Unknown memory mode/,
    );
    await expect(client.getPrompt({ name: 'other' })).rejects.toThrow(/unknown prompt/);
  });

  it('words the prompt and memory_prompt for the memory tools it serves (surface tools), or the surface a client asks for', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts[0]?.arguments?.map((a) => a.name)).toEqual(['mode', 'preset', 'surface']);
    const promptText = async (args?: Record<string, string>): Promise<string> => {
      const content = (await client.getPrompt({ name: 'system_prompt', ...(args ? { arguments: args } : {}) }))
        .messages[0]?.content;
      return content?.type === 'text' ? content.text : '';
    };
    const tools = await promptText();
    expect(tools).toBe(await fx.memory.compilePrompt({ surface: 'tools' }));
    expect(tools).toContain('<projection>system/persona.md</projection>');
    for (const tool of ['`memory_view`', '`memory_search`', '`memory_apply_patch`']) expect(tools).toContain(tool);
    expect(tools).not.toMatch(/\$MEMORY_DIR|\bgrep\b|git commit/);
    expect(textOf(await client.callTool({ name: 'memory_prompt', arguments: {} }))).toBe(tools);
    expect(await promptText({ surface: 'shell' })).toBe(await fx.memory.compilePrompt());
    expect(textOf(await client.callTool({ name: 'memory_prompt', arguments: { surface: 'anthropic' } }))).toContain(
      '<projection>/memories/system/persona.md</projection>',
    );
    await expect(promptText({ surface: 'bash' })).rejects.toThrow(
      /Unknown prompt surface "bash" — expected one of: shell, tools, anthropic/,
    );
  });
});
