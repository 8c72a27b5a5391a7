/**
 * The real Claude Code and Codex CLI, driven offline against loopback fake model servers
 * (test/helpers/harness/): proof that the test infrastructure for issue 27 reaches what `gitmem connect` and
 * `gitmem hook` will rely on — a SessionStart hook's context in the model's request, gitmem's MCP server offered
 * as tools whose call makes one commit, and the end-of-session hook's stdin naming a transcript in the
 * documented shapes. Needs `npm run build` (the MCP server runs from dist/).
 *
 * GITMEM_RECORD_HARNESS_FIXTURES=1 copies the transcripts and hook inputs of these runs to
 * test/fixtures/harness/ (the recorded fixtures for the transcript parsers).
 */
import { copyFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GITMEM_BIN, runGitmem } from '../../helpers/cli.js';
import {
  contentText,
  messagesOf,
  offeredToolNames,
  startFakeAnthropic,
  type FakeAnthropic,
} from '../../helpers/harness/fake-anthropic.js';
import {
  inputItems,
  messageTexts,
  offeredTools,
  startFakeResponses,
  type FakeResponses,
} from '../../helpers/harness/fake-responses.js';
import { hookCalls, readJsonl, writeRecordingHook } from '../../helpers/harness/hook-scripts.js';
import { claudePaths, runClaude, writeJsonFile, type ClaudeRun } from '../../helpers/harness/run-claude.js';
import { codexPaths, runCodex, trustCodexHooks, type CodexRun } from '../../helpers/harness/run-codex.js';
import { REPO_ROOT } from '../../helpers/harness/spawn-harness.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const AGENT = 'spike';
const MARKER = 'MARKER-123';
const REASON = 'Remember that the harness spike ran (REASON-7f3a)';
const PROMPT = 'Please remember that the harness spike ran.';
const SESSION_START_OUTPUT = JSON.stringify({
  hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: MARKER },
});
const RECORD = process.env['GITMEM_RECORD_HARNESS_FIXTURES'] === '1';
const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'harness');

/** The memory tool call both fake models make (gitmem's `memory` tool, create). */
const CREATE = {
  command: 'create',
  file_path: 'notes/harness-spike.md',
  description: 'The harness spike',
  file_text: 'The spike ran.\n',
  reason: REASON,
};

interface Memory {
  gitmemHome: string;
  memoryDir: string;
  /** `gitmem mcp` for this memory: command, args, env. */
  server: { command: string; args: string[]; env: Record<string, string> };
}

