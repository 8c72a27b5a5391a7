// `gitmem dream --conversation X… | --recent N | --auto` through the CLI process against a fake
// OpenAI-compatible server on 127.0.0.1: three conversations from two sources (gitmem's own and a transcript
// file), one already reflected; the JSON result's manifest and slices, the cursors that advance and the one
// that does not; the selector's fenced answer, and an unknown id refused by name; usage errors.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceCursor, readCursor } from '../../../src/reflection/cursor.js';
import { appendTranscript } from '../../../src/reflection/transcripts.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from '../../helpers/fake-openai.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';

const CLI = join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts');
const TSX = pathToFileURL(
  join(import.meta.dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs'),
).href;
const MODEL = ['-m', 'openai-compatible:local:fake-model'];
let fx: MemoryFixture;
let fake: FakeOpenAI;
let replies: FakeReply[] = [];
let project: string;
let agentDir: string;

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, 'dream', '--memory', 'agent-c', ...args], {
      cwd: project,
      env: { ...fx.env, NODE_OPTIONS: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
}

afterAll(async () => {
  await fake?.close();
  cleanupTmp();
});
beforeAll(async () => {
  fx = await memoryFixture('agent-c');
  agentDir = join(fx.home, 'agents', 'agent-c');
  fake = await startFakeOpenAI(() => replies.shift() ?? { text: 'Nothing worth keeping.' });
  writeFileSync(join(fx.home, 'config'), JSON.stringify({ providers: { local: { baseURL: fake.baseURL } } }));
  project = makeTmpDir('gitmem-project-');
  writeFileSync(
    join(project, 'session.jsonl'),
    readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'sources', 'transcript', 'session.jsonl'), 'utf8'),
  );
  appendTranscript(agentDir, 'conv-a', [
    { kind: 'user', text: 'Actually, I prefer tabs.' },
    { kind: 'assistant', text: 'Tabs it is.' },
  ]);
  appendTranscript(agentDir, 'conv-b', [
    { kind: 'user', text: 'Remember the deadline is Friday.' },
    { kind: 'assistant', text: 'Noted.' },
  ]);
  advanceCursor(agentDir, 'conv-b', 2);
});

describe('gitmem dream over several conversations (CLI)', { tags: ['sandbox'] }, () => {
  it('refuses mixed selections and a bad --recent before anything runs', async () => {
    const mixed = await cli(['--recent', '2', '--auto', ...MODEL]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain('gitmem: INVALID_ARGUMENT: Use only one of --recent, --conversation, or --auto.');
    const zero = await cli(['--recent', '0', ...MODEL]);
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain('Usage: gitmem dream --recent <positive integer>');
    expect(fake.requests).toHaveLength(0);
  });

  it('--conversation (repeatable, ids and a transcript source): one manifest, only unreflected slices advance', async () => {
    const bBefore = readCursor(agentDir, 'conv-b');
    const args = ['--conversation', 'conv-a', '--conversation', 'conv-b', '--conversation', 'transcript:session.jsonl'];
    const r = await cli([...args, ...MODEL, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      slices: { conversation_id: string; source: string; mode: string }[];
      manifestPath: string;
    };
    expect(out).toMatchObject({ launched: true, success: true, status: 'no_changes', conversationId: 'multi' });
    const staged = out.slices[2]?.conversation_id ?? '';
    expect(out.slices.map((s) => [s.conversation_id, s.source, s.mode])).toEqual([
      ['conv-a', 'gitmem', 'unreflected'],
      ['conv-b', 'gitmem', 'replay'],
      [staged, 'transcript', 'unreflected'],
    ]);
    const manifest = JSON.parse(readFileSync(out.manifestPath, 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      type: 'multi_transcript_reflection_payload',
      selection: { policy: 'explicit-conversations', conversation_ids: ['conv-a', 'conv-b', staged] },
    });
    expect(JSON.stringify(fake.requests[0]?.['messages'])).toContain('Actually, I prefer tabs.');
    expect(readCursor(agentDir, 'conv-a').stepsSinceLastReflection).toBe(0);
    expect(readCursor(agentDir, staged).stepsSinceLastReflection).toBe(0);
    expect(readCursor(agentDir, 'conv-b')).toEqual(bBefore);
  });

  it('--auto: a fenced selector answer is taken; an unknown id is refused by name (exit 1)', async () => {
    appendTranscript(agentDir, 'conv-a', [
      { kind: 'user', text: 'No, actually use spaces.' },
      { kind: 'assistant', text: 'Spaces.' },
    ]);
    replies = [
      { text: '```json\n{"selected_conversations":[{"conversation_id":"conv-a","reason":"indent"}]}\n```' },
      { text: 'Nothing worth keeping.' },
    ];
    const ok = await cli(['--auto', '--dry-run', ...MODEL]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('unreflected: conv-a lines 3-4');
    replies = [{ text: '{"selected_conversations":[{"conversation_id":"conv-evil"}]}' }];
    const bad = await cli(['--auto', ...MODEL, '--json']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Reflection selector chose unknown conversation: conv-evil');
    expect(readCursor(agentDir, 'conv-a').reflectedThroughLine).toBe(2);
  });
});
