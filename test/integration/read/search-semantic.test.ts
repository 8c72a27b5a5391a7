/**
 * Semantic and hybrid search through the real AI SDK provider code against a fake OpenAI-compatible
 * `/v1/embeddings` on loopback: vectors cached per blob, only new blobs embedded, and nothing sent anywhere
 * when no embeddings are configured.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp } from '../../helpers/tmp.js';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI([]);
});
afterAll(async () => {
  await fake.close();
  cleanupTmp();
});

const create = (path: string, description: string, text: string) => ({
  command: 'create',
  reason: `add ${path}`,
  file_path: path,
  description,
  file_text: text,
});
const inputs = (from: number) =>
  fake.embeddingRequests
    .slice(from)
    .flatMap((b) => (Array.isArray(b['input']) ? (b['input'] as string[]) : [String(b['input'])]));

async function semanticFixture(config: Record<string, unknown>) {
  const fx = await memoryFixture();
  writeFileSync(join(fx.home, 'config'), JSON.stringify(config));
  await fx.memory.tool(create('notes/car.md', 'transport', 'I drive a red car to work'));
  await fx.memory.tool(create('notes/dog.md', 'pets', 'the puppy sleeps all day'));
  await fx.memory.tool(create('notes/pay.md', 'finance', 'salary arrives monthly'));
  return fx;
}

describe('semantic search', () => {
  const configured = () => ({
    embeddings: 'openai-compatible:fake:embed-1',
    providers: { fake: { baseURL: fake.baseURL } },
  });

  it('finds by meaning, fuses with full text by default, and embeds each blob once', async () => {
    const { memory } = await semanticFixture(configured());
    expect(await memory.search('automobile', { mode: 'fulltext' })).toEqual([]);
    const start = fake.embeddingRequests.length;
    const semantic = await memory.search('automobile', { mode: 'semantic' });
    expect(semantic[0]?.path).toBe('notes/car.md');
    expect(semantic[0]).toMatchObject({ description: 'transport', line: 4, snippet: 'I drive a red car to work' });
    const embeddedFirst = inputs(start);
    expect(embeddedFirst.filter((t) => t.includes('red car'))).toHaveLength(1);
    expect(embeddedFirst).toContain('automobile');
    const again = fake.embeddingRequests.length;
    const hybrid = await memory.search('automobile puppy');
    expect(
      hybrid
        .map((h) => h.path)
        .slice(0, 2)
        .sort(),
    ).toEqual(['notes/car.md', 'notes/dog.md']);
    expect(hybrid[0]?.path).toBe('notes/dog.md'); // first in both lists: the word and the meaning
    expect(inputs(again)).toEqual(['automobile puppy']); // documents came from the cache
    await memory.tool(create('notes/cash.md', 'wallet', 'cash in the drawer'));
    const afterWrite = fake.embeddingRequests.length;
    expect((await memory.search('money', { mode: 'semantic', limit: 2 })).map((h) => h.path).sort()).toEqual([
      'notes/cash.md',
      'notes/pay.md',
    ]);
    expect(inputs(afterWrite).filter((t) => t !== 'money')).toEqual([expect.stringContaining('cash in the drawer')]);
  });

  it('honours paths and limit in semantic mode', async () => {
    const { memory } = await semanticFixture(configured());
    const hits = await memory.search('vehicle', { mode: 'semantic', paths: 'notes/d*', limit: 1 });
    expect(hits.map((h) => h.path)).toEqual(['notes/dog.md']);
  });

  it('reports a failing provider as MODEL_ERROR', async () => {
    const { memory } = await semanticFixture({
      embeddings: 'openai-compatible:fake:embed-1',
      providers: { fake: { baseURL: 'http://127.0.0.1:1/v1' } },
    }); // nothing listens there
    await expect(memory.search('automobile', { mode: 'semantic' })).rejects.toMatchObject({ code: 'MODEL_ERROR' });
    expect((await memory.search('car', { mode: 'fulltext', paths: 'notes' })).map((h) => h.path)).toEqual([
      'notes/car.md',
    ]);
  });

  it('sends nothing anywhere without the setting', async () => {
    const before = fake.received();
    const { memory } = await semanticFixture({
      providers: { fake: { baseURL: fake.baseURL } },
      model: 'openai-compatible:fake:chat',
    });
    expect((await memory.search('car', { paths: 'notes' })).map((h) => h.path)).toEqual(['notes/car.md']);
    expect(await memory.search('automobile')).toEqual([]);
    await expect(memory.search('automobile', { mode: 'semantic' })).rejects.toMatchObject({
      code: 'MODEL_NOT_CONFIGURED',
    });
    await expect(memory.search('automobile', { mode: 'hybrid' })).rejects.toMatchObject({
      code: 'MODEL_NOT_CONFIGURED',
    });
    expect(fake.received()).toBe(before);
  });

  it('refuses an embeddings setting that is not a provider:model spec', async () => {
    const { memory } = await semanticFixture({ embeddings: 'text-embedding-3-small' });
    await expect(memory.search('car')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((await memory.search('car', { mode: 'fulltext', paths: 'notes' })).map((h) => h.path)).toEqual([
      'notes/car.md',
    ]);
  });
});
