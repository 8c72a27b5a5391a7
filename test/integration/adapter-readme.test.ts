// The README's harness examples run as written (only `gitmem` and `gitmem/<surface>` point at the sources)
// against a fake Anthropic Messages API on loopback: the model's memory-tool call lands as a commit.
import { createServer, type Server } from 'node:http';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git } from '../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../helpers/memory-fixture.js';

const HERE = import.meta.dirname;
const REPO = resolve(HERE, '..', '..');

/** The ```ts block after `<!-- example: name -->` in the README. */
function example(name: string): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const m = new RegExp(`<!-- example: ${name} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!m?.[1]) throw new Error(`README has no example ${name}`);
  return m[1]
    .replace(/from 'gitmem'/g, "from '../../src/index.js'")
    .replace(/from 'gitmem\/(anthropic|ai-sdk)'/g, "from '../../src/adapters/$1/index.js'");
}

const TOOL_INPUT = {
  anthropic: { command: 'create', path: '/memories/drinks.md', file_text: '# Drinks\ngreen tea\n' },
  'ai-sdk': { command: 'create', reason: 'the user likes green tea', file_path: 'notes/tea.md', description: 'Drinks', file_text: 'green tea\n' },
};

/** The `system` of every request the fake API received (as JSON: a string or text blocks). */
const systems: string[] = [];

/** First call: a memory tool call; once a tool result comes back: the answer. */
function fakeMessagesApi(): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const r = JSON.parse(body) as { system?: unknown; tools?: Array<{ type?: string }>; messages: Array<{ content: unknown }> };
      systems.push(JSON.stringify(r.system ?? ''));
      const answered = JSON.stringify(r.messages).includes('"tool_result"');
      const native = (r.tools ?? []).some((t) => t.type === 'memory_20250818');
      const content = answered
        ? [{ type: 'text', text: 'Noted.' }]
        : [{ type: 'tool_use', id: 'toolu_1', name: 'memory', input: TOOL_INPUT[native ? 'anthropic' : 'ai-sdk'] }];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content,
        stop_reason: answered ? 'end_turn' : 'tool_use', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 },
      }));
    });
  });
}

let fx: MemoryFixture;
let server: Server;
const saved: Record<string, string | undefined> = {};
beforeAll(async () => {
  fx = await memoryFixture('ada');
  server = fakeMessagesApi();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const env = { ...fx.env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: 'test-key' };
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await new Promise((r) => server.close(r));
  cleanupTmp();
});

async function run(name: string): Promise<void> {
  const file = join(HERE, `.readme-example-${name}-${process.pid}.ts`);
  writeFileSync(file, `${example(name)}\nexport {};\n`);
  try {
    await import(file);
  } finally {
    rmSync(file, { force: true });
  }
}

describe('README harness examples', () => {
  it('Anthropic: the memory tool call becomes a commit (with frontmatter added); the prompt speaks of /memories', async () => {
    systems.length = 0;
    await run('anthropic');
    expect(systems[0]).toContain('<projection>/memories/system/persona.md</projection>');
    expect(git(fx.dir, ['log', '-1', '--format=%s'], fx.env).trim()).toBe('create drinks.md');
    expect((await fx.memory.read('drinks.md')).frontmatter).toEqual({ description: 'Drinks' });
  });

  it('AI SDK: the memory tool call becomes a commit, and the turn reaches the transcript; the prompt speaks of the memory tools', async () => {
    systems.length = 0;
    await run('ai-sdk');
    expect(systems[0]).toContain('<projection>system/persona.md</projection>');
    expect(git(fx.dir, ['log', '-1', '--format=%s'], fx.env).trim()).toBe('the user likes green tea');
    const transcript = join(fx.home, 'agents', 'ada', 'transcripts');
    await expect.poll(() => readFileSync(join(transcript, 'chat-1.jsonl'), 'utf8'), { timeout: 5000 }).toContain('Noted.');
  });
});
