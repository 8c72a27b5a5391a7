// Plumbing commits never trigger git's own `gc --auto`: the library asks for it once git would want it
// (the same loose-object estimate git makes), from any process, CLI calls included.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { objectId, writeObject } from '../../../src/git/objects.js';
import { cleanupTmp } from '../../helpers/tmp.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';

afterAll(cleanupTmp);

const packs = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.pack')) : []);

describe('housekeeping', () => {
  it('starts gc --auto in the background once loose objects pass git’s threshold, not before', async () => {
    const f = await memoryFixture('gc-agent');
    const objects = join(f.memory.memoryDir, '.git', 'objects');
    await f.memory.tool({ command: 'create', file_path: 'a.md', description: 'a', file_text: 'a', reason: 'one' });
    await new Promise((r) => setTimeout(r, 300));
    expect(packs(join(objects, 'pack'))).toEqual([]);
    // 28 loose objects in objects/17 is what git reads as "more than 6,700 loose objects".
    let made = 0;
    for (let i = 0; made < 28; i++) {
      const content = Buffer.from(`filler ${i}\n`);
      if (!objectId('blob', content).startsWith('17')) continue;
      writeObject(objects, 'blob', content);
      made++;
    }
    await f.memory.tool({ command: 'create', file_path: 'b.md', description: 'b', file_text: 'b', reason: 'two' });
    const until = Date.now() + 20_000;
    while (packs(join(objects, 'pack')).length === 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    expect(packs(join(objects, 'pack')).length).toBeGreaterThan(0);
  });
});
