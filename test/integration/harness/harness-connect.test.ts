/**
 * `gitmem connect` end to end with the real programs: the real Claude Code (`claude -p`) and Codex (`codex
 * exec`), pinned in devDependencies, against loopback fake model servers, with a temp HOME / CODEX_HOME.
 * After `gitmem connect`: a marker in `system/` memory reaches the request the model receives (the
 * session-start hook); the model's call of the gitmem memory tool is exactly one commit whose message is its
 * reason; at session end (Codex: at a turn's end) a reflection over the session's transcript runs, its model a
 * second fake, and its merge lands on main; the hook run again reflects nothing twice; `disconnect` restores
 * the settings files byte for byte. Needs `npm run build` (the hooks and the MCP server run from dist/).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from '../../helpers/fake-openai.js';
import { jobIdle, until, writesNote } from '../../helpers/harness/reflection-job.js';
import { runGitmem } from '../../helpers/cli.js';
import {
  contentText,
  messagesOf,
  startFakeAnthropic,
  type FakeAnthropic,
} from '../../helpers/harness/fake-anthropic.js';
import { inputItems, startFakeResponses, type FakeResponses } from '../../helpers/harness/fake-responses.js';
import { claudePaths, runClaude, type ClaudeRun } from '../../helpers/harness/run-claude.js';
import { codexPaths, runCodex, type CodexRun } from '../../helpers/harness/run-codex.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const AGENT = 'agent-h';
const MARKER = 'MARKER-CONNECT-5e1d';
const PROMPT = 'Please remember that the connect test ran.';
const CREATE = (reason: string) => ({
  command: 'create',
  file_path: 'notes/connect-test.md',
  description: 'The connect test',
  file_text: 'The connect test ran.\n',
  reason,
});

let reflectionModel: FakeOpenAI;
let reflectionScript: (body: Record<string, unknown>) => FakeReply = () => ({ text: 'done.' });

beforeAll(async () => {
  reflectionModel = await startFakeOpenAI((body) => reflectionScript(body));
});
afterAll(async () => {
  await reflectionModel?.close();
  cleanupTmp();
});

interface Setup {
  root: string;
  home: string;
  project: string;
  gitmemHome: string;
  memoryDir: string;
  env: Record<string, string>;
  gitmem: (args: string[]) => ReturnType<typeof runGitmem>;
}

/** A HOME, a project (a git repository), a gitmem home with one agent whose system/ holds the marker, a reflection model. */
function setup(prefix: string): Setup {
  const root = makeTmpDir(prefix);
  const home = join(root, 'home');
  const project = join(root, 'project');
  const gitmemHome = join(home, '.gitmem');
  for (const d of [home, project]) mkdirSync(d, { recursive: true });
  git(project, ['init', '-q']);
  const env = {
    ...hermeticGitEnv(root),
    HOME: home,
    GITMEM_HOME: gitmemHome,
    GITMEM_DAEMON: '0',
    CODEX_HOME: join(home, '.codex'),
  };
  const gitmem = (args: string[]) => runGitmem(env, args, { cwd: project });
  expect(gitmem(['init', '--agent', AGENT]).code).toBe(0);
  const w = gitmem([
    'memory',
    'create',
    'system/project.md',
    '--agent',
    AGENT,
    '--description',
    'Project facts',
    '--text',
    `${MARKER}: the project is tested offline.`,
    '--reason',
    'seed',
  ]);
  expect(w.code, w.stderr).toBe(0);
  writeFileSync(
    join(gitmemHome, 'config'),
    JSON.stringify({
      model: 'openai-compatible:local:fake-model',
      providers: { local: { baseURL: reflectionModel.baseURL } },
    }),
  );
  return { root, home, project, gitmemHome, memoryDir: join(gitmemHome, 'agents', AGENT, 'memory'), env, gitmem };
}

const subjects = (memoryDir: string, n = 10): string[] => git(memoryDir, ['log', '--format=%s', `-${n}`]).split('\n');

const jobDone = (s: Setup) => jobIdle(s.gitmemHome, AGENT);

