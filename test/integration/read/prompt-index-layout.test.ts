// The index layout's prompt through the kept PromptModel (read/prompt-read.ts): the daemon keeps the model
// between calls and moves it by each commit's paths; after every write its `gitmem prompt` and session-start
// context are byte-identical to a fresh process's, which compiles from the files.
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome } from '../../helpers/cli.js';
import { cleanupTmp } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

describe('index layout prompt, kept between commits (daemon) vs compiled afresh (no daemon)', () => {
  it('is the same after creates, edits, deletes and renames of root files, topics and indexes', () => {
    const h = cliHome('daemon');
    try {
      expect(h.run(['init', '--agent', 'a1', '--layout', 'index'], { env: { GITMEM_DAEMON: '0' } }).code).toBe(0);
      const same = (step: string): void => {
        for (const args of [['prompt'], ['hook', 'codex', 'session-start']]) {
          const input = args[0] === 'hook' ? { input: '{}' } : {};
          const kept = h.run([...args, '--agent', 'a1'], input);
          const fresh = h.run([...args, '--agent', 'a1'], { ...input, env: { GITMEM_DAEMON: '0' } });
          expect(kept.code, kept.stderr).toBe(0);
          expect(kept.stdout, `${step}: ${args.join(' ')}`).toBe(fresh.stdout);
        }
      };
      const tool = (...args: string[]): void => {
        const r = h.run(['memory', ...args, '--agent', 'a1', '--reason', 'step']);
        expect(r.code, r.stderr).toBe(0);
      };
      // The first session-start carries the once-per-agent reflection notice: shown here, before comparing.
      expect(h.run(['hook', 'codex', 'session-start', '--agent', 'a1'], { input: '{}' }).stdout).toContain(
        'gitmem config',
      );
      same('init');
      tool('create', 'lang/go.md', '--description', 'Go style', '--text', 'gofmt');
      same('topic');
      tool('create', 'lang/MEMORY.md', '--text', '- [Go](go.md): Go style\n');
      same('sub-index');
      tool('str-replace', 'MEMORY.md', '--old', '# Memory', '--new', '# Memory\n\n- [lang](lang/MEMORY.md): languages');
      same('root index edit');
      tool('create', 'facts.md', '--description', 'facts', '--text', 'ROOT');
      same('root file');
      tool('rename', 'lang/go.md', 'tools/go.md');
      same('rename');
      tool('delete', 'facts.md');
      same('delete');
    } finally {
      h.close();
    }
  });
});
