// The reflection a harness's session end starts (`gitmem hook claude-code session-end`, `codex turn-end`): it
// runs detached, stages the session's new part from its byte offset, merges on main, is not repeated for a
// part already reflected, and a part whose reflection failed is taken by the next run. The reflection's model
// is a fake OpenAI-compatible server on 127.0.0.1; the sandbox is the real one.
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, type CliHome } from '../../helpers/cli.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from '../../helpers/fake-openai.js';
import { jobIdle, until, writesNote } from '../../helpers/harness/reflection-job.js';
import { REPO_ROOT } from '../../helpers/harness/spawn-harness.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'harness');
let fake: FakeOpenAI;
let script: (body: Record<string, unknown>) => FakeReply = () => ({ text: 'done.' });

beforeAll(async () => {
  fake = await startFakeOpenAI((body) => script(body));
});
afterAll(async () => {
  await fake?.close();
  cleanupTmp();
});

const session = (h: CliHome) => {
  const dir = join(h.home, 'agents', 'a1', 'harness', 'sessions');
  return existsSync(dir)
    ? readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, number>)[0]
    : undefined;
};

const jobDone = (h: CliHome) => jobIdle(h.home, 'a1');

describe('reflection started by a harness hook (detached, fake model)', { tags: ['sandbox'] }, () => {
  it('session end reflects the new part and merges on main; the same part is never reflected twice; a failed part is taken by the next run', async () => {
    const h = cliHome('local', ['a1']);
    writeFileSync(
      join(h.home, 'config'),
      JSON.stringify({ model: 'openai-compatible:local:fake-model', providers: { local: { baseURL: fake.baseURL } } }),
    );
    const transcript = join(h.root, 'session.jsonl');
    copyFileSync(join(FIXTURES, 'claude-code-session.jsonl'), transcript);
    const input = JSON.stringify({
      session_id: 'sess-1',
      transcript_path: transcript,
      cwd: h.root,
      hook_event_name: 'SessionEnd',
      reason: 'other',
    });

    // The model fails first: the job leaves the part owed and logs it.
    script = () => ({ status: 500 });
    const failedRun = h.run(['hook', 'claude-code', 'session-end', '--agent', 'a1'], { input });
    expect(failedRun.code, failedRun.stderr).toBe(0);
    await until('the failed job', jobDone(h));
    await until('the failure in the run log', () =>
      readFileSync(join(h.home, 'agents', 'a1', 'runs.jsonl'), 'utf8').includes('"kind":"harness-reflection"'),
    );
    expect(session(h)).toMatchObject({ reflected: 0 });
    const head = git(h.memoryDir('a1'), ['rev-parse', 'HEAD']);

    script = writesNote('notes/harness-session.md', 'Note what the harness session taught');
    const r = h.run(['hook', 'claude-code', 'session-end', '--agent', 'a1'], { input });
    expect(r.code, r.stderr).toBe(0);
    await until('the merge on main', () =>
      git(h.memoryDir('a1'), ['log', '--format=%s', '-3']).includes(
        'merge(reflection): Note what the harness session taught',
      ),
    );
    await until('the job to finish', jobDone(h));
    expect(git(h.memoryDir('a1'), ['show', 'HEAD:notes/harness-session.md'])).toContain('The harness session ran.');
    const size = readFileSync(transcript).length;
    expect(session(h)).toMatchObject({ offset: size, staged: size, reflected: size });
    expect(git(h.memoryDir('a1'), ['rev-list', '--count', `${head}..HEAD`])).toBe('2');

    // The same hook again: nothing new, nothing launched, nothing merged.
    const requests = fake.requests.length;
    const again = h.run(['hook', 'claude-code', 'session-end', '--agent', 'a1'], { input });
    expect(again.code, again.stderr).toBe(0);
    const log = readFileSync(join(h.home, 'agents', 'a1', 'runs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log.filter((e) => e['kind'] === 'harness-hook').map((e) => e['outcome'])).toEqual([
      'reflection-started',
      'reflection-started',
      'recorded',
    ]);
    await new Promise((res) => setTimeout(res, 1_000));
    expect(fake.requests.length).toBe(requests);
    expect(git(h.memoryDir('a1'), ['rev-list', '--count', `${head}..HEAD`])).toBe('2');
  }, 180_000);

  it('sessions recorded while no model was configured are reflected by the first reflection after one is set', async () => {
    const h = cliHome('local', ['a1']);
    const early = join(h.root, 'early.jsonl');
    const later = join(h.root, 'later.jsonl');
    copyFileSync(join(FIXTURES, 'claude-code-session.jsonl'), early);
    copyFileSync(join(FIXTURES, 'claude-code-session.jsonl'), later);
    const input = (id: string, path: string) => JSON.stringify({ session_id: id, transcript_path: path, cwd: h.root });
    expect(h.run(['hook', 'claude-code', 'session-end', '--agent', 'a1'], { input: input('early', early) }).code).toBe(
      0,
    );
    expect(existsSync(join(h.home, 'agents', 'a1', 'harness', 'reflect.log'))).toBe(false); // nothing launched without a model
    writeFileSync(
      join(h.home, 'config'),
      JSON.stringify({ model: 'openai-compatible:local:fake-model', providers: { local: { baseURL: fake.baseURL } } }),
    );
    let n = 0;
    const notes = [
      writesNote('notes/early.md', 'Reflect the early session'),
      writesNote('notes/later.md', 'Reflect the later session'),
    ];
    // Each reflection is three scripted steps; the job takes the sessions one after the other.
    script = (() => {
      let current = notes[0]!;
      let steps = 0;
      return (body: Record<string, unknown>) => {
        const reply = current(body);
        if (++steps === 3) {
          current = notes[++n] ?? current;
          steps = 0;
        }
        return reply;
      };
    })();
    expect(h.run(['hook', 'claude-code', 'session-end', '--agent', 'a1'], { input: input('later', later) }).code).toBe(
      0,
    );
    await until('both sessions reflected', () => {
      const dir = join(h.home, 'agents', 'a1', 'harness', 'sessions');
      const all = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, number>);
      return all.length === 2 && all.every((r) => r['reflected'] === r['offset'] && r['offset']! > 0);
    });
    await until('the job to finish', jobDone(h));
    const log = git(h.memoryDir('a1'), ['log', '--format=%s', '-10']);
    expect(log).toContain('merge(reflection): Reflect the early session');
    expect(log).toContain('merge(reflection): Reflect the later session');
  }, 180_000);
});
