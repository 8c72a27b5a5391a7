// gitmem for the Vercel AI SDK, driven by the SDK's own mock models: the memory tools in a multi-turn
// generateText loop land as commits (messages = the model's reasons); withMemory puts the prompt compiled at
// conversation start first in the system message of every call (unchanged after memory changes), records each
// turn in the transcript, and runs the post-turn sync and reflection in the background without holding the
// response; a reflection fires at the step threshold. Real git on /dev/shm.
import { join } from 'node:path';
import { generateText, stepCountIs, streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryMiddleware, memoryTools, withMemory, type AfterTurn } from '../../../src/adapters/ai-sdk/index.js';
import { readTranscript } from '../../../src/reflection/transcripts.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { scripted, usage } from '../../helpers/reflection-mock.js';

let fx: MemoryFixture;
beforeAll(async () => {
  fx = await memoryFixture('ai-agent');
});
afterAll(cleanupTmp);

const subjects = (n: number): string[] =>
  git(fx.dir, ['log', `-${n}`, '--format=%s'], fx.env)
    .trim()
    .split('\n');
const count = (): number => Number(git(fx.dir, ['rev-list', '--count', 'HEAD'], fx.env).trim());

/** The system text of each call the model received. */
const systems = (model: MockLanguageModelV3): string[] =>
  model.doGenerateCalls.map((c) =>
    c.prompt
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n'),
  );

