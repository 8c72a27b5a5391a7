// `gitmem dream` through the CLI process against a fake OpenAI-compatible server on 127.0.0.1 (the real
// provider code, streamed tool calls): a fixture transcript is staged, the sub-agent edits AGENTS.md in
// memory and commits with its reason, the merge lands and --to writes the committed text back; a rerun has
// nothing new (exit 0); --dry-run prints the diff and merges nothing; --timeout always exits (code 1);
// no model is a clear error.
import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCursor } from '../../../src/reflection/cursor.js';
import { SOURCE_FORMS, SOURCE_TYPES } from '../../../src/reflection/sources/index.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from '../../helpers/fake-openai.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';

const CLI = join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts');
// --import resolves from the child's cwd (a temp project), so name tsx's loader by absolute URL.
const TSX = pathToFileURL(
  join(import.meta.dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs'),
).href;
let fx: MemoryFixture;
let fake: FakeOpenAI;
let script: (body: Record<string, unknown>, n: number) => FakeReply = () => ({ text: 'done.' });
let project: string;
let transcriptFile: string;

function cli(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, 'dream', '--memory', 'agent-d', ...args], {
      cwd: project,
      env: { ...fx.env, NODE_OPTIONS: '', ...extraEnv },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => res({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** The trailer the task message asks for (the conversation id is synthetic, so read it from the request). */
function trailerOf(body: Record<string, unknown>): string {
  const text = JSON.stringify(body['messages']);
  return /Reviewed-Transcript: [^"\\]+/.exec(text)?.[0] ?? 'Reviewed-Transcript: ?';
}

function editAndCommit(reason: string): (body: Record<string, unknown>, n: number) => FakeReply {
  let step = 0;
  return (body) => {
    const replies: FakeReply[] = [
      {
        toolCalls: [{ name: 'read_file', args: { path: 'system/AGENTS.md' } }],
        usage: { prompt: 3000, completion: 40 },
      },
      {
        toolCalls: [
          {
            name: 'edit_file',
            args: {
              path: 'system/AGENTS.md',
              old_string: '- Build: npm run build',
              new_string: '- Build: npm run build\n- Lint: run `npm run lint:fix` before every commit',
            },
          },
        ],
        usage: { prompt: 3200, completion: 60 },
      },
      {
        toolCalls: [
          {
            name: 'shell',
            args: {
              command: `git add -A && git commit -q -m ${JSON.stringify(reason)} -m ${JSON.stringify(trailerOf(body))}`,
            },
          },
        ],
        usage: { prompt: 3300, completion: 50 },
      },
      { text: 'Summary: recorded the lint rule in AGENTS.md.', usage: { prompt: 3400, completion: 30 } },
    ];
    return replies[step++] ?? { text: 'done.' };
  };
}

afterAll(async () => {
  await fake?.close();
  cleanupTmp();
});
beforeAll(async () => {
  fx = await memoryFixture('agent-d');
  fake = await startFakeOpenAI((body, n) => script(body, n));
  writeFileSync(join(fx.home, 'config'), JSON.stringify({ providers: { local: { baseURL: fake.baseURL } } }));
  project = makeTmpDir('gitmem-project-');
  writeFileSync(join(project, 'AGENTS.md'), '# Agent guide\n\n- Build: npm run build\n');
  transcriptFile = join(project, 'session.jsonl');
  writeFileSync(
    transcriptFile,
    readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'sources', 'transcript', 'session.jsonl'), 'utf8'),
  );
});

const MODEL = ['-m', 'openai-compatible:local:fake-model'];

describe('gitmem dream (CLI, fake OpenAI-compatible server)', { tags: ['sandbox'] }, () => {
  it('stages the transcript, merges commits whose messages are the reasons, and writes --to AGENTS.md back', async () => {
    script = editAndCommit('Record the lint-before-commit rule the user set');
    const r = await cli(['--from', `transcript:${transcriptFile}`, '--to', 'AGENTS.md', ...MODEL, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      launched: true,
      success: true,
      status: 'merged',
      commitCount: 1,
      targetWritten: true,
      agentId: 'agent-d',
      steps: 4,
    });
    expect(out['usage']).toEqual({ inputTokens: 12_900, outputTokens: 180, totalTokens: 13_080 });
    expect(out['stagedEntries']).toBeGreaterThan(0);
    console.info(
      `[dream-cli] fixture dream usage ${JSON.stringify(out['usage'])}; snapshot ${JSON.stringify(out['snapshot'])}`,
    );
    expect(fake.requests[0]?.['stream']).toBe(true);
    expect(r.stderr).toMatch(/Staged \d+ transcript entries \(0 already ingested\)/);
    expect(r.stderr).toContain('Synced AGENTS.md into memory');
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toBe(
      '# Agent guide\n\n- Build: npm run build\n- Lint: run `npm run lint:fix` before every commit\n',
    );
    const log = git(fx.dir, ['log', '--format=%s%n%b', '-4'], fx.env);
    expect(log).toContain('merge(reflection): Record the lint-before-commit rule the user set');
    expect(log).toMatch(
      /Record the lint-before-commit rule the user set\n+Reviewed-Transcript: from-transcript-[0-9a-f]{12} lines 1-\d+/,
    );
    expect(log).toContain('dream: sync AGENTS.md from target');
    expect(readFileSync(join(fx.dir, 'system', 'AGENTS.md'), 'utf8')).toMatch(/^---\ndescription: Repository guidance/);
  }, 60_000);

  it('a rerun with nothing new since the last reflection exits 0', async () => {
    const r = await cli(['--from', `transcript:${transcriptFile}`, ...MODEL]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('No new transcript content to process.');
    expect(r.stderr).toMatch(/Staged 0 transcript entries \(\d+ already ingested\)/);
  }, 60_000);

  it('--dry-run prints the diff it would merge and merges nothing', async () => {
    appendFileSync(
      transcriptFile,
      `${JSON.stringify({ kind: 'user', text: 'Also: never push on Fridays.', source_message_id: 'u-99' })}\n${JSON.stringify({ kind: 'assistant', text: 'Noted.', source_message_id: 'a-99' })}\n`,
    );
    const head = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    let step = 0;
    script = (body) =>
      [
        {
          toolCalls: [
            {
              name: 'write_file',
              args: {
                path: 'project/release.md',
                content: '---\ndescription: Release rules\n---\nNever push on Fridays.\n',
              },
            },
          ],
        },
        {
          toolCalls: [
            {
              name: 'shell',
              args: {
                command: `git add -A && git commit -q -m "Keep the no-Friday-push rule" -m ${JSON.stringify(trailerOf(body))}`,
              },
            },
          ],
        },
        { text: 'done' },
      ][step++] ?? { text: 'done' };
    const r = await cli(['--from', `transcript:${transcriptFile}`, '--dry-run', ...MODEL]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('+Never push on Fridays.');
    expect(r.stdout).toContain('project/release.md');
    expect(git(fx.dir, ['rev-parse', 'HEAD'], fx.env)).toBe(head);
    expect(git(fx.dir, ['branch', '--list', 'gitmem/*'], fx.env)).toBe('');
    expect(`${r.stdout}${r.stderr}`.match(/Dry run: 1 commit\(s\) would be merged/g)).toHaveLength(1); // the final message, once
    expect(r.stderr).not.toContain('Merging');
    const conv = /from-transcript-[0-9a-f]{12}/.exec(JSON.stringify(fake.requests.at(-1)))?.[0] ?? '';
    expect(readCursor(join(fx.home, 'agents', 'agent-d'), conv).stepsSinceLastReflection).toBe(1);
  }, 60_000);

  it('the timeout fires even when the model never answers, exits 1 and cleans up', async () => {
    script = () => ({ hang: true });
    const r = await cli(['--from', `transcript:${transcriptFile}`, '--timeout', '2', ...MODEL, '--json']);
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(20_000);
    expect(JSON.parse(r.stdout)).toMatchObject({
      launched: true,
      success: false,
      timedOut: true,
      message: 'Reflection pass did not complete within 2s.',
      error: { code: 'TIMEOUT' },
    });
    expect(r.stderr).toContain('gitmem: TIMEOUT: Reflection pass did not complete within 2s.');
    expect(git(fx.dir, ['branch', '--list', 'gitmem/*'], fx.env)).toBe('');
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
  }, 60_000);

  it('a provider error is one line `gitmem: MODEL_ERROR: …` on stderr, without "Merging…"; --json carries it as {code, message}', async () => {
    script = () => ({ status: 400 });
    const r = await cli(['--from', `transcript:${transcriptFile}`, ...MODEL]);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('gitmem: '))).toEqual([
      expect.stringMatching(/^gitmem: MODEL_ERROR: .*fake failure 400/),
    ]);
    expect(`${r.stdout}${r.stderr}`.match(/fake failure 400|memory updates were not completed/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('Merging');
    expect(r.stdout).toBe('');
    const j = await cli(['--from', `transcript:${transcriptFile}`, ...MODEL, '--json']);
    expect(j.code).toBe(1);
    expect(j.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(j.stdout)).toMatchObject({
      launched: true,
      success: false,
      status: 'failed',
      error: { code: 'MODEL_ERROR', message: expect.stringContaining('fake failure 400') },
    });
    expect(j.stderr).toMatch(/^gitmem: MODEL_ERROR: .*fake failure 400/m);
  }, 60_000);

  it('source and usage errors are one `gitmem: CODE:` line too, and one JSON object with --json', async () => {
    const bad = join(import.meta.dirname, '..', '..', 'fixtures', 'sources', 'transcript', 'bad.jsonl');
    const src = await cli(['--from', `transcript:${bad}`, ...MODEL]);
    expect(src.code).toBe(1);
    expect(src.stderr.split('\n').filter((l) => l.startsWith('gitmem: '))).toEqual([
      expect.stringMatching(
        /^gitmem: INVALID_ARGUMENT: Failed to stage --from source: Could not read .* as a transcript \(line 2\): expected /,
      ),
    ]);
    const srcJson = await cli(['--from', `transcript:${bad}`, ...MODEL, '--json']);
    expect(srcJson.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(srcJson.stdout)).toMatchObject({
      launched: false,
      success: false,
      reason: 'source_error',
      error: { code: 'INVALID_ARGUMENT' },
    });
    const usage = await cli(['--from', 'nosuch:x', ...MODEL, '--json']);
    expect(usage.code).toBe(1);
    expect(usage.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(usage.stdout)).toMatchObject({
      launched: false,
      success: false,
      error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('Unknown source type "nosuch"') },
    });
    expect(usage.stderr).toMatch(/^gitmem: INVALID_ARGUMENT: Unknown source type "nosuch"/m);
  }, 60_000);

  it('a --from file that is not of the type its prefix names fails with one line saying what was expected, staging nothing', async () => {
    const notes = join(project, 'notes.txt');
    writeFileSync(notes, 'Remember: deploys go through make ship.\n');
    const expected = {
      'claude-code': 'a Claude Code session (line 1)',
      codex: 'a Codex rollout (line 1)',
      openhands: 'an OpenHands event log',
      transcript: 'a transcript (line 1)',
    };
    for (const type of SOURCE_TYPES) {
      const r = await cli(['--from', `${type}:${notes}`, ...MODEL]);
      expect(r.code, type).toBe(1);
      expect(r.stdout, type).toBe('');
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('gitmem: '));
      expect(lines, type).toHaveLength(1);
      expect(lines[0], type).toContain(
        `gitmem: INVALID_ARGUMENT: Failed to stage --from source: Could not read ${notes} as ${expected[type]}: expected `,
      );
    }
    const staged = readdirSync(join(fx.home, 'agents', 'agent-d', 'transcripts')).filter((f) =>
      /^from-(claude-code|codex|openhands)-/.test(f),
    );
    expect(staged).toEqual([]);
  }, 60_000);

  it('no model configured is a clear error naming the options; a bad --from or --timeout is a usage error', async () => {
    const none = await cli(['--from', `transcript:${transcriptFile}`]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /MODEL_NOT_CONFIGURED: No model configured\. Pass --model <provider:model>, set GITMEM_MODEL/,
    );
    const bad = await cli(['--from', 'nosuch:x', ...MODEL]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Unknown source type "nosuch"');
    const timeout = await cli(['--timeout', '0', ...MODEL]);
    expect(timeout.code).toBe(1);
    expect(timeout.stderr).toContain('Invalid --timeout "0"');
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes: 0 merged');
    for (const form of SOURCE_FORMS) expect(help.stdout).toContain(form); // the list comes from the sources table
  }, 60_000);
});
