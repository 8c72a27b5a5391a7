// runDream over every --from format, parsed from fixture files and staged idempotently into a synthetic
// conversation; a broken source is a source_error (exit 1) that stages nothing; explicit merge mode keeps
// the branch for review.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dreamExitCode } from '../../../src/reflection/dream-types.js';
import { runDream } from '../../../src/reflection/dream.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { commit, scripted } from '../../helpers/reflection-mock.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { handleGit } from '../../../src/internals.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'sources');
let fx: MemoryFixture;
afterAll(cleanupTmp);
beforeAll(async () => {
  fx = await memoryFixture('agent-s');
});

function dream(from: string, model = scripted([{ text: 'Nothing worth keeping.' }])) {
  return runDream({
    launch: sharedShellLauncher(),
    home: fx.home,
    agentId: 'agent-s',
    env: fx.env,
    cwd: FIXTURES,
    from,
    model,
    git: handleGit(fx.memory),
    maxRetries: 0,
    stream: false,
  });
}

describe('runDream --from formats', { tags: ['sandbox'] }, () => {
  it.each([
    ['transcript', 'transcript:transcript/session.jsonl'],
    ['transcript', 'transcript:transcript/openai-chat.jsonl'],
    ['transcript', 'transcript:transcript/ai-sdk.json'],
    ['openhands', 'openhands:openhands/conv-a'],
    ['openhands', 'openhands:openhands/items.json'],
    ['claude-code', 'claude-code:claude-code/project'],
    ['codex', 'codex:../harness/codex-rollout.jsonl'],
  ])('%s source %s is staged into a synthetic conversation and reflected on', async (type, from) => {
    const r = await dream(from);
    expect(r).toMatchObject({ launched: true, success: true, status: 'no_changes', skippedEntries: 0 });
    expect(r.conversationId).toMatch(new RegExp(`^from-${type}-[0-9a-f]{12}$`));
    expect(r.stagedEntries).toBeGreaterThan(0);
    expect(dreamExitCode(r)).toBe(0);
    const again = await dream(from);
    expect(again).toMatchObject({ launched: false, reason: 'no_payload', stagedEntries: 0 });
    expect(dreamExitCode(again)).toBe(0);
  });

  it('a source that cannot be parsed is a source_error and exits 1', async () => {
    const r = await dream('transcript:transcript/bad.jsonl');
    expect(r).toMatchObject({ launched: false, reason: 'source_error' });
    expect(r.message).toMatch(/^Failed to stage --from source: /);
    expect(dreamExitCode(r)).toBe(1);
  });

  it('explicit merge mode keeps the reflection branch for review and does not consume the transcript', async () => {
    const { appendTranscript } = await import('../../../src/reflection/transcripts.js');
    appendTranscript(join(fx.home, 'agents', 'agent-s'), 'default', [
      { kind: 'user', text: 'I prefer British spelling.' },
      { kind: 'assistant', text: 'Noted.' },
    ]);
    const model = scripted([
      {
        calls: [
          {
            name: 'write_file',
            input: { path: 'preferences/spelling.md', content: '---\ndescription: Spelling\n---\nBritish spelling.\n' },
          },
        ],
      },
      { calls: [commit('Keep the British-spelling preference', 'Reviewed-Transcript: default lines 1-2')] },
      { text: 'done' },
    ]);
    const r = await runDream({
      launch: sharedShellLauncher(),
      home: fx.home,
      agentId: 'agent-s',
      env: fx.env,
      cwd: FIXTURES,
      model,
      git: handleGit(fx.memory),
      merge: 'explicit',
      maxRetries: 0,
      stream: false,
    });
    expect(r).toMatchObject({
      launched: true,
      status: 'pending_review',
      branchKept: true,
      commitCount: 1,
      success: false,
    });
    expect(git(fx.dir, ['log', '-1', '--format=%s', r.branchName ?? ''], fx.env)).toBe(
      'Keep the British-spelling preference',
    );
    expect(git(fx.dir, ['ls-files', 'preferences'], fx.env)).toBe('');
  });

  it('an outcome that went wrong carries a stable code: a conflict with the primary is MERGE_CONFLICT', async () => {
    const { appendTranscript } = await import('../../../src/reflection/transcripts.js');
    appendTranscript(join(fx.home, 'agents', 'agent-s'), 'default', [
      { kind: 'user', text: 'Call me Sam.' },
      { kind: 'assistant', text: 'Sure.' },
    ]);
    const old = "I haven't got to know this person yet.";
    const primary = async () => {
      await fx.memory.tool({
        command: 'str_replace',
        file_path: 'system/human.md',
        old_string: old,
        new_string: 'Primary: Samuel.',
        reason: 'primary edit',
      });
      return { calls: [commit('Record the name Sam', 'Reviewed-Transcript: default lines 3-4')] };
    };
    const model = scripted([
      { calls: [{ name: 'edit_file', input: { path: 'system/human.md', old_string: old, new_string: 'Sam.' } }] },
      primary,
      { text: 'done' },
    ]);
    const r = await runDream({
      launch: sharedShellLauncher(),
      home: fx.home,
      agentId: 'agent-s',
      env: fx.env,
      cwd: FIXTURES,
      model,
      git: handleGit(fx.memory),
      maxRetries: 0,
      stream: false,
    });
    expect(r).toMatchObject({
      launched: true,
      success: false,
      status: 'merge_conflict',
      error: { code: 'MERGE_CONFLICT' },
      conflictingPaths: ['system/human.md'],
    });
    expect(dreamExitCode(r)).toBe(1);
  });
});