describe('memoryTools + withMemory in a generateText loop', () => {
  it('lands each tool call as one commit, keeps the system prompt stable and records every turn', async () => {
    const agent = scripted([
      {
        calls: [
          {
            name: 'memory',
            input: {
              command: 'create',
              reason: 'user likes tea',
              file_path: 'notes/drinks.md',
              description: 'Drinks the user likes',
              file_text: 'tea\n',
            },
          },
        ],
      },
      { text: 'Noted: you like tea.' },
      {
        calls: [
          {
            name: 'memory_apply_patch',
            input: {
              reason: 'also coffee',
              input: '*** Begin Patch\n*** Update File: notes/drinks.md\n@@\n tea\n+coffee\n*** End Patch',
            },
          },
        ],
      },
      {
        calls: [
          { name: 'memory_view', input: { path: 'notes/drinks.md' } },
          {
            name: 'memory',
            input: {
              command: 'str_replace',
              reason: 'green tea',
              file_path: 'notes/drinks.md',
              old_string: 'tea',
              new_string: 'green tea',
            },
          },
        ],
      },
      { text: 'Updated.' },
    ]);
    const after: AfterTurn[] = [];
    const middleware = memoryMiddleware({
      memory: fx.memory,
      conversationId: 'conv-1',
      reflection: false,
      onAfterTurn: (a) => after.push(a),
    });
    const { wrapLanguageModel } = await import('ai');
    const model = wrapLanguageModel({ model: agent, middleware });
    const tools = memoryTools(fx.memory);
    expect(Object.keys(tools)).toEqual(['memory', 'memory_apply_patch', 'memory_view', 'memory_search']);
    const start = count();
    const compiledAtStart = await fx.memory.compilePrompt({ surface: 'tools' });

    const first = await generateText({
      model,
      tools,
      stopWhen: stepCountIs(5),
      system: 'Be brief.',
      prompt: 'I like tea.',
    });
    expect(first.text).toBe('Noted: you like tea.');
    expect(count()).toBe(start + 1);
    expect(subjects(1)).toEqual(['user likes tea']);

    const second = await generateText({
      model,
      tools,
      stopWhen: stepCountIs(5),
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'I like tea.' },
        ...first.response.messages,
        { role: 'user', content: 'And coffee; make it green tea.' },
      ],
    });
    expect(second.text).toBe('Updated.');
    expect(count()).toBe(start + 3);
    expect(subjects(2)).toEqual(['green tea', 'also coffee']);
    expect((await fx.memory.read('notes/drinks.md')).body).toBe('green tea\ncoffee\n');
    const viewed = second.steps[1]?.toolResults.find((r) => r.toolName === 'memory_view');
    expect(String(viewed?.output)).toContain('     1\t---');

    // The prompt compiled at conversation start, first in the system message, in all five calls.
    const s = systems(agent);
    expect(s).toHaveLength(5);
    expect(new Set(s).size).toBe(1);
    expect(s[0]).toBe(`${compiledAtStart}\n\nBe brief.`);
    expect(s[0]).not.toContain('drinks.md'); // written during the conversation: not in its prompt

    await middleware.idle();
    expect(after.map((a) => [a.rows, a.sync.status])).toEqual([
      [3, 'no_remote'],
      [5, 'no_remote'],
    ]);
    const rows = readTranscript(join(fx.home, 'agents', 'ai-agent'), 'conv-1');
    expect(rows.map((r) => r.kind)).toEqual([
      'user',
      'tool_call',
      'assistant',
      'user',
      'tool_call',
      'tool_call',
      'tool_call',
      'assistant',
    ]);
    expect(rows[1]).toMatchObject({ kind: 'tool_call', name: 'memory', resultOk: true });
  });

  it("runs turns' background work in turn order, even when an earlier turn's sync is slow", async () => {
    const agent = scripted([{ text: 'one' }, { text: 'two' }]);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    let calls = 0;
    const sync = async (): Promise<never> => {
      const n = ++calls;
      if (n === 1) await gate; // the first turn's sync is held until the second turn has answered
      order.push(`sync ${n}`);
      return { status: 'no_remote' } as never;
    };
    const middleware = memoryMiddleware({
      memory: fx.memory,
      conversationId: 'conv-order',
      reflection: false,
      sync,
      onAfterTurn: (a) => order.push(`after ${a.rows}`),
    });
    const { wrapLanguageModel } = await import('ai');
    const model = wrapLanguageModel({ model: agent, middleware });
    await generateText({ model, prompt: 'first' });
    const second = await generateText({
      model,
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'one' },
        { role: 'user', content: 'second' },
      ],
    });
    expect(second.text).toBe('two');
    await new Promise((r) => setTimeout(r, 50));
    release();
    await middleware.idle();
    expect(order).toEqual(['sync 1', 'after 2', 'sync 2', 'after 2']);
    const rows = readTranscript(join(fx.home, 'agents', 'ai-agent'), 'conv-order');
    expect(rows.map((r) => ('text' in r ? r.text : r.kind))).toEqual(['first', 'one', 'second', 'two']);
  });

  it('answers before the post-turn work runs, and a stream turn is recorded too', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let synced = false;
    const stream = new MockLanguageModelV3({
      doStream: async () => ({
        stream: convertArrayToReadableStream([
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Hello ' },
          { type: 'text-delta', id: 't', delta: 'there.' },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(10, 2) },
        ]),
      }),
    });
    const middleware = memoryMiddleware({
      memory: fx.memory,
      conversationId: 'conv-2',
      reflection: false,
      sync: async () => (await gate, (synced = true), { status: 'clean' } as never),
    });
    const { wrapLanguageModel } = await import('ai');
    const r = streamText({ model: wrapLanguageModel({ model: stream, middleware }), prompt: 'hi' });
    expect(await r.text).toBe('Hello there.');
    expect(synced).toBe(false); // the answer did not wait for the sync
    release();
    await middleware.idle();
    expect(synced).toBe(true);
    expect(
      readTranscript(join(fx.home, 'agents', 'ai-agent'), 'conv-2').map((row) => [
        row.kind,
        'text' in row ? row.text : '',
      ]),
    ).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello there.'],
    ]);
  });

  it('words the system prompt for the memory tools the model has (surface tools), or for a shell when asked', async () => {
    const { wrapLanguageModel } = await import('ai');
    const say = async (prompt?: { surface: 'shell' }): Promise<string> => {
      const model = scripted([{ text: 'ok' }]);
      const middleware = memoryMiddleware({
        memory: fx.memory,
        conversationId: 'conv-surface',
        reflection: false,
        sync: false,
        ...(prompt ? { prompt } : {}),
      });
      await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'hi' });
      await middleware.idle();
      return systems(model)[0] ?? '';
    };
    const tools = await say();
    expect(tools).toBe(await fx.memory.compilePrompt({ surface: 'tools' }));
    expect(tools).toContain('<projection>system/persona.md</projection>');
    for (const tool of ['`memory_view`', '`memory_search`', '`memory_apply_patch`']) expect(tools).toContain(tool);
    expect(tools).not.toMatch(/\$MEMORY_DIR|\bgrep\b|git commit/);
    const shell = await say({ surface: 'shell' });
    expect(shell).toBe(await fx.memory.compilePrompt());
    expect(shell).toContain('$MEMORY_DIR');
  });

  it('refuses a model id string and an unknown tool name', () => {
    expect(() => withMemory('openai/gpt-4.1', { memory: fx.memory, conversationId: 'x' })).toThrow(/model instance/);
    expect(() => memoryTools(fx.memory, { include: ['memory', 'nope' as never] })).toThrow(/unknown tool nope/);
    expect(Object.keys(memoryTools(fx.memory, { include: ['memory_view'] }))).toEqual(['memory_view']);
  });
});

