// Reflection over several conversations through the library (runDream and memory.dream) with a scripted
// model: three conversations from two sources (gitmem's own and a Claude Code session), one already
// reflected. The manifest and its slices, the cursors that advance (unreflected slices, on success only)
// and the ones that do not (the replay; every cursor after a failure); --auto's selector in each accepted
// form, and an unknown id refused by name.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleGit } from '../../../src/internals.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { advanceCursor, readCursor } from '../../../src/reflection/cursor.js';
import type { DreamOptions } from '../../../src/reflection/dream-types.js';
import { runDream } from '../../../src/reflection/dream.js';
import { appendTranscript, listConversations } from '../../../src/reflection/transcripts.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { firstPrompt, scripted, type Turn } from '../../helpers/reflection-mock.js';
import { cleanupTmp } from '../../helpers/tmp.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'sources');
const CLAUDE = 'claude-code:claude-code/project';
let fx: MemoryFixture;
let agentDir: string;
afterAll(cleanupTmp);
beforeAll(async () => {
  fx = await memoryFixture('agent-m');
  agentDir = join(fx.home, 'agents', 'agent-m');
  appendTranscript(agentDir, 'conv-a', [
    { kind: 'user', text: 'Actually, I prefer tabs over spaces in this repo.' },
    { kind: 'assistant', text: 'Noted: tabs.' },
  ]);
  appendTranscript(agentDir, 'conv-b', [
    { kind: 'user', text: 'Remember our project deadline is Friday.' },
    { kind: 'assistant', text: 'Friday it is.' },
  ]);
  advanceCursor(agentDir, 'conv-b', 2); // already reflected
});

function dream(o: Partial<DreamOptions>, turns: Turn[] = [{ text: 'Nothing worth keeping.' }]) {
  const model = scripted(turns);
  const run = runDream({
    launch: sharedShellLauncher(),
    home: fx.home,
    agentId: 'agent-m',
    env: fx.env,
    cwd: FIXTURES,
    model,
    git: handleGit(fx.memory),
    maxRetries: 0,
    stream: false,
    ...o,
  });
  return { model, run };
}

const cursors = () => Object.fromEntries(listConversations(agentDir).map((id) => [id, readCursor(agentDir, id)]));

describe('runDream over several conversations', { tags: ['sandbox'] }, () => {
  it('a failed run leaves every cursor alone', async () => {
    const before = cursors();
    const { run } = dream({ conversations: ['conv-a', 'conv-b'] }, [
      () => {
        throw new Error('provider down');
      },
    ]);
    const r = await run;
    expect(r).toMatchObject({ launched: true, success: false, error: { code: 'MODEL_ERROR' } });
    expect(r.slices?.map((s) => s.mode)).toEqual(['unreflected', 'replay']);
    const after = cursors();
    for (const id of ['conv-a', 'conv-b'])
      expect(after[id]?.reflectedThroughLine).toBe(before[id]?.reflectedThroughLine);
    expect(after['conv-a']?.lastSucceededAt).toBeUndefined();
  });

  it('one manifest over three conversations from two sources; only unreflected slices advance', async () => {
    const bBefore = readCursor(agentDir, 'conv-b');
    const { model, run } = dream({ conversations: ['conv-a', 'conv-b', CLAUDE, 'conv-a'], instruction: 'style' });
    const r = await run;
    expect(r).toMatchObject({ launched: true, success: true, status: 'no_changes', conversationId: 'multi' });
    const manifest = JSON.parse(readFileSync(r.manifestPath ?? '', 'utf8')) as Record<string, unknown>;
    const claude = r.slices?.[2]?.conversation_id ?? '';
    expect(claude).toMatch(/^from-claude-code-[0-9a-f]{12}$/);
    expect(manifest).toMatchObject({
      type: 'multi_transcript_reflection_payload',
      schema: 1,
      agent_id: 'agent-m',
      instruction: 'style',
      selection: { policy: 'explicit-conversations', conversation_ids: ['conv-a', 'conv-b', claude] },
    });
    expect(r.slices?.map((s) => [s.conversation_id, s.source, s.mode])).toEqual([
      ['conv-a', 'gitmem', 'unreflected'],
      ['conv-b', 'gitmem', 'replay'],
      [claude, 'claude-code', 'unreflected'],
    ]);
    for (const s of r.slices ?? []) expect(existsSync(s.file)).toBe(true);
    // the sub-agent saw the manifest inline, slices and all
    const { user } = firstPrompt(model);
    expect(user).toContain('multi_transcript_reflection_payload');
    expect(user).toContain('I prefer tabs over spaces');
    expect(user).toContain('Reviewed-Transcript: conv-a lines 1-2, conv-b replay lines 1-2, ');
    expect(readCursor(agentDir, 'conv-a')).toMatchObject({ reflectedThroughLine: 2, stepsSinceLastReflection: 0 });
    expect(readCursor(agentDir, claude).stepsSinceLastReflection).toBe(0);
    expect(readCursor(agentDir, claude).lastSucceededAt).toBeDefined();
    expect(readCursor(agentDir, 'conv-b')).toEqual(bBefore); // the replay moved nothing
  });

  it('--recent N takes the N most recently written conversations', async () => {
    appendTranscript(agentDir, 'conv-a', [
      { kind: 'user', text: 'No, use two-space indents after all.' },
      { kind: 'assistant', text: 'Two spaces.' },
    ]);
    const { run } = dream({ recent: 1, dryRun: true });
    const r = await run;
    expect(r).toMatchObject({ launched: true, status: 'dry_run' });
    expect(r.slices?.map((s) => [s.conversation_id, s.mode, s.lines])).toEqual([
      ['conv-a', 'unreflected', { from: 3, to: 4 }],
    ]);
    expect(readCursor(agentDir, 'conv-a').reflectedThroughLine).toBe(2); // a dry run consumes nothing
  });

  it('refuses mixing selections, a bad --recent and an unknown conversation', async () => {
    await expect(dream({ recent: 2, auto: true }).run).rejects.toThrow(
      'Use only one of --recent, --conversation, or --auto.',
    );
    await expect(dream({ recent: '0' }).run).rejects.toThrow('Usage: gitmem dream --recent <positive integer>');
    const r = await dream({ conversations: ['conv-a', 'nope'] }).run;
    expect(r).toMatchObject({ launched: false, reason: 'source_error' });
    expect(r.message).toContain('no transcript for conversation "nope"');
  });
});

