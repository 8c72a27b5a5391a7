/**
 * Provider resolution and the sub-agent runtime against a fake OpenAI-compatible server on 127.0.0.1: the
 * real @ai-sdk/openai-compatible code builds the requests and parses JSON and SSE replies, including a
 * streamed tool call whose arguments arrive in pieces.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import type { GitmemConfigFile } from '../../../src/llm/config.js';
import { loadConfig } from '../../../src/config.js';
import { describeModel, resolveModel } from '../../../src/llm/provider.js';
import { appendRunLog, readRunLog } from '../../../src/reflection/run-log.js';
import { runSubAgent } from '../../../src/llm/sub-agent.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from '../../helpers/fake-openai.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';

const servers: FakeOpenAI[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  cleanupTmp();
});

async function fake(script: FakeReply[]): Promise<FakeOpenAI> {
  const s = await startFakeOpenAI(script);
  servers.push(s);
  return s;
}

async function errorOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  return undefined;
}

function root(): string {
  const dir = join(makeTmpDir('gitmem-prov-'), 'wt');
  mkdirSync(join(dir, 'system'), { recursive: true });
  writeFileSync(join(dir, 'system', 'human.md'), '---\ndescription: the user\n---\nName: Sam.\n');
  return dir;
}

const EDIT_SCRIPT: FakeReply[] = [
  { toolCalls: [{ name: 'read_file', args: { path: 'system/human.md' } }], usage: { prompt: 900, completion: 30 } },
  {
    toolCalls: [
      {
        name: 'edit_file',
        args: {
          path: 'system/human.md',
          old_string: 'Name: Sam.',
          new_string: 'Name: Sam.\nDeploys only via `make ship`.',
        },
      },
    ],
    usage: { prompt: 1000, completion: 60 },
  },
  { text: 'Recorded the deploy rule in system/human.md.', usage: { prompt: 1100, completion: 20 } },
];

describe('resolveModel', () => {
  it('without any model names every way to configure one', async () => {
    const err = await errorOf(resolveModel({ env: {}, config: {} }));
    expect(isMemoryError(err, 'MODEL_NOT_CONFIGURED')).toBe(true);
    const message = (err as Error).message;
    for (const needle of [
      '--model',
      'GITMEM_MODEL',
      '$GITMEM_HOME/config',
      'openai:<model>',
      'anthropic:<model>',
      'openai-compatible:<name>:<model>',
    ]) {
      expect(message).toContain(needle);
    }
  });

  it('builds provider instances from --model, GITMEM_MODEL or the config, and demands keys and base URLs', async () => {
    expect(
      describeModel(
        await resolveModel({ spec: 'openai:gpt-4.1-mini', env: { OPENAI_API_KEY: 'sk-test' }, config: {} }),
      ),
    ).toBe('openai.responses:gpt-4.1-mini');
    expect(
      describeModel(
        await resolveModel({
          settings: { spec: 'anthropic:claude-x' },
          env: { ANTHROPIC_API_KEY: 'k' },
          config: { model: 'openai:ignored' },
        }),
      ),
    ).toBe('anthropic.messages:claude-x');
    const cfg: GitmemConfigFile = {
      model: 'openai-compatible:local:qwen3:8b',
      providers: { local: { baseURL: 'http://127.0.0.1:1/v1' } },
    };
    expect(describeModel(await resolveModel({ env: {}, config: cfg }))).toBe('local.chat:qwen3:8b');
    expect(await errorOf(resolveModel({ spec: 'openai:gpt-x', env: {}, config: {} }))).toMatchObject({
      code: 'MODEL_NOT_CONFIGURED',
      message: expect.stringContaining('OPENAI_API_KEY'),
    });
    expect(
      await errorOf(
        resolveModel({ spec: 'anthropic:c', env: {}, config: { providers: { anthropic: { apiKeyEnv: 'MY_KEY' } } } }),
      ),
    ).toMatchObject({ message: expect.stringContaining('MY_KEY') });
    expect(await errorOf(resolveModel({ spec: 'openai-compatible:lm:m', env: {}, config: {} }))).toMatchObject({
      code: 'MODEL_NOT_CONFIGURED',
      message: expect.stringContaining('providers.lm.baseURL'),
    });
    expect(await errorOf(resolveModel({ spec: 'gpt-4o', env: {}, config: {} }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('sub-agent over a real provider and a fake OpenAI-compatible server', () => {
  it('generate path: tool calls round-trip, the file is edited, usage is summed and logged', async () => {
    const server = await fake(EDIT_SCRIPT);
    const model = await resolveModel({
      spec: 'openai-compatible:local:qwen3',
      env: { LOCAL_KEY: 'secret-123' },
      config: { providers: { local: { baseURL: server.baseURL, apiKeyEnv: 'LOCAL_KEY' } } },
    });
    const dir = root();
    const started = new Date().toISOString();
    const run = await runSubAgent({
      model,
      system: 'You maintain memory.',
      prompt: 'Reflect.',
      root: dir,
      limits: { maxSteps: 8, timeoutMs: 10_000 },
      maxRetries: 0,
    });
    expect(run).toMatchObject({
      steps: 3,
      finishReason: 'stop',
      text: 'Recorded the deploy rule in system/human.md.',
      usage: { inputTokens: 3000, outputTokens: 110, totalTokens: 3110 },
    });
    expect(readFileSync(join(dir, 'system/human.md'), 'utf8')).toContain('Deploys only via `make ship`.');
    expect(server.authorizations).toEqual(['Bearer secret-123', 'Bearer secret-123', 'Bearer secret-123']);
    const last = server.requests[2] as {
      model: string;
      messages: { role: string; content: unknown }[];
      tools: { function: { name: string } }[];
    };
    expect(last.model).toBe('qwen3');
    expect(last.messages[0]).toEqual({ role: 'system', content: 'You maintain memory.' });
    expect(last.messages.filter((m) => m.role === 'tool').map((m) => String(m.content))).toEqual([
      expect.stringContaining('Name: Sam.'),
      expect.stringContaining('Edited system/human.md'),
    ]);
    expect(last.tools.map((t) => t.function.name).sort()).toEqual([
      'edit_file',
      'grep',
      'list_dir',
      'read_file',
      'write_file',
    ]);

    const agentDir = join(dir, '..', 'agent');
    appendRunLog(agentDir, {
      kind: 'dream',
      startedAt: started,
      durationMs: run.durationMs,
      steps: run.steps,
      inputTokens: run.usage.inputTokens,
      outputTokens: run.usage.outputTokens,
      outcome: 'merged',
      model: describeModel(model),
    });
    expect(readRunLog(agentDir)).toEqual([
      expect.objectContaining({
        kind: 'dream',
        steps: 3,
        inputTokens: 3000,
        outputTokens: 110,
        model: 'local.chat:qwen3',
      }),
    ]);
  });

  it('stream path: a tool call streamed in pieces is assembled and executed; GITMEM_OPENAI_BASE_URL overrides the config', async () => {
    const server = await fake(EDIT_SCRIPT);
    const model = await resolveModel({
      spec: 'openai-compatible:local:qwen3',
      env: {},
      settings: loadConfig({ env: { GITMEM_OPENAI_BASE_URL: server.baseURL } }).model,
      config: { providers: { local: { baseURL: 'http://127.0.0.1:9/unused' } } },
    });
    const dir = root();
    const run = await runSubAgent({
      model,
      system: 's',
      prompt: 'p',
      root: dir,
      limits: { maxSteps: 8, timeoutMs: 10_000 },
      stream: true,
      maxRetries: 0,
    });
    expect(server.requests.every((r) => r['stream'] === true)).toBe(true);
    expect(server.authorizations[0]).toBe('');
    expect(run).toMatchObject({
      steps: 3,
      finishReason: 'stop',
      text: 'Recorded the deploy rule in system/human.md.',
      usage: { inputTokens: 3000, outputTokens: 110 },
    });
    expect(readFileSync(join(dir, 'system/human.md'), 'utf8')).toContain('Deploys only via `make ship`.');
  });

  it('an HTTP failure becomes MODEL_ERROR (no retries); a server that never answers is cut off by the timeout', async () => {
    const failing = await fake([{ status: 500 }, { status: 500 }]);
    const cfg = (url: string): GitmemConfigFile => ({ providers: { local: { baseURL: url } } });
    const model = await resolveModel({ spec: 'openai-compatible:local:m', env: {}, config: cfg(failing.baseURL) });
    for (const stream of [false, true]) {
      const err = await errorOf(
        runSubAgent({
          model,
          system: 's',
          prompt: 'p',
          root: root(),
          limits: { maxSteps: 3, timeoutMs: 5000 },
          stream,
          maxRetries: 0,
        }),
      );
      expect(isMemoryError(err, 'MODEL_ERROR'), `stream=${stream}`).toBe(true);
    }
    expect(failing.requests).toHaveLength(2);
    const hanging = await fake([{ hang: true }, { hang: true }]);
    const slow = await resolveModel({ spec: 'openai-compatible:local:m', env: {}, config: cfg(hanging.baseURL) });
    for (const stream of [false, true]) {
      const run = await runSubAgent({
        model: slow,
        system: 's',
        prompt: 'p',
        root: root(),
        limits: { maxSteps: 3, timeoutMs: 200 },
        stream,
        maxRetries: 0,
      });
      expect(run, `stream=${stream}`).toMatchObject({ steps: 0, stoppedBy: 'timeout' });
    }
  });
});

describe('openai: with a custom base URL', () => {
  it('talks Chat Completions, which every OpenAI-compatible server has (config baseURL or GITMEM_OPENAI_BASE_URL)', async () => {
    for (const how of ['config', 'env'] as const) {
      const server = await fake(EDIT_SCRIPT);
      const env = { OPENAI_API_KEY: 'sk-test', ...(how === 'env' ? { GITMEM_OPENAI_BASE_URL: server.baseURL } : {}) };
      const config: GitmemConfigFile = how === 'config' ? { providers: { openai: { baseURL: server.baseURL } } } : {};
      const model = await resolveModel({ spec: 'openai:gpt-x', env, settings: loadConfig({ env }).model, config });
      expect(describeModel(model)).toBe('openai.chat:gpt-x');
      const dir = root();
      const run = await runSubAgent({
        model,
        system: 's',
        prompt: 'p',
        root: dir,
        limits: { maxSteps: 5, timeoutMs: 10_000 },
        maxRetries: 0,
      });
      expect(run, how).toMatchObject({ steps: 3, finishReason: 'stop' });
      expect(server.authorizations[0]).toBe('Bearer sk-test');
      expect(readFileSync(join(dir, 'system/human.md'), 'utf8')).toContain('Deploys only via `make ship`.');
    }
  });
});

describe('provider retries', () => {
  const cfg = (url: string): GitmemConfigFile => ({ providers: { local: { baseURL: url } } });

  it('a 5xx is retried twice with short bounded delays; a 4xx is not retried', async () => {
    for (const stream of [false, true]) {
      const failing = await fake([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }]);
      const model = await resolveModel({ spec: 'openai-compatible:local:m', env: {}, config: cfg(failing.baseURL) });
      const delays: number[] = [];
      const retry = { sleep: async (ms: number) => void delays.push(ms) };
      const err = await errorOf(
        runSubAgent({
          model,
          system: 's',
          prompt: 'p',
          root: root(),
          limits: { maxSteps: 3, timeoutMs: 20_000 },
          stream,
          retry,
        }),
      );
      expect(isMemoryError(err, 'MODEL_ERROR'), `stream=${stream}`).toBe(true);
      expect(failing.requests, `stream=${stream}`).toHaveLength(3);
      expect(delays).toHaveLength(2);
      expect(delays.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2_000);
    }
    const bad = await fake([{ status: 400 }, { status: 400 }]);
    const model = await resolveModel({ spec: 'openai-compatible:local:m', env: {}, config: cfg(bad.baseURL) });
    const delays: number[] = [];
    const err = await errorOf(
      runSubAgent({
        model,
        system: 's',
        prompt: 'p',
        root: root(),
        limits: { maxSteps: 3, timeoutMs: 20_000 },
        retry: { sleep: async (ms: number) => void delays.push(ms) },
      }),
    );
    expect((err as Error).message).toContain('fake failure 400');
    expect([bad.requests.length, delays.length]).toEqual([1, 0]);
  });

  it('a refused connection (nothing listens) is not retried', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((r) => server.close(() => r()));
    const model = await resolveModel({
      spec: 'openai-compatible:local:m',
      env: {},
      config: cfg(`http://127.0.0.1:${port}/v1`),
    });
    const delays: number[] = [];
    const err = await errorOf(
      runSubAgent({
        model,
        system: 's',
        prompt: 'p',
        root: root(),
        limits: { maxSteps: 3, timeoutMs: 20_000 },
        retry: { sleep: async (ms: number) => void delays.push(ms) },
      }),
    );
    expect(isMemoryError(err, 'MODEL_ERROR')).toBe(true);
    expect((err as Error).message).toMatch(/ECONNREFUSED|connect/i);
    expect((err as Error).message).not.toMatch(/Failed after \d+ attempts/);
    expect(delays).toEqual([]);
  });
});

describe('anthropic provider against a fake /v1/messages', () => {
  it('runs a tool call and a final answer through the real Anthropic provider code', async () => {
    const bodies: { messages: { role: string; content: unknown }[] }[] = [];
    const keys: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof bodies)[number]);
        keys.push(String(req.headers['x-api-key'] ?? ''));
        const first = bodies.length === 1;
        const content = first
          ? [{ type: 'tool_use', id: 'toolu_1', name: 'list_dir', input: { path: 'system' } }]
          : [{ type: 'text', text: 'Nothing to change.' }];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `msg_${bodies.length}`,
            type: 'message',
            role: 'assistant',
            model: 'claude-x',
            content,
            stop_reason: first ? 'tool_use' : 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 50, output_tokens: 5 },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const model = await resolveModel({
        spec: 'anthropic:claude-x',
        env: { ANTHROPIC_API_KEY: 'ak-1' },
        config: { providers: { anthropic: { baseURL } } },
      });
      const warnings: string[] = [];
      const run = await runSubAgent({
        model,
        system: 's',
        prompt: 'p',
        root: root(),
        limits: { maxSteps: 4, timeoutMs: 10_000 },
        maxRetries: 0,
        onWarning: (m) => warnings.push(m),
      });
      expect(run).toMatchObject({
        steps: 2,
        text: 'Nothing to change.',
        usage: { inputTokens: 100, outputTokens: 10 },
      });
      // The SDK's warnings reach the caller (never console.info/warn: a CLI's stdout stays clean).
      expect(warnings.join('\n')).toMatch(/^model warning \(anthropic\.messages \/ claude-x\): .*maxOutputTokens/);
      expect(keys).toEqual(['ak-1', 'ak-1']);
      expect(JSON.stringify(bodies[1]?.messages)).toContain('system/human.md');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
