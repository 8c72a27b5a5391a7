// `gitmem hook <harness> <event>` through the built CLI, with the harness's JSON on stdin (the shapes recorded
// from the real programs, test/fixtures/harness/*-hook-inputs.json): the session-start context, the position
// a turn end records, and a hook that never fails its harness. The real programs drive the same hooks in
// harness-connect.test.ts.
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome, type CliHome } from '../../helpers/cli.js';
import { REPO_ROOT } from '../../helpers/harness/spawn-harness.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'harness');
const claudeInputs = JSON.parse(readFileSync(join(FIXTURES, 'claude-code-hook-inputs.json'), 'utf8')) as Record<
  string,
  Record<string, unknown>
>;
const codexInputs = JSON.parse(readFileSync(join(FIXTURES, 'codex-hook-inputs.json'), 'utf8')) as Record<
  string,
  Record<string, unknown>
>;

function context(stdout: string): string {
  const out = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
  return out.hookSpecificOutput.additionalContext;
}

function write(h: CliHome, agent: string, path: string, text: string, reason: string): void {
  const r = h.run([
    'memory',
    'create',
    path,
    '--agent',
    agent,
    '--description',
    `about ${path}`,
    '--text',
    text,
    '--reason',
    reason,
  ]);
  expect(r.code, r.stderr).toBe(0);
}