describe('runDream --auto', { tags: ['sandbox'] }, () => {
  const answer =
    '{"selected_conversations":[{"conversation_id":"conv-a","reason":"indent rule","priority":"high"},{"conversation_id":"conv-a"}]}';
  it.each([
    ['raw JSON', answer],
    ['a fenced block', `Picked:\n\`\`\`json\n${answer}\n\`\`\``],
    ['the outermost object', `My choice is ${answer} for now.`],
  ])('accepts the selector answering with %s', async (_form, text) => {
    const { run } = dream({ auto: true, dryRun: true, currentConversation: 'conv-a' }, [{ text }, { text: 'done' }]);
    const r = await run;
    expect(r).toMatchObject({ launched: true, status: 'dry_run' });
    expect(r.slices?.map((s) => s.conversation_id)).toEqual(['conv-a']);
    const manifest = JSON.parse(readFileSync(r.manifestPath ?? '', 'utf8')) as { selection: unknown };
    expect(manifest.selection).toMatchObject({
      policy: 'auto-selected',
      selections: [{ conversation_id: 'conv-a', reason: 'indent rule', priority: 'high' }],
    });
    const cat = JSON.parse(readFileSync(r.candidatesPath ?? '', 'utf8')) as { type: string; candidates: unknown[] };
    expect(cat.type).toBe('auto_transcript_reflection_candidates');
    expect(cat.candidates.length).toBeGreaterThan(0);
  });

  it('refuses an unknown id the selector names, and advances nothing', async () => {
    const before = cursors();
    const bad = '{"selected_conversations":[{"conversation_id":"conv-zzz"}]}';
    const r = await dream({ auto: true }, [{ text: bad }]).run;
    expect(r).toMatchObject({ launched: false, reason: 'source_error' });
    expect(r.message).toContain('Reflection selector chose unknown conversation: conv-zzz');
    expect(cursors()).toEqual(before);
  });
});

describe('memory.dream over several conversations', { tags: ['sandbox'] }, () => {
  it('takes the same selection through the handle', async () => {
    const r = await fx.memory.dream({
      recent: 1,
      dryRun: true,
      model: scripted([{ text: 'nothing' }]),
      maxRetries: 0,
      stream: false,
    });
    expect(r).toMatchObject({ launched: true, status: 'dry_run', conversationId: 'multi' });
    expect(r.slices).toHaveLength(1);
  });
});
