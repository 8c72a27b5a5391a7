// `gitmem conflicts` through the built CLI: show prints the diff, resolve lands one commit, and --propose asks a
// model (the real provider code against a fake OpenAI-compatible server on 127.0.0.1) for a resolution that
// lands only on `accept`; a proposal made on an older main is stale; a proposal that fails the rules is never made.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cliHome, errorCode, GITMEM_BIN, type CliHome, type CliResult } from '../../helpers/cli.js';
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai.js';
import { makeKeptBranch } from '../../helpers/kept-branch.js';
import { cleanupTmp, git, gitTry } from '../../helpers/tmp.js';

const BRANCH = 'gitmem/worker/w1';
const MODEL = ['-m', 'openai-compatible:local:fake-model'];
const doc = (bullets: string[]): string =>
  `---\ndescription: team notes\n---\n# Team\n\n${bullets.map((b) => `- ${b}`).join('\n')}\n`;
let h: CliHome;
let dir: string;
let fake: FakeOpenAI | undefined;
let answer = '';
const run = (args: string[], input?: string) => h.run([...args, '--agent', 'a1'], input === undefined ? {} : { input });
/** The CLI without blocking this process: the fake model server must answer it. */
const runAsync = (args: string[]): Promise<CliResult> =>
  new Promise((res) => {
    const child = spawn(process.execPath, [GITMEM_BIN, ...args, '--agent', 'a1'], {
      env: h.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
const refs = (): string => git(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/'], h.env);

beforeEach(() => {
  h = cliHome('local', ['a1']);
  dir = h.memoryDir('a1');
  const w = (args: string[]) => expect(run(['memory', ...args]).code).toBe(0);
  w([
    'create',
    'notes/team.md',
    '--description',
    'team notes',
    '--text',
    '# Team\n\n- one\n- two\n',
    '--reason',
    'seed',
  ]);
  makeKeptBranch(dir, h.env, BRANCH, { 'notes/team.md': doc(['one', 'two (worker)']) });
  w(['str-replace', 'notes/team.md', '--old', '- two', '--new', '- two (main)', '--reason', 'main edit']);
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(() => cleanupTmp());

async function withModel(): Promise<void> {
  fake = await startFakeOpenAI(() => ({ text: answer }));
  writeFileSync(join(h.home, 'config'), JSON.stringify({ providers: { local: { baseURL: fake.baseURL } } }));
}

describe('gitmem conflicts (CLI)', () => {
  it('show prints the diff the branch brings and what conflicts; resolve --theirs lands it with the reason', () => {
    const show = run(['conflicts', 'show', BRANCH]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^\+- two \(worker\)$/m);
    expect(show.stdout).toMatch(/conflicts with main in: notes\/team\.md/);
    expect(show.stdout).toMatch(/^\+- two \(main\)$/m);
    const r = run(['conflicts', 'resolve', BRANCH, '--theirs', '--reason', 'worker knew better']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Resolved gitmem\/worker\/w1 in [0-9a-f]{7}/);
    expect(git(dir, ['log', '-1', '--format=%s'], h.env)).toBe('worker knew better');
    expect(git(dir, ['show', 'HEAD:notes/team.md'], h.env)).toMatch(/- two \(worker\)$/);
    expect(refs()).toBe('refs/heads/main');
  });

  it('resolve --file takes the text from a file (or stdin); a missing --reason or two choices are usage errors', () => {
    expect(errorCode(run(['conflicts', 'resolve', BRANCH, '--ours']))).toBe('INVALID_ARGUMENT');
    expect(errorCode(run(['conflicts', 'resolve', BRANCH, '--ours', '--theirs', '--reason', 'r']))).toBe(
      'INVALID_ARGUMENT',
    );
    const before = h.state('a1');
    const r = run(['conflicts', 'resolve', BRANCH, '--file', '-', '--reason', 'by hand'], doc(['one', 'two (both)']));
    expect(r.code, r.stderr).toBe(0);
    expect(h.state('a1')).not.toBe(before);
    expect(git(dir, ['show', 'HEAD:notes/team.md'], h.env)).toBe(doc(['one', 'two (both)']).trimEnd());
  });

  it("--propose: the model's text becomes a proposal branch shown as a diff; main moves only on accept", async () => {
    await withModel();
    answer = '```markdown\n' + doc(['one', 'two (main)', 'two (worker)']) + '```';
    const before = h.state('a1');
    const p = await runAsync(['conflicts', 'resolve', BRANCH, '--propose', ...MODEL, '--json']);
    expect(p.code, p.stderr).toBe(0);
    const proposal = JSON.parse(p.stdout) as { proposal: string; diff: string };
    expect(proposal.proposal).toMatch(/^gitmem\/proposal\/\d{8}T\d{6}\.\d{3}Z$/);
    expect(proposal.diff).toMatch(/^\+- two \(worker\)$/m);
    expect(h.state('a1')).toBe(before);
    const sent = JSON.stringify(fake?.requests[0]);
    expect(sent).toContain('two (main)');
    expect(sent).toContain('two (worker)');
    const list = JSON.parse(run(['conflicts', '--json']).stdout) as {
      kept: unknown[];
      proposals: Array<{ proposal: string; branch: string }>;
    };
    expect(list.proposals).toEqual([expect.objectContaining({ proposal: proposal.proposal, branch: BRANCH })]);
    expect(run(['conflicts', 'show', proposal.proposal]).stdout).toMatch(/^\+- two \(worker\)$/m);
    const a = run(['conflicts', 'accept', proposal.proposal, '--reason', 'read it: both kept']);
    expect(a.code, a.stderr).toBe(0);
    expect(git(dir, ['log', '-1', '--format=%s'], h.env)).toBe('read it: both kept');
    expect(git(dir, ['show', 'HEAD:notes/team.md'], h.env)).toBe(doc(['one', 'two (main)', 'two (worker)']).trimEnd());
    expect(refs()).toBe('refs/heads/main');
    expect(gitTry(dir, ['fsck', '--strict'], h.env).status).toBe(0);
  });

  it('a proposal on an older main is PROPOSAL_STALE; one whose text breaks the rules is never made', async () => {
    await withModel();
    answer = `${doc(['one'])}<<<<<<< ours\n- two (main)\n=======\n- two (worker)\n>>>>>>> theirs\n`;
    const marked = await runAsync(['conflicts', 'resolve', BRANCH, '--propose', ...MODEL]);
    expect([errorCode(marked), marked.stderr]).toEqual([
      'INVALID_ARGUMENT',
      expect.stringMatching(/still holds conflict markers/),
    ]);
    answer = doc(['one', `two ghp_${'Qw3Er5Ty7U'.repeat(3)}123456`]);
    const bad = await runAsync(['conflicts', 'resolve', BRANCH, '--propose', ...MODEL]);
    expect(errorCode(bad)).toBe('SECRET_DETECTED');
    expect(refs()).toBe(`refs/heads/${BRANCH}\nrefs/heads/main`);
    answer = doc(['one', 'two (merged)']);
    const p = JSON.parse(
      (await runAsync(['conflicts', 'resolve', BRANCH, '--propose', ...MODEL, '--json'])).stdout,
    ) as { proposal: string };
    expect(
      run(['memory', 'create', 'notes/later.md', '--description', 'later', '--text', 'x', '--reason', 'later']).code,
    ).toBe(0);
    const before = h.state('a1');
    const stale = run(['conflicts', 'accept', p.proposal]);
    expect(errorCode(stale)).toBe('PROPOSAL_STALE');
    expect(h.state('a1')).toBe(before);
    expect(run(['conflicts', 'drop', p.proposal]).code).toBe(0);
    expect(refs()).toBe(`refs/heads/${BRANCH}\nrefs/heads/main`);
  });
});
