/**
 * Search on every surface: `gitmem search` (its own process and through the CLI daemon) and the MCP tool
 * `memory_search` through the official MCP client.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, GITMEM_BIN, type CliMode } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const create = (path: string, description: string, text: string) =>
  JSON.stringify({ command: 'create', reason: `add ${path}`, file_path: path, description, file_text: text });

describe.each<CliMode>(['local', 'daemon'])('gitmem search (%s)', (mode) => {
  const h = cliHome(mode, ['a1']);
  afterAll(() => h.close());

  it('prints path:line  snippet  (score), --json hits, and searches --at an older revision', () => {
    expect(
      h.run([
        'memory',
        'tool',
        '--agent',
        'a1',
        '--call',
        create('notes/tea.md', 'drinks', 'Prefers green tea\nin the morning'),
      ]).code,
    ).toBe(0);
    const before = git(h.memoryDir('a1'), ['rev-parse', 'HEAD']);
    expect(h.run(['memory', 'delete', 'notes/tea.md', '--agent', 'a1', '--reason', 'forget']).code).toBe(0);
    expect(h.run(['search', 'green tea', '--agent', 'a1']).stdout.trim()).toBe('No matches.');
    const text = h.run(['search', 'green tea', '--agent', 'a1', '--at', before]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^notes\/tea\.md:4 {2}Prefers green tea {2}\(\d+\.\d{3}\)\n$/);
    const json = h.run([
      'search',
      'morning',
      '--agent',
      'a1',
      '--at',
      before,
      '--json',
      '--limit',
      '1',
      '--path',
      'notes/**',
    ]);
    expect(JSON.parse(json.stdout)).toEqual([
      { path: 'notes/tea.md', line: 5, snippet: 'in the morning', score: expect.any(Number), description: 'drinks' },
    ]);
  });

  it('refuses bad arguments with a code and no stack trace', () => {
    expect(errorCode(h.run(['search', 'x', '--agent', 'a1', '--limit', 'ten']))).toBe('INVALID_ARGUMENT');
    expect(errorCode(h.run(['search', 'x', '--agent', 'a1', '--at', 'nope']))).toBe('UNKNOWN_REVISION');
    expect(errorCode(h.run(['search', 'x', '--agent', 'a1', '--mode', 'semantic']))).toBe('MODEL_NOT_CONFIGURED');
    expect(errorCode(h.run(['search', '--agent', 'a1']))).toBe('INVALID_ARGUMENT');
  });

  if (mode === 'daemon') {
    it('is served by the daemon', () => {
      const before = h.served();
      expect(h.run(['search', 'tea', '--agent', 'a1']).code).toBe(0);
      expect(h.served()).toBe(before + 1);
    });
  }
});

describe('memory_search over MCP (official client)', () => {
  it('lists the tool read-only with an output schema and returns structured hits', async () => {
    const h = cliHome('local', ['m1']);
    expect(
      h.run(['memory', 'tool', '--agent', 'm1', '--call', create('notes/cat.md', 'pets', 'The cat is called Miso')])
        .code,
    ).toBe(0);
    const client = new Client({ name: 'search-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [GITMEM_BIN, 'mcp', '--agent', 'm1'],
        env: h.env,
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'memory_search');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
      expect(tool?.outputSchema).toBeDefined();
      expect(tool?.inputSchema.required).toEqual(['query']);
      const r = await client.callTool({
        name: 'memory_search',
        arguments: { query: 'miso', paths: ['notes/**'], limit: 5 },
      });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({
        hits: [
          {
            path: 'notes/cat.md',
            line: 4,
            snippet: 'The cat is called Miso',
            score: expect.any(Number),
            description: 'pets',
          },
        ],
      });
      const bad = await client.callTool({ name: 'memory_search', arguments: { query: 'x', at: 'no-such' } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('UNKNOWN_REVISION');
      const hostile = await client.callTool({ name: 'memory_search', arguments: { query: 'x'.repeat(5000) } });
      expect(hostile.isError).toBe(true);
      expect(JSON.stringify(hostile.content)).toContain('INVALID_ARGUMENT');
    } finally {
      await client.close();
    }
  });
});

it('keeps the index out of the work tree of every agent', () => {
  const h = cliHome('local', ['w1']);
  h.run(['search', 'anything', '--agent', 'w1']);
  expect(git(join(h.home, 'agents', 'w1', 'memory'), ['status', '--porcelain', '--ignored'])).toBe('');
});

it('importing gitmem does not load the search engine; the first search does', async () => {
  const h = cliHome('local', ['e1']);
  const script = `
    const { createRequire } = await import('node:module');
    const cache = () => Object.keys(createRequire(process.env.DIST).cache).some((k) => k.includes('better-sqlite3'));
    const { createMemory } = await import(process.env.DIST);
    const memory = await createMemory({ home: process.env.GITMEM_HOME, agentId: 'e1' });
    const before = cache();
    await memory.search('anything');
    process.stdout.write(JSON.stringify({ before, after: cache() }));`;
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...h.env, DIST: join(process.cwd(), 'dist', 'index.js') },
    encoding: 'utf8',
  });
  expect(JSON.parse(out)).toEqual({ before: false, after: true });
});
