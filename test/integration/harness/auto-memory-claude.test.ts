/**
 * `gitmem connect claude-code --auto-memory` end to end with the real Claude Code (`claude -p`, pinned in
 * devDependencies) against a loopback fake model: the model writes a topic file and updates MEMORY.md with
 * Claude Code's own Write and Edit tools into the auto-memory folder (the gitmem checkout); each becomes one
 * validated commit whose reason names the tool and the path; a Write with bad frontmatter is denied by the
 * PreToolUse hook and the model receives the validator's reason in the next request's tool_result; the next
 * session starts with the index (Claude Code loads the checkout's MEMORY.md itself). Needs dist/.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGitmem } from '../../helpers/cli.js';
import { contentText, messagesOf, startFakeAnthropic } from '../../helpers/harness/fake-anthropic.js';
import { claudePaths, runClaude } from '../../helpers/harness/run-claude.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

const AGENT = 'agent-auto';
const TOPIC = '---\nname: build\ndescription: How the project builds\ntype: project\n---\nIt builds with make.\n';
const INDEX_MARKER = 'INDEX-MARKER-7c2e';
const INDEX = `# Memory\n\n- [build](build.md): how the project builds (${INDEX_MARKER})\n`;
const BAD = '---\nname: [unclosed\n---\nbody\n';

describe('Claude Code (the real `claude -p`) with its auto memory in gitmem', { tags: ['harness'] }, () => {
  it('each Write/Edit into the folder is one validated commit; a bad write is denied with the reason; the next session has the index', async () => {
    const root = makeTmpDir('gitmem-auto-claude-');
    const home = join(root, 'home');
    const project = join(root, 'project');
    const gitmemHome = join(home, '.gitmem');
    for (const d of [home, project]) mkdirSync(d, { recursive: true });
    git(project, ['init', '-q']);
    const env = { ...hermeticGitEnv(root), HOME: home, GITMEM_HOME: gitmemHome, GITMEM_DAEMON: '0' };
    const gitmem = (args: string[]) => runGitmem(env, args, { cwd: project });
    expect(gitmem(['init', '--agent', AGENT, '--layout', 'index']).code).toBe(0);
    const memoryDir = join(gitmemHome, 'agents', AGENT, 'memory');
    // `-p` cannot ask: the user's permission rule lets the file tools run (the hooks still judge them).
    mkdirSync(join(home, '.claude'), { recursive: true });
    const settings = `{\n  "permissions": {\n    "allow": ["Read", "Write", "Edit"]\n  }\n}\n`;
    writeFileSync(claudePaths(home).settings, settings);
    const c = gitmem(['connect', 'claude-code', '--auto-memory', '--agent', AGENT]);
    expect(c.code, c.stderr).toBe(0);
    const before = git(memoryDir, ['rev-list', '--count', 'HEAD']);

    const fake = await startFakeAnthropic([
      { toolUse: { name: 'Write', input: { file_path: join(memoryDir, 'build.md'), content: TOPIC } } },
      { toolUse: { name: 'Read', input: { file_path: join(memoryDir, 'MEMORY.md') } } },
      {
        toolUse: {
          name: 'Edit',
          input: { file_path: join(memoryDir, 'MEMORY.md'), old_string: '# Memory\n', new_string: INDEX },
        },
      },
      { toolUse: { name: 'Write', input: { file_path: join(memoryDir, 'bad.md'), content: BAD } } },
      { text: 'Noted.' },
    ]);
    const run = await runClaude({
      prompt: 'Remember how the project builds.',
      cwd: project,
      home,
      baseURL: fake.baseURL,
      args: ['--add-dir', memoryDir, '--'],
      env: { GITMEM_HOME: gitmemHome, GITMEM_DAEMON: '0' },
      timeoutMs: 150_000,
    });
    await fake.close();
    expect(run.exitCode, run.stderr).toBe(0);

    const subjects = git(memoryDir, ['log', '--format=%s', `-${3}`]).split('\n');
    expect(Number(git(memoryDir, ['rev-list', '--count', 'HEAD'])) - Number(before)).toBe(2);
    expect(subjects.slice(0, 2)).toEqual(['Claude Code Edit MEMORY.md', 'Claude Code Write build.md']);
    expect(git(memoryDir, ['show', 'HEAD:MEMORY.md']).startsWith(INDEX)).toBe(true);
    expect(git(memoryDir, ['status', '--porcelain'])).toBe('');
    // Claude Code rewrites the frontmatter it is given (type moved into a `metadata` map): that is what is committed.
    expect(git(memoryDir, ['show', 'HEAD~1:build.md'])).toMatch(
      /^---\nname: build\n[\s\S]*metadata:[\s\S]*It builds with make\.$/,
    );
    expect(existsSync(join(memoryDir, 'bad.md'))).toBe(false);
    const afterBad = fake.requests[4];
    expect(afterBad).toBeDefined();
    const last = messagesOf(afterBad!).at(-1);
    expect(contentText(last?.content)).toMatch(/gitmem refused this write: bad\.md: frontmatter is not valid YAML/);

    // The next session: Claude Code loads the checkout's MEMORY.md as its auto memory.
    const next = await startFakeAnthropic([{ text: 'Hello.' }]);
    const second = await runClaude({
      prompt: 'Hello again.',
      cwd: project,
      home,
      baseURL: next.baseURL,
      env: { GITMEM_HOME: gitmemHome, GITMEM_DAEMON: '0' },
    });
    await next.close();
    expect(second.exitCode, second.stderr).toBe(0);
    const first = next.requests[0]!;
    const sent = messagesOf(first)
      .map((m) => contentText(m.content))
      .join('\n');
    expect(sent + JSON.stringify(first.body['system'] ?? '')).toContain(INDEX_MARKER);

    const d = gitmem(['disconnect', 'claude-code']);
    expect(d.code, d.stderr).toBe(0);
    expect(readFileSync(claudePaths(home).settings, 'utf8')).toBe(settings);
  }, 300_000);
});
