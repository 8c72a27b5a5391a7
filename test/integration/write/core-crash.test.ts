import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';

afterAll(cleanupTmp);

// A writer that kills itself (SIGKILL: no cleanup, lease still held) right after the given durable step.
const CRASHER = `
const { createMemory } = await import(process.argv[1]);
const [home, agent, step] = process.argv.slice(2);
const memory = await createMemory({ home, agentId: agent, onWriteStep: (s) => { if (s === step) process.kill(process.pid, 'SIGKILL'); } });
await memory.tool({ command: 'create', reason: 'crashed write', file_path: 'notes/crash.md', description: 'c', file_text: 'learned before the crash' });
`;

function crashAt(home: string, env: Record<string, string>, step: string): Promise<string | null> {
  const index = join(process.cwd(), 'dist/index.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CRASHER, index, home, 'crashy', step], {
      env,
      stdio: 'ignore',
    });
    child.on('close', (_code, signal) => resolve(signal));
  });
}

describe('a writer killed mid-write (kill -9)', () => {
  for (const [step, kept] of [
    ['objects', false],
    ['journaled', true],
    ['files', true],
    ['published', true],
  ] as const) {
    it(`after "${step}": the lease is recovered, the next write succeeds, and the crashed write is ${kept ? 'completed' : 'absent'}`, async () => {
      const fx = await memoryFixture('crashy');
      const before = Number(git(fx.dir, ['rev-list', '--count', 'HEAD']));
      expect(await crashAt(fx.home, fx.env, step)).toBe('SIGKILL');
      const r = await fx.memory.tool({
        command: 'create',
        reason: 'next write',
        file_path: 'notes/next.md',
        description: 'n',
      });
      expect(r.commit).toBe(git(fx.dir, ['rev-parse', 'HEAD']));
      const subjects = git(fx.dir, ['log', '--format=%s', `-n${kept ? 2 : 1}`]).split('\n');
      expect(subjects).toEqual(kept ? ['next write', 'crashed write'] : ['next write']);
      expect(Number(git(fx.dir, ['rev-list', '--count', 'HEAD']))).toBe(before + (kept ? 2 : 1));
      if (kept) expect(git(fx.dir, ['show', 'HEAD~1:notes/crash.md'])).toContain('learned before the crash');
      expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
      git(fx.dir, ['fsck', '--strict', '--no-progress', '--no-dangling']);
    });
  }
});