/** A fresh agent memory made by `gitmem init`, and the MCP server command that serves it. */
function initMemory(root: string): Memory {
  const gitmemHome = join(root, 'gitmem-home');
  const r = runGitmem({ ...hermeticGitEnv(root), GITMEM_HOME: gitmemHome }, ['init', '--agent', AGENT, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const { memoryDir } = JSON.parse(r.stdout) as { memoryDir: string };
  return {
    gitmemHome,
    memoryDir,
    server: {
      command: process.execPath,
      args: [GITMEM_BIN, 'mcp', '--agent', AGENT],
      env: { GITMEM_HOME: gitmemHome, GITMEM_DAEMON: '0' },
    },
  };
}

/** Commit messages after `gitmem init`'s own commit, newest first. */
function commitsSinceInit(memoryDir: string): string[] {
  const all = git(memoryDir, ['log', '--format=%B%x00'])
    .split('\0')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  return all.slice(0, -1);
}

/** A project dir, a HOME and a directory for hook recordings under a fresh temp root. */
function dirs(prefix: string) {
  const root = makeTmpDir(prefix);
  const d = { root, home: join(root, 'home'), project: join(root, 'project'), hooks: join(root, 'hooks') };
  for (const p of [d.home, d.project, d.hooks]) mkdirSync(p, { recursive: true });
  return d;
}

function record(name: string, from: string | unknown): void {
  if (!RECORD) return;
  mkdirSync(FIXTURES, { recursive: true });
  if (typeof from === 'string') copyFileSync(from, join(FIXTURES, name));
  else writeFileSync(join(FIXTURES, name), `${JSON.stringify(from, null, 2)}\n`);
}

describe('Claude Code (the real `claude -p`) against the fake Anthropic server', { tags: ['harness'] }, () => {
  let fake: FakeAnthropic;
  let run: ClaudeRun;
  let d: ReturnType<typeof dirs>;
  let memory: Memory;

  beforeAll(async () => {
    d = dirs('gitmem-claude-');
    memory = initMemory(d.root);
    const hook = (label: string, output?: string) => [
      { hooks: [{ type: 'command', command: writeRecordingHook(d.hooks, label, output) }] },
    ];
    writeJsonFile(claudePaths(d.home).settings, {
      hooks: {
        SessionStart: hook('SessionStart', SESSION_START_OUTPUT),
        Stop: hook('Stop'),
        SessionEnd: hook('SessionEnd'),
      },
      // -p cannot ask for permission: an MCP tool must be allowed up front.
      permissions: { allow: ['mcp__gitmem__memory'] },
    });
    writeJsonFile(claudePaths(d.home).userConfig, { mcpServers: { gitmem: { type: 'stdio', ...memory.server } } });
    fake = await startFakeAnthropic([{ toolUse: { name: 'mcp__gitmem__memory', input: CREATE } }, { text: 'Noted.' }]);
    run = await runClaude({ prompt: PROMPT, cwd: d.project, home: d.home, baseURL: fake.baseURL });
  }, 150_000);

  afterAll(async () => {
    await fake?.close();
    cleanupTmp();
  });

  it('runs to the end against the fake alone: two agent-loop requests, nothing else', () => {
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('Noted.');
    expect(fake.requests.map((r) => r.url)).toEqual(['/v1/messages?beta=true', '/v1/messages?beta=true']);
    expect(fake.requests[0]?.body['stream']).toBe(true);
    expect(fake.otherRequests).toEqual([]);
  });

  it("puts a SessionStart hook's additionalContext into the request the model receives, as a system message", () => {
    const [start] = hookCalls(d.hooks, 'SessionStart');
    expect(start?.input).toMatchObject({
      hook_event_name: 'SessionStart',
      source: 'startup',
      cwd: realpathSync(d.project),
    });
    const system = messagesOf(fake.requests[0]!)
      .filter((m) => m.role === 'system')
      .map((m) => contentText(m.content));
    expect(system.some((t) => t.includes(`SessionStart hook additional context: ${MARKER}`))).toBe(true);
  });

  it('offers the gitmem MCP tools as mcp__gitmem__<tool>; a tool_use of mcp__gitmem__memory makes exactly one commit, its message the reason', () => {
    const offered = offeredToolNames(fake.requests[0]!);
    expect(offered).toEqual(
      expect.arrayContaining(['mcp__gitmem__memory', 'mcp__gitmem__memory_view', 'mcp__gitmem__memory_apply_patch']),
    );
    const answer = messagesOf(fake.requests[1]!).at(-1);
    expect(answer?.role).toBe('user');
    const result = (answer?.content as Record<string, unknown>[])[0];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_fake_0' });
    expect(result?.['is_error']).toBeUndefined();
    expect(contentText([result])).toContain('"commit"');
    expect(commitsSinceInit(memory.memoryDir)).toEqual([REASON]);
  });

  it('hands SessionEnd (and Stop) the transcript path on stdin; the transcript holds the session in the documented shapes', () => {
    const ends = hookCalls(d.hooks, 'SessionEnd');
    expect(ends).toHaveLength(1);
    const end = ends[0]!.input;
    expect(end).toMatchObject({
      hook_event_name: 'SessionEnd',
      cwd: realpathSync(d.project),
      reason: expect.any(String),
    });
    const sessionId = String(end['session_id']);
    const transcript = String(end['transcript_path']);
    expect(transcript).toBe(join(run.projectDir, `${sessionId}.jsonl`));
    expect(run.transcripts).toEqual([transcript]);
    expect(ends[0]!.transcriptBytesAtHook).toBeGreaterThan(0);
    const [stop] = hookCalls(d.hooks, 'Stop');
    expect(stop?.input).toMatchObject({
      hook_event_name: 'Stop',
      session_id: sessionId,
      transcript_path: transcript,
      stop_hook_active: false,
      last_assistant_message: 'Noted.',
    });
    expect(stop?.transcriptBytesAtHook).toBeGreaterThan(0);

    const records = readJsonl(transcript);
    const turns = records.filter((r) => r['type'] === 'user' || r['type'] === 'assistant');
    for (const r of turns) {
      expect(r).toMatchObject({
        uuid: expect.any(String),
        sessionId,
        cwd: realpathSync(d.project),
        timestamp: expect.any(String),
        isSidechain: false,
      });
      expect(r).toHaveProperty('parentUuid');
      expect((r['message'] as { role: string }).role).toBe(r['type']);
    }
    const blocks = turns.flatMap((r) => {
      const c = (r['message'] as { content: unknown }).content;
      return Array.isArray(c) ? (c as { type: string; name?: string }[]) : [{ type: 'string', text: c }];
    });
    expect(blocks).toEqual(
      expect.arrayContaining([
        { type: 'string', text: PROMPT },
        expect.objectContaining({ type: 'tool_use', name: 'mcp__gitmem__memory' }),
        expect.objectContaining({ type: 'tool_result' }),
      ]),
    );
    record('claude-code-session.jsonl', transcript);
    record('claude-code-hook-inputs.json', {
      SessionStart: hookCalls(d.hooks, 'SessionStart')[0]?.input,
      Stop: stop?.input,
      SessionEnd: end,
    });
  });
});

/** `[mcp_servers.gitmem]` for config.toml; `required` makes codex wait for it before the first request. */
function codexMcpToml(m: Memory): string {
  const env = Object.entries(m.server.env)
    .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
    .join(', ');
  return [
    '[mcp_servers.gitmem]',
    `command = ${JSON.stringify(m.server.command)}`,
    `args = [${m.server.args.map((a) => JSON.stringify(a)).join(', ')}]`,
    `env = { ${env} }`,
    'required = true',
    // exec runs with approval "never": without this every MCP call answers "requires approval".
    'default_tools_approval_mode = "approve"',
    '',
  ].join('\n');
}

function codexHooksJson(d: ReturnType<typeof dirs>, events: Record<string, string | undefined>): void {
  const hooks = Object.fromEntries(
    Object.entries(events).map(([event, output]) => [
      event,
      [{ hooks: [{ type: 'command', command: writeRecordingHook(d.hooks, event, output) }] }],
    ]),
  );
  writeJsonFile(codexPaths(join(d.root, 'codex-home')).hooks, { hooks });
}

describe('Codex CLI (the real `codex exec`) against the fake Responses server', { tags: ['harness'] }, () => {
  let fake: FakeResponses;
  let run: CodexRun;
  let d: ReturnType<typeof dirs>;
  let memory: Memory;
  let codexHome: string;

  beforeAll(async () => {
    d = dirs('gitmem-codex-');
    codexHome = join(d.root, 'codex-home');
    memory = initMemory(d.root);
    codexHooksJson(d, { SessionStart: SESSION_START_OUTPUT, Stop: undefined });
    writeFileSync(codexPaths(codexHome).config, codexMcpToml(memory));
    fake = await startFakeResponses([
      { toolSearch: { query: 'gitmem memory' } },
      { functionCall: { namespace: 'mcp__gitmem', name: 'memory', arguments: CREATE, callId: 'call_spike' } },
      { text: 'Noted.' },
    ]);
    run = await runCodex({
      prompt: PROMPT,
      cwd: d.project,
      home: d.home,
      codexHome,
      baseURL: fake.baseURL,
      bypassHookTrust: true,
    });
  }, 150_000);

  afterAll(async () => {
    await fake?.close();
    cleanupTmp();
  });

  it('runs to the end against the fake alone: three agent-loop requests, nothing else', () => {
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('Noted.');
    expect(fake.requests.map((r) => r.url)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses']);
    expect(fake.requests[0]?.headers['authorization']).toBe('Bearer sk-fake-key-for-tests');
    expect(fake.otherRequests).toEqual([]);
    expect(fake.sideRequests).toEqual([]);
  });

  it("puts a SessionStart hook's additionalContext into the request as a developer message just before the user's", () => {
    const [start] = hookCalls(d.hooks, 'SessionStart');
    expect(start?.input).toMatchObject({
      hook_event_name: 'SessionStart',
      source: 'startup',
      cwd: realpathSync(d.project),
      model: 'gpt-5.5',
    });
    const items = inputItems(fake.requests[0]!);
    const at = items.findIndex((it) => JSON.stringify(it['content']).includes(PROMPT));
    expect(items[at - 1]).toMatchObject({
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: MARKER }],
    });
  });

  it('offers gitmem as the deferred namespace mcp__gitmem; a namespaced function_call of memory makes exactly one commit, its message the reason', () => {
    const first = fake.requests[0]!;
    expect(offeredTools(first)).toContain('tool_search:');
    expect(messageTexts(first, 'developer').join('\n')).toMatch(/Deferred tool namespaces:\n- mcp__gitmem: /);
    const found = inputItems(fake.requests[1]!).find((it) => it['type'] === 'tool_search_output');
    const namespace = (found?.['tools'] as Record<string, unknown>[])[0];
    expect(namespace).toMatchObject({ type: 'namespace', name: 'mcp__gitmem' });
    expect(namespace?.['tools']).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'function', name: 'memory', defer_loading: true })]),
    );
    const output = inputItems(fake.requests[2]!).find((it) => it['type'] === 'function_call_output');
    expect(output).toMatchObject({ call_id: 'call_spike' });
    expect(JSON.stringify(output?.['output'])).toContain('\\"commit\\"');
    expect(commitsSinceInit(memory.memoryDir)).toEqual([REASON]);
  });

  it('hands Stop the rollout path on stdin; the rollout holds the session in the documented shapes', () => {
    const stops = hookCalls(d.hooks, 'Stop');
    expect(stops).toHaveLength(1);
    const stop = stops[0]!.input;
    expect(stop).toMatchObject({
      hook_event_name: 'Stop',
      cwd: realpathSync(d.project),
      model: 'gpt-5.5',
      stop_hook_active: false,
      last_assistant_message: 'Noted.',
    });
    expect(stop).toHaveProperty('turn_id');
    const sessionId = String(stop['session_id']);
    const rollout = String(stop['transcript_path']);
    expect(rollout.startsWith(`${codexPaths(codexHome).sessions}/`)).toBe(true);
    expect(rollout).toMatch(new RegExp(`/\\d{4}/\\d{2}/\\d{2}/rollout-[0-9T-]+-${sessionId}\\.jsonl$`));
    expect(run.transcripts).toEqual([rollout]);
    expect(stops[0]!.transcriptBytesAtHook).toBeGreaterThan(0);

    const records = readJsonl(rollout);
    for (const r of records) expect(Object.keys(r)).toEqual(expect.arrayContaining(['timestamp', 'type', 'payload']));
    // Each record carries its position in the file (0, 1, 2…): a record id that survives re-reading.
    expect(records.map((r) => r['ordinal'])).toEqual(records.map((_, i) => i));
    expect(records[0]).toMatchObject({
      type: 'session_meta',
      payload: { id: sessionId, cwd: realpathSync(d.project) },
    });
    const items = records
      .filter((r) => r['type'] === 'response_item')
      .map((r) => r['payload'] as Record<string, unknown>);
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'function_call',
          namespace: 'mcp__gitmem',
          name: 'memory',
          call_id: 'call_spike',
        }),
        expect.objectContaining({ type: 'function_call_output', call_id: 'call_spike' }),
      ]),
    );
    record('codex-rollout.jsonl', rollout);
    record('codex-hook-inputs.json', { SessionStart: hookCalls(d.hooks, 'SessionStart')[0]?.input, Stop: stop });
  });

  it("with codex's own default model (code mode: tools in an additional_tools item), a direct namespaced call of memory still commits", async () => {
    const t = dirs('gitmem-codex-default-');
    const home = join(t.root, 'codex-home');
    const m = initMemory(t.root);
    mkdirSync(home, { recursive: true });
    writeFileSync(codexPaths(home).config, codexMcpToml(m));
    const reason = 'Default model spike (REASON-d41c)';
    const modelFake = await startFakeResponses([
      { functionCall: { namespace: 'mcp__gitmem', name: 'memory', arguments: { ...CREATE, reason } } },
      { text: 'Noted.' },
    ]);
    try {
      const r = await runCodex({
        prompt: PROMPT,
        cwd: t.project,
        home: t.home,
        codexHome: home,
        baseURL: modelFake.baseURL,
        model: null,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const first = modelFake.requests[0]!;
      expect(first.body['model']).toBe('gpt-6.1-sol');
      expect(first.body['tools']).toBeUndefined();
      expect(offeredTools(first)).toContain('namespace:functions');
      expect(messageTexts(first, 'developer').join('\n')).toMatch(/Deferred tool namespaces:\n- mcp__gitmem: /);
      expect(commitsSinceInit(m.memoryDir)).toEqual([reason]);
    } finally {
      await modelFake.close();
    }
  }, 120_000);

  it('skips an untrusted hook without a word, and runs it once its trust record (what /hooks approval writes) is in config.toml', async () => {
    const t = dirs('gitmem-codex-trust-');
    const home = join(t.root, 'codex-home');
    codexHooksJson(t, { SessionStart: SESSION_START_OUTPUT });
    writeFileSync(codexPaths(home).config, '');
    const trustFake = await startFakeResponses([{ text: 'one' }, { text: 'two' }]);
    try {
      const opts = { prompt: PROMPT, cwd: t.project, home: t.home, codexHome: home, baseURL: trustFake.baseURL };
      const untrusted = await runCodex(opts);
      expect(untrusted.exitCode, untrusted.stderr).toBe(0);
      expect(JSON.stringify(trustFake.requests[0]?.body)).not.toContain(MARKER);
      expect(hookCalls(t.hooks, 'SessionStart')).toEqual([]);

      const keys = await trustCodexHooks({ cwd: t.project, home: t.home, codexHome: home });
      expect(keys).toEqual([`${codexPaths(home).hooks}:session_start:0:0`]);
      expect(readFileSync(codexPaths(home).config, 'utf8')).toMatch(
        /^\[hooks\.state\.".*:session_start:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"$/m,
      );
      const trusted = await runCodex(opts);
      expect(trusted.exitCode, trusted.stderr).toBe(0);
      expect(messageTexts(trustFake.requests[1]!, 'developer')).toContain(MARKER);
    } finally {
      await trustFake.close();
    }
  }, 120_000);
});