describe('post-turn sync and tool refusals', () => {
  it("pushes the turn's commits to origin after the turn", async () => {
    const remote = makeTmpDir('gitmem-origin-');
    git(remote, ['init', '-q', '--bare'], fx.env);
    git(fx.dir, ['remote', 'add', 'origin', remote], fx.env);
    try {
      const agent = scripted([
        {
          calls: [
            {
              name: 'memory',
              input: {
                command: 'create',
                reason: 'a fact',
                file_path: 'notes/fact.md',
                description: 'A fact',
                file_text: 'sky is blue\n',
              },
            },
          ],
        },
        { text: 'Saved.' },
      ]);
      const after: AfterTurn[] = [];
      const middleware = memoryMiddleware({
        memory: fx.memory,
        conversationId: 'conv-sync',
        reflection: false,
        onAfterTurn: (a) => after.push(a),
      });
      const { wrapLanguageModel } = await import('ai');
      await generateText({
        model: wrapLanguageModel({ model: agent, middleware }),
        tools: memoryTools(fx.memory),
        stopWhen: stepCountIs(3),
        prompt: 'remember',
      });
      await middleware.idle();
      expect(after[0]?.sync).toMatchObject({ status: 'pushed' });
      expect(git(remote, ['log', '-1', '--format=%s', 'main'], fx.env).trim()).toBe('a fact');
    } finally {
      git(fx.dir, ['remote', 'remove', 'origin'], fx.env);
    }
  });

  it("a refused write reaches the model as the tool's error, nothing committed", async () => {
    const head = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    const agent = scripted([
      {
        calls: [
          {
            name: 'memory',
            input: {
              command: 'str_replace',
              reason: 'x',
              file_path: 'system/human.md',
              old_string: 'no such text anywhere',
              new_string: 'y',
            },
          },
        ],
      },
      { text: 'Could not.' },
    ]);
    const r = await generateText({
      model: agent,
      tools: memoryTools(fx.memory),
      stopWhen: stepCountIs(3),
      prompt: 'edit',
    });
    const error = r.steps[0]?.content.find((p) => p.type === 'tool-error');
    expect(String((error as { error?: unknown } | undefined)?.error)).toMatch(/old_string was not found/);
    expect(git(fx.dir, ['rev-parse', 'HEAD'], fx.env)).toBe(head);
  });
});

describe('reflection after turns', { tags: ['sandbox'] }, () => {
  it('fires at the step threshold, in the background', async () => {
    const agent = scripted([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    const reflector = scripted([{ text: 'Nothing worth keeping.' }]);
    const after: AfterTurn[] = [];
    const model = withMemory(agent, {
      memory: fx.memory,
      conversationId: 'conv-3',
      sync: false,
      reflection: {
        model: reflector,
        env: fx.env,
        settings: { trigger: 'step-count', stepCount: 2 },
        run: { maxRetries: 0 },
      },
      onAfterTurn: (a) => after.push(a),
    });
    const turns: Array<{ role: 'user' | 'assistant'; content: string }> = [];
    for (const q of ['q1', 'q2']) {
      turns.push({ role: 'user', content: q });
      const r = await generateText({ model, messages: turns });
      turns.push({ role: 'assistant', content: r.text });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await expect.poll(() => after.length).toBe(2);
    expect(after[0]?.reflection).toMatchObject({ state: 'skipped' });
    const launch = after[1]?.reflection as { state: string; trigger: string; done: Promise<unknown> };
    expect(launch).toMatchObject({ state: 'started', trigger: 'step-count' });
    expect(await launch.done).toMatchObject({ launched: true, status: 'no_changes' });
    expect(reflector.doGenerateCalls).toHaveLength(1);
  });
});