describe(
  'Claude Code (the real `claude -p`) after `gitmem connect claude-code`',
  { tags: ['harness', 'sandbox'] },
  () => {
    let s: Setup;
    let fake: FakeAnthropic;
    let run: ClaudeRun;
    let before: { settings: string };
    const reason = 'Remember the connect test ran (REASON-c1)';

    beforeAll(async () => {
      s = setup('gitmem-connect-claude-');
      // The user's own settings: a permission rule (`-p` cannot ask) that connect must keep byte for byte.
      mkdirSync(join(s.home, '.claude'), { recursive: true });
      before = { settings: `{\n  "permissions": {\n    "allow": ["mcp__gitmem__memory"]\n  }\n}\n` };
      writeFileSync(claudePaths(s.home).settings, before.settings);
      const c = s.gitmem(['connect', 'claude-code', '--agent', AGENT]);
      expect(c.code, c.stderr).toBe(0);
      reflectionScript = writesNote(
        'notes/claude-session.md',
        'What the Claude Code session taught',
        'The user ran the connect test.',
      );
      fake = await startFakeAnthropic([
        { toolUse: { name: 'mcp__gitmem__memory', input: CREATE(reason) } },
        { text: 'Noted.' },
      ]);
      run = await runClaude({
        prompt: PROMPT,
        cwd: s.project,
        home: s.home,
        baseURL: fake.baseURL,
        env: { GITMEM_HOME: s.gitmemHome, GITMEM_DAEMON: '0' },
      });
    }, 180_000);

    afterAll(async () => {
      await fake?.close();
    });

    it('puts the memory (a system/ marker) into the request the model receives', () => {
      expect(run.exitCode, run.stderr).toBe(0);
      const system =
        messagesOf(fake.requests[0]!)
          .map((m) => contentText(m.content))
          .join('\n') + JSON.stringify(fake.requests[0]!.body['system'] ?? '');
      expect(system).toContain(MARKER);
    });

    it("makes the model's mcp__gitmem__memory call exactly one commit whose message is the reason", () => {
      const log = subjects(s.memoryDir);
      expect(log.filter((l) => l === reason)).toHaveLength(1);
      expect(git(s.memoryDir, ['show', `HEAD~0:notes/connect-test.md`])).toContain('The connect test ran.');
    });

    it('reflects over the session at its end (a second fake model) and merges on main; the hook again reflects nothing twice', async () => {
      await until('the reflection merge', () =>
        subjects(s.memoryDir).includes('merge(reflection): What the Claude Code session taught'),
      );
      await until('the job to finish', jobDone(s));
      expect(git(s.memoryDir, ['show', 'HEAD:notes/claude-session.md'])).toContain('The user ran the connect test.');
      const requests = reflectionModel.requests.length;
      const head = git(s.memoryDir, ['rev-parse', 'HEAD']);
      const transcript = run.transcripts.find((t) => !t.includes('/subagents/'));
      expect(transcript).toBeDefined();
      const input = JSON.stringify({
        session_id: transcript!
          .split('/')
          .pop()!
          .replace(/\.jsonl$/, ''),
        transcript_path: transcript,
        cwd: s.project,
        hook_event_name: 'SessionEnd',
      });
      const again = runGitmem(s.env, ['hook', 'claude-code', 'session-end', '--agent', AGENT], {
        input,
        cwd: s.project,
      });
      expect(again.code, again.stderr).toBe(0);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(reflectionModel.requests.length).toBe(requests);
      expect(git(s.memoryDir, ['rev-parse', 'HEAD'])).toBe(head);
    }, 120_000);

    it('disconnect restores settings.json byte for byte and takes gitmem out of ~/.claude.json', () => {
      const d = s.gitmem(['disconnect', 'claude-code']);
      expect(d.code, d.stderr).toBe(0);
      expect(readFileSync(claudePaths(s.home).settings, 'utf8')).toBe(before.settings);
      const user = existsSync(claudePaths(s.home).userConfig)
        ? (JSON.parse(readFileSync(claudePaths(s.home).userConfig, 'utf8')) as Record<string, Record<string, unknown>>)
        : {};
      expect(user['mcpServers']?.['gitmem']).toBeUndefined();
    });
  },
);