const sessionLines = (agentDir: string): Record<string, unknown>[] => {
  const dir = join(agentDir, 'harness', 'sessions');
  return existsSync(dir)
    ? readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>)
    : [];
};
const runLog = (agentDir: string): Record<string, unknown>[] =>
  existsSync(join(agentDir, 'runs.jsonl'))
    ? readFileSync(join(agentDir, 'runs.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

describe('gitmem hook claude-code|codex (CLI, recorded hook inputs)', () => {
  it('session-start answers the memory from HEAD as facts, with the reflection notice once, byte-identical per commit', () => {
    const h = cliHome('local', ['a1']);
    write(h, 'a1', 'system/project.md', 'MARKER-START-1 the project builds with make', 'project fact');
    const input = JSON.stringify({ ...claudeInputs['SessionStart'], cwd: h.root });
    const first = h.run(['hook', 'claude-code', 'session-start', '--agent', 'a1'], { input });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    const a = context(first.stdout);
    expect(a).toContain('MARKER-START-1');
    expect(a).toMatch(/^# Memory \(gitmem of agent "a1", commit [0-9a-f]{12}\)/);
    expect(a).toContain('gitmem config set model');
    const second = context(h.run(['hook', 'claude-code', 'session-start', '--agent', 'a1'], { input }).stdout);
    const third = context(
      h.run(['hook', 'codex', 'session-start', '--agent', 'a1'], { input: JSON.stringify(codexInputs['SessionStart']) })
        .stdout,
    );
    expect(second).not.toContain('gitmem config set model');
    expect(third).toBe(second);
    write(h, 'a1', 'system/more.md', 'MARKER-START-2', 'another fact');
    const fourth = context(h.run(['hook', 'claude-code', 'session-start', '--agent', 'a1'], { input }).stdout);
    expect(fourth).toContain('MARKER-START-2');
    expect(fourth).not.toBe(second);
  });

  it('session-start stays within the 10,000-character cap on hook output, naming the system/ files left out', () => {
    const h = cliHome('local', ['a1']);
    for (let i = 0; i < 12; i++)
      write(
        h,
        'a1',
        `system/block-${String(i).padStart(2, '0')}.md`,
        `B${i} "quoted"\n${'y "z"\n'.repeat(150)}`,
        `block ${i}`,
      );
    const r = h.run(['hook', 'claude-code', 'session-start', '--agent', 'a1'], { input: '{}' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().length).toBeLessThanOrEqual(10_000);
    const text = context(r.stdout);
    expect(text).toContain('B0 ');
    expect(text).toMatch(
      /system\/ file\(s\) are not shown here because the session context has a size cap; .*system\/block-11\.md/s,
    );
  });

  it('turn-end without a model records where the transcript stands (per session, idempotent) and logs it', () => {
    const h = cliHome('local', ['a1']);
    const agentDir = join(h.home, 'agents', 'a1');
    const transcript = join(h.root, 'session.jsonl');
    copyFileSync(join(FIXTURES, 'claude-code-session.jsonl'), transcript);
    const input = JSON.stringify({ ...claudeInputs['Stop'], transcript_path: transcript });
    for (let i = 0; i < 2; i++)
      expect(h.run(['hook', 'claude-code', 'turn-end', '--agent', 'a1'], { input }).code).toBe(0);
    const size = readFileSync(transcript).length;
    expect(sessionLines(agentDir)).toEqual([
      expect.objectContaining({
        harness: 'claude-code',
        sessionId: claudeInputs['Stop']?.['session_id'],
        transcript,
        offset: size,
        reflected: 0,
        turns: 2,
      }),
    ]);
    appendFileSync(transcript, '{"type":"user","message":{"role":"user","content":"more"},"uuid":"u-more"}\n');
    expect(h.run(['hook', 'claude-code', 'session-end', '--agent', 'a1'], { input }).code).toBe(0);
    expect(sessionLines(agentDir)[0]).toMatchObject({ offset: readFileSync(transcript).length, turns: 2 });
    expect(runLog(agentDir).map((e) => [e['kind'], e['event'], e['outcome']])).toEqual([
      ['harness-hook', 'turn-end', 'recorded'],
      ['harness-hook', 'turn-end', 'recorded'],
      ['harness-hook', 'session-end', 'recorded'],
    ]);
    expect(git(h.memoryDir('a1'), ['rev-list', '--count', 'HEAD'])).toBe('1');
  });

  it('a failing hook exits 0 with one line on stderr and a run-log entry; an unknown event is a usage error', () => {
    const h = cliHome('local', ['a1']);
    const agentDir = join(h.home, 'agents', 'a1');
    const bad = h.run(['hook', 'claude-code', 'turn-end', '--agent', 'a1'], {
      input: '{"session_id": "s1", "transcript_path": ',
    });
    expect(bad.code).toBe(0);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^gitmem hook claude-code turn-end: INVALID_ARGUMENT: hook input is not JSON/),
    ]);
    const missing = h.run(['hook', 'codex', 'session-start', '--agent', 'nobody'], { input: '{}' });
    expect(missing.code).toBe(0);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    // Once the agent is known, a failure is in its run log too (here: the sessions folder is a file).
    mkdirSync(join(agentDir, 'harness'), { recursive: true });
    writeFileSync(join(agentDir, 'harness', 'sessions'), '');
    const broken = h.run(['hook', 'claude-code', 'turn-end', '--agent', 'a1'], {
      input: JSON.stringify({ session_id: 's1', transcript_path: join(h.root, 't.jsonl') }),
    });
    expect(broken.code).toBe(0);
    expect(broken.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^gitmem hook claude-code turn-end: /)]);
    expect(runLog(agentDir).at(-1)).toMatchObject({
      kind: 'harness-hook',
      event: 'turn-end',
      outcome: 'failed',
      error: expect.any(String),
    });
    const unknown = h.run(['hook', 'claude-code', 'lunch', '--agent', 'a1'], { input: '{}' });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^gitmem: INVALID_ARGUMENT: unknown claude-code hook event "lunch": expected one of session-start, turn-end, session-end, auto-memory-start, pre-write, post-write, reflect/,
    );
  });

  it('the daemon serves session-start and turn-end with the same answers', () => {
    const local = cliHome('local', ['a1']);
    const served = cliHome('daemon', ['a1']);
    try {
      for (const h of [local, served]) write(h, 'a1', 'system/project.md', 'MARKER-DAEMON', 'fact');
      const before = served.served();
      const a = served.run(['hook', 'claude-code', 'session-start', '--agent', 'a1'], { input: '{}' });
      expect(a.code, a.stderr).toBe(0);
      expect(served.served()).toBeGreaterThan(before);
      expect(context(a.stdout)).toContain('MARKER-DAEMON');
      const transcript = join(served.root, 't.jsonl');
      copyFileSync(join(FIXTURES, 'claude-code-session.jsonl'), transcript);
      const t = served.run(['hook', 'claude-code', 'turn-end', '--agent', 'a1'], {
        input: JSON.stringify({ session_id: 's1', transcript_path: transcript }),
      });
      expect(t.code, t.stderr).toBe(0);
      expect(sessionLines(join(served.home, 'agents', 'a1'))).toEqual([
        expect.objectContaining({ sessionId: 's1', offset: readFileSync(transcript).length }),
      ]);
    } finally {
      served.close();
    }
  });
});
