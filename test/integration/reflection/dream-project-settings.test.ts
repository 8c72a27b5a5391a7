// `gitmem dream` applies the project's settings (`<cwd>/.gitmem/config.json`, the per-agent entry inside it) in
// the reference's order, as the post-turn harness does: a project that asks for explicit merges gets the
// reflection branch kept for review, and only for the agent its entry names.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDream } from '../../../src/reflection/dream.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';
import { commit, scripted } from '../../helpers/reflection-mock.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { handleGit } from '../../../src/internals.js';

let fx: MemoryFixture;
afterAll(cleanupTmp);
beforeAll(async () => {
  fx = await memoryFixture('agent-p');
});

async function dreamIn(projectDir: string, note: string) {
  const { appendTranscript } = await import('../../../src/reflection/transcripts.js');
  appendTranscript(join(fx.home, 'agents', 'agent-p'), 'default', [
    { kind: 'user', text: `Remember ${note}.` },
    { kind: 'assistant', text: 'Noted.' },
  ]);
  const model = scripted([
    {
      calls: [
        {
          name: 'write_file',
          input: { path: `notes/${note}.md`, content: `---\ndescription: ${note}\n---\n${note}\n` },
        },
      ],
    },
    { calls: [commit(`Keep ${note}`, 'Reviewed-Transcript: default')] },
    { text: 'done' },
  ]);
  return runDream({
    launch: sharedShellLauncher(),
    home: fx.home,
    agentId: 'agent-p',
    env: fx.env,
    cwd: projectDir,
    model,
    git: handleGit(fx.memory),
    maxRetries: 0,
    stream: false,
  });
}

function project(settings: unknown): string {
  const dir = makeTmpDir('gitmem-project-');
  mkdirSync(join(dir, '.gitmem'));
  writeFileSync(join(dir, '.gitmem', 'config.json'), JSON.stringify(settings));
  return dir;
}

describe('dream and the project settings', { tags: ['sandbox'] }, () => {
  it("keeps the branch for review when the project's entry for this agent asks for explicit merges", async () => {
    const dir = project({ reflection: { merge: 'auto', agents: { 'agent-p': { merge: 'explicit' } } } });
    const r = await dreamIn(dir, 'first');
    expect(r).toMatchObject({ launched: true, status: 'pending_review', branchKept: true });
  });

  it("merges when the project's explicit entry names another agent", async () => {
    const dir = project({ reflection: { agents: { other: { merge: 'explicit' } } } });
    const r = await dreamIn(dir, 'second');
    expect(r).toMatchObject({ launched: true, status: 'merged' });
  });
});