describe('Codex (the real `codex exec`) after `gitmem connect codex`', { tags: ['harness', 'sandbox'] }, () => {
  let s: Setup;
  let fake: FakeResponses;
  let run: CodexRun;
  let connectOut: string;
  const before = { config: '# my codex settings\nmodel_reasoning_effort = "low"\n\n[tui]\nnotifications = true\n' };
  const reason = 'Remember the connect test ran (REASON-x1)';

  beforeAll(async () => {
    s = setup('gitmem-connect-codex-');
    const codexHome = join(s.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(codexPaths(codexHome).config, before.config);
    const c = s.gitmem(['connect', 'codex', '--agent', AGENT]);
    expect(c.code, c.stderr).toBe(0);
    connectOut = `${c.stdout}${c.stderr}`;
    // The reflection runs when a turn ends (Codex has no session end): every turn, here.
    mkdirSync(join(s.gitmemHome, 'agents', AGENT), { recursive: true });
    writeFileSync(
      join(s.gitmemHome, 'agents', AGENT, 'config.json'),
      JSON.stringify({ reflection: { trigger: 'step-count', stepCount: 1 } }),
    );
    reflectionScript = writesNote(
      'notes/codex-session.md',
      'What the Codex session taught',
      'The user ran the connect test.',
    );
    fake = await startFakeResponses([
      { toolSearch: { query: 'gitmem memory' } },
      { functionCall: { namespace: 'mcp__gitmem', name: 'memory', arguments: CREATE(reason), callId: 'call_connect' } },
      { text: 'Noted.' },
    ]);
    // Tests only: the trust gate is bypassed here (connect never does), and exec cannot approve a tool call.
    run = await runCodex({
      prompt: PROMPT,
      cwd: s.project,
      home: s.home,
      codexHome,
      baseURL: fake.baseURL,
      bypassHookTrust: true,
      args: [
        '-c',
        'mcp_servers.gitmem.default_tools_approval_mode="approve"',
        '-c',
        'mcp_servers.gitmem.required=true',
      ],
      env: { GITMEM_HOME: s.gitmemHome, GITMEM_DAEMON: '0' },
    });
  }, 180_000);

  afterAll(async () => {
    await fake?.close();
  });

  it('says once that Codex skips untrusted hooks until they are approved in /hooks', () => {
    expect(connectOut).toMatch(/\/hooks/);
    const again = s.gitmem(['connect', 'codex', '--agent', AGENT]);
    expect(again.code, again.stderr).toBe(0);
    expect(`${again.stdout}${again.stderr}`).not.toMatch(/\/hooks/);
  });

  it('puts the memory (a system/ marker) into the request the model receives', () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.stringify(inputItems(fake.requests[0]!))).toContain(MARKER);
  });

  it("makes the model's memory call exactly one commit whose message is the reason", () => {
    expect(subjects(s.memoryDir).filter((l) => l === reason)).toHaveLength(1);
  });

  it('reflects over the rollout when the turn ends and merges on main; the hook again reflects nothing twice', async () => {
    await until('the reflection merge', () =>
      subjects(s.memoryDir).includes('merge(reflection): What the Codex session taught'),
    );
    await until('the job to finish', jobDone(s));
    const requests = reflectionModel.requests.length;
    const head = git(s.memoryDir, ['rev-parse', 'HEAD']);
    const [rollout] = run.transcripts;
    const sessionId = /-([0-9a-f-]{36})\.jsonl$/.exec(rollout ?? '')?.[1];
    const input = JSON.stringify({
      session_id: sessionId,
      transcript_path: rollout,
      cwd: s.project,
      hook_event_name: 'Stop',
    });
    const again = runGitmem(s.env, ['hook', 'codex', 'turn-end', '--agent', AGENT], { input, cwd: s.project });
    expect(again.code, again.stderr).toBe(0);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(reflectionModel.requests.length).toBe(requests);
    expect(git(s.memoryDir, ['rev-parse', 'HEAD'])).toBe(head);
  }, 120_000);

  it('disconnect restores config.toml byte for byte and removes the hooks.json it created', () => {
    const d = s.gitmem(['disconnect', 'codex']);
    expect(d.code, d.stderr).toBe(0);
    const codexHome = join(s.home, '.codex');
    expect(readFileSync(codexPaths(codexHome).config, 'utf8')).toBe(before.config);
    expect(existsSync(codexPaths(codexHome).hooks)).toBe(false);
  });
});
