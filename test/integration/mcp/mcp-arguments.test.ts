/**
 * The MCP server's arguments: a bad `--agent` is one stderr line and exit 1 before any handshake, and
 * every tool checks its arguments against the schema it lists — wrong types, missing required keys and
 * undeclared keys are the same `isError` INVALID_ARGUMENT result for every tool, the repo unchanged.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

const CLI = join(process.cwd(), 'dist/bin/gitmem.cjs');
let fx: MemoryFixture;
let client: Client;

beforeAll(async () => {
  fx = await memoryFixture('mcp-args');
  client = new Client({ name: 'gitmem-args', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--agent', 'mcp-args'],
      env: fx.env,
      stderr: 'ignore',
    }),
  );
});
afterAll(async () => {
  await client?.close();
  cleanupTmp();
});

async function expectInvalid(name: string, args: Record<string, unknown>, mention: RegExp): Promise<void> {
  const before = git(fx.dir, ['rev-parse', 'HEAD']);
  const r = await client.callTool({ name, arguments: args });
  const label = `${name} ${JSON.stringify(args)} → ${JSON.stringify(r)}`;
  expect(r.isError, label).toBe(true);
  expect(r.structuredContent, label).toMatchObject({ code: 'INVALID_ARGUMENT' });
  const text = (r.content as Array<{ text: string }>)[0]?.text ?? '';
  expect(text, label).toMatch(/^INVALID_ARGUMENT: [^\n]+$/);
  expect(text, label).toMatch(mention);
  expect(git(fx.dir, ['rev-parse', 'HEAD'])).toBe(before);
}

const PATCH = '*** Begin Patch\n*** Add File: notes/p.md\n+---\n+description: p\n+---\n+hi\n*** End Patch';

describe('MCP tool arguments', () => {
  it('memory_log with a limit that is not a number is an error result, not 20 entries', async () => {
    await expectInvalid('memory_log', { limit: 'abc' }, /limit/);
    await expectInvalid('memory_log', { limit: null }, /limit/);
    const ok = await client.callTool({ name: 'memory_log', arguments: { limit: 1 } });
    expect(ok.isError).toBeFalsy();
    expect(JSON.parse((ok.content as Array<{ text: string }>)[0]?.text ?? '[]')).toHaveLength(1);
  });

  it('every tool refuses an undeclared argument the same way', async () => {
    const valid: Record<string, Record<string, unknown>> = {
      memory: { command: 'create', reason: 'r', file_path: 'notes/u.md', description: 'u', file_text: 'u' },
      memory_apply_patch: { reason: 'r', input: PATCH },
      memory_tree: {},
      memory_search: { query: 'x' },
      memory_log: {},
      memory_prompt: {},
      memory_view: {},
      memory_history: {},
    };
    const { tools } = await client.listTools();
    expect(Object.keys(valid).sort()).toEqual(tools.map((t) => t.name).sort());
    for (const [name, args] of Object.entries(valid)) await expectInvalid(name, { ...args, bogus_key: 1 }, /bogus_key/);
  });

  it('memory_apply_patch takes the patch only as the declared `input`', async () => {
    await expectInvalid('memory_apply_patch', { reason: 'r', patch: PATCH }, /patch/);
    const ok = await client.callTool({ name: 'memory_apply_patch', arguments: { reason: 'r', input: PATCH } });
    expect(ok.isError, JSON.stringify(ok)).toBeFalsy();
  });

  it('wrong types, enums and missing required arguments are refused before anything runs', async () => {
    await expectInvalid('memory', { command: 'create', reason: 5, file_path: 'a.md' }, /reason/);
    await expectInvalid('memory', { reason: 'r' }, /command/);
    await expectInvalid('memory', { command: 'explode', reason: 'r' }, /command/);
    await expectInvalid('memory_apply_patch', { input: PATCH }, /reason/);
    await expectInvalid('memory_prompt', { mode: 'loud' }, /mode/);
    await expectInvalid('memory_prompt', { preset: 7 }, /preset/);
    await expectInvalid('memory_view', { path: 3 }, /path/);
    await expectInvalid('memory_view', { view_range: '1-2' }, /view_range/);
    await expectInvalid('memory_view', { path: 'system/human.md', view_range: [0, 1] }, /view_range/);
    await expectInvalid('memory_history', { limit: 0 }, /limit/);
    await expectInvalid('memory_history', { since: 'later' }, /since/);
  });
});

describe('gitmem mcp with a bad --agent', () => {
  for (const agent of ['bad/id', '../x', 'no-such-agent']) {
    it(`--agent ${agent}: one stderr line, exit 1, nothing on the protocol channel`, () => {
      const r = spawnSync(process.execPath, [CLI, 'mcp', '--agent', agent], {
        env: fx.env,
        input: '',
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^gitmem: (INVALID_AGENT_ID|MEMORY_DIR_MISSING): .*/);
    });
  }

  it('the official client sees the failure at connect, and the line on stderr names it', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--agent', 'bad/id'],
      env: fx.env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const c = new Client({ name: 'bad-agent', version: '1.0.0' });
    await expect(c.connect(transport)).rejects.toThrow();
    expect(stderr).toMatch(/^gitmem: INVALID_AGENT_ID: invalid agent id "bad\/id"/);
  });
});
