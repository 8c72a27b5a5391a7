import { afterAll, describe, expect, it } from 'vitest';
import { isMirrorConfigured } from '../../../src/hooks/post-commit.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { setMirror } from '../../../src/sync/mirror.js';
import { cleanupTmp, git, gitTry, makeTmpDir } from '../../helpers/tmp.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';

afterAll(cleanupTmp);

describe('the mirror and the fast write path', () => {
  it('recognises the mirror setting in config text', () => {
    expect(isMirrorConfigured('[gitmem "mirror"]\n\turl = /srv/m.git\n')).toBe(true);
    expect(isMirrorConfigured('[gitmem]\n\tagentId = a\n[remote "origin"]\n\turl = x\n')).toBe(false);
  });

  it('a memory-tool write (a plumbing commit, no git hooks) still reaches the mirror in the background', async () => {
    const fx = await memoryFixture('mirrored');
    const bare = makeTmpDir('gitmem-mirror-');
    git(bare, ['init', '-q', '--bare', '-b', 'main']);
    await setMirror({ git: createGitRunner({ env: fx.env }), memoryDir: fx.dir, url: bare });
    const r = await fx.memory.tool({
      command: 'create',
      reason: 'mirror me',
      file_path: 'notes/m.md',
      description: 'm',
    });
    let mirrored = '';
    for (let i = 0; i < 100 && mirrored !== r.commit; i++) {
      await new Promise((res) => setTimeout(res, 100));
      mirrored = gitTry(bare, ['rev-parse', 'refs/heads/main']).stdout;
    }
    expect(mirrored).toBe(r.commit);
  });

  it(
    "a background writer's merge reaches the mirror too (main moved without a commit hook)",
    { tags: ['sandbox'] },
    async () => {
      const fx = await memoryFixture('mirrored-worker');
      const bare = makeTmpDir('gitmem-mirror-');
      git(bare, ['init', '-q', '--bare', '-b', 'main']);
      await setMirror({ git: createGitRunner({ env: fx.env }), memoryDir: fx.dir, url: bare });
      const out = await fx.memory.runWorker({
        command:
          "mkdir -p notes && printf -- '---\\ndescription: w\\n---\\nw\\n' > notes/w.md && git add -A && git commit -qm w",
      });
      expect(out.status).toBe('merged');
      const head = out.status === 'merged' ? out.head : '';
      let mirrored = '';
      for (let i = 0; i < 100 && mirrored !== head; i++) {
        await new Promise((res) => setTimeout(res, 100));
        mirrored = gitTry(bare, ['rev-parse', 'refs/heads/main']).stdout;
      }
      expect(mirrored).toBe(head);
    },
  );
});
